import { randomBytes, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

/** The cookie that carries the token after the first request (HttpOnly, SameSite=Strict). */
export const TOKEN_COOKIE = 'bullswarm_dashboard';

/** The header a state-changing request (a POST) carries the token in. */
export const TOKEN_HEADER = 'x-bullswarm-token';

/** A new random token: 32 bytes, URL-safe base64 (43 characters). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Whether `given` is the token, compared in constant time. */
export function tokenMatches(token: string, given: string | undefined | null): boolean {
  if (given === undefined || given === null) return false;
  const a = Buffer.from(token, 'utf8');
  const b = Buffer.from(given, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Whether a bind address is loopback only (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  if (bare === 'localhost' || bare === '::1') return true;
  return isIP(bare) === 4 && bare.startsWith('127.');
}

/** The hostname of a Host header value (`[::1]:8080` → `::1`, `localhost:80` → `localhost`). */
export function hostnameOf(hostHeader: string): string {
  const value = hostHeader.trim().toLowerCase();
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    return end === -1 ? value : value.slice(1, end);
  }
  const colon = value.lastIndexOf(':');
  return colon === -1 ? value : value.slice(0, colon);
}

/**
 * Whether a request's Host header may reach the dashboard (DNS rebinding: a page on another site
 * whose name resolves to 127.0.0.1 sends its own name as the Host). Accepted: `localhost`, an IP
 * literal, and the bind address itself. A name that resolves to this machine but is none of those
 * is refused: the dashboard has no way to tell it from a rebinding attack.
 */
export function hostAllowed(hostHeader: string | undefined, bindHost: string): boolean {
  if (hostHeader === undefined || hostHeader === '') return false;
  const name = hostnameOf(hostHeader);
  if (name === 'localhost' || isIP(name) !== 0) return true;
  return name === bindHost.toLowerCase();
}

/** The value of one cookie of a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
