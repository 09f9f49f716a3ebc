import { type NoticeZone, wallTimeAt } from '../classify/zoned-time';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function zoneOf(timeZone: string): NoticeZone {
  return timeZone === 'UTC' ? { kind: 'offset', minutes: 0 } : { kind: 'iana', name: timeZone };
}

function sameDay(a: number, b: number, zone: NoticeZone): boolean {
  const x = wallTimeAt(a, zone);
  const y = wallTimeAt(b, zone);
  return x.year === y.year && x.month === y.month && x.day === y.day;
}

/** `11pm`, `12:50am` — Claude Code's clock style. */
function claudeClock(hour: number, minute: number): string {
  const h = hour % 12 === 0 ? 12 : hour % 12;
  return `${h}${minute === 0 ? '' : `:${String(minute).padStart(2, '0')}`}${hour < 12 ? 'am' : 'pm'}`;
}

/**
 * The reset as Claude Code 2.1.x prints it: `11pm (America/Anchorage)` when it is today, else
 * `Jul 31, 2am (UTC)` (research §1.3, anthropics/claude-code#19472, #81647).
 */
export function formatClaudeReset(resetsAt: number, now: number, timeZone: string): string {
  const zone = zoneOf(timeZone);
  const wall = wallTimeAt(resetsAt, zone);
  const clock = claudeClock(wall.hour, wall.minute);
  const when = sameDay(resetsAt, now, zone) ? clock : `${MONTHS[wall.month - 1]} ${wall.day}, ${clock}`;
  return `${when} (${timeZone})`;
}

function ordinal(day: number): string {
  if (day % 100 >= 11 && day % 100 <= 13) return `${day}th`;
  return `${day}${['th', 'st', 'nd', 'rd'][day % 10] ?? 'th'}`;
}

/**
 * The reset as Codex prints it (codex-rs/core/src/error.rs): host-local `%-I:%M %p` when it is
 * today, else `%b %-d{st|nd|rd|th}, %Y %-I:%M %p` — `3:28 PM`, `Oct 9th, 2026 11:58 PM`.
 */
export function formatCodexReset(resetsAt: number, now: number, timeZone: string): string {
  const zone = zoneOf(timeZone);
  const wall = wallTimeAt(resetsAt, zone);
  const h = wall.hour % 12 === 0 ? 12 : wall.hour % 12;
  const clock = `${h}:${String(wall.minute).padStart(2, '0')} ${wall.hour < 12 ? 'AM' : 'PM'}`;
  return sameDay(resetsAt, now, zone)
    ? clock
    : `${MONTHS[wall.month - 1]} ${ordinal(wall.day)}, ${wall.year} ${clock}`;
}

/** Claude Code 2.1.2xx limit notices (`You've hit your session limit · resets …`). */
export function claudeLimitText(
  window: 'five_hour' | 'weekly',
  resetsAt: number,
  now: number,
  timeZone: string,
): string {
  const which = window === 'weekly' ? 'weekly limit' : 'session limit';
  return `You've hit your ${which} · resets ${formatClaudeReset(resetsAt, now, timeZone)}`;
}

/** Codex `UsageLimitReachedError` for a Plus plan, with `try again at {T}`. */
export function codexLimitText(resetsAt: number, now: number, timeZone: string): string {
  return `You've hit your usage limit. Upgrade to Pro (https://openai.com/chatgpt/pricing), visit https://chatgpt.com/codex/settings/usage to purchase more credits or try again at ${formatCodexReset(resetsAt, now, timeZone)}.`;
}

/** Claude's throttle that is not a spent window (link-assistant/hive-mind v1.78.11). */
export const CLAUDE_THROTTLE_TEXT =
  'API Error: Server is temporarily limiting requests (not your usage limit) · Rate limited';

/** Claude's signed-out result (2.1.285). */
export const CLAUDE_AUTH_TEXT = 'Not logged in · Please run /login';

/** Codex signed-out failure (0.155–0.157). */
export const CODEX_AUTH_TEXT =
  'unexpected status 401 Unauthorized: Missing bearer or basic authentication in header, url: wss://api.openai.com/v1/responses';
