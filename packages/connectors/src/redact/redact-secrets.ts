/** One secret-shaped value found in a document: where, and what it looks like (never the value). */
export interface SecretFinding {
  /** The field, e.g. `next[1]` or `decisions[0].why`. */
  readonly path: string;
  /** The shape (`github-token`, `aws-access-key`, …, `high-entropy`) or `env:<NAME>`. */
  readonly kind: string;
}

/** Token shapes refused in a packet, by kind. */
export const SECRET_PATTERNS: readonly { readonly kind: string; readonly pattern: RegExp }[] = [
  { kind: 'anthropic-key', pattern: /sk-ant-[A-Za-z0-9_-]{20,}/ },
  { kind: 'openai-key', pattern: /\bsk-(?:proj-|svcacct-|admin-|live-|test-)?[A-Za-z0-9_-]{20,}/ },
  { kind: 'github-token', pattern: /\bgh[pousr]_[A-Za-z0-9]{30,}/ },
  { kind: 'github-pat', pattern: /\bgithub_pat_[A-Za-z0-9_]{22,}/ },
  { kind: 'slack-token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/ },
  { kind: 'aws-access-key', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/ },
  { kind: 'google-api-key', pattern: /\bAIza[0-9A-Za-z_-]{35}/ },
  { kind: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/ },
  { kind: 'private-key', pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/ },
];

/**
 * Names of environment variables whose values are credentials: `*TOKEN*`, `*KEY*`, `*SECRET*`,
 * `*PASSWORD*`/`*PASSWD*`, `*CREDENTIAL*`, `*AUTH*` (not `AUTHOR`), `*COOKIE*`, `*SESSION*`.
 */
export const CREDENTIAL_ENV_NAME = /TOKEN|KEY|SECRET|PASSW(?:OR)?D|CREDENTIAL|AUTH(?!OR)|COOKIE|SESSION/i;

/** Credential values shorter than this are not matched (too generic to tell from ordinary text). */
export const MIN_CREDENTIAL_VALUE_LENGTH = 8;

/** A run of token characters this long or longer is judged for entropy. */
export const HIGH_ENTROPY_MIN_LENGTH = 32;

/** Shannon entropy (bits per character) from which a long mixed-case token is judged random. */
export const HIGH_ENTROPY_BITS = 4.2;

/** Shannon entropy of a string, in bits per character. */
export function shannonEntropy(text: string): number {
  if (text.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

function share(text: string, pattern: RegExp): number {
  let count = 0;
  for (const ch of text) if (pattern.test(ch)) count += 1;
  return count / text.length;
}

/**
 * A long token looks random (a generated secret) when it mixes cases the way random base62/base64
 * does — at least 15 % upper case and 15 % lower case, with a digit or a `+`/`/` — and its entropy
 * is at least 4.2 bits per character. Identifiers, paths and time-stamped file names have few
 * capitals; hex hashes have none.
 */
function looksRandom(token: string): boolean {
  if (share(token, /[A-Z]/) < 0.15 || share(token, /[a-z]/) < 0.15) return false;
  if (!/[0-9+/]/.test(token)) return false;
  return shannonEntropy(token) >= HIGH_ENTROPY_BITS;
}

/** The parts of a path segment's letters and digits: `HeaderBar` → `Header`, `Bar`; `K7MD` → `K`, `7`, `MD`. */
const WORD_RUN = /[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+/g;

/**
 * A path segment made of words (`AnnaKowalski`, `BullSwarmDemo`, `HeaderBar.tsx`, `v2-final`):
 * split at `.`, `_` and `-`, each part falls into words, capitalised words, capital runs and digit
 * runs with at most one run of one or two characters. Random base62 breaks into many short runs
 * (`wJalrXUtnFEMI` → w, Jalr, X, Utn, FEMI).
 */
function isWordlikeSegment(segment: string): boolean {
  for (const part of segment.split(/[._-]+/)) {
    if (part.length <= 3) continue;
    const runs = part.match(WORD_RUN) ?? [];
    if (runs.join('').length !== part.length) return false;
    if (runs.filter((run) => run.length <= 2).length > 1) return false;
  }
  return true;
}

/**
 * The pieces of a long token to judge as possible generated secrets. A path whose segments are all
 * words (`/Users/AnnaKowalski/Documents/GitHub/BullSwarmDemo`, the mixed case of a home on macOS)
 * is no secret: only its own segments of 32 characters or more are judged. Anything else (a base64
 * value with `/` in it among them) is judged whole.
 */
function secretCandidates(token: string): readonly string[] {
  if (!token.includes('/')) return [token];
  const segments = token.split('/');
  const words = (segment: string) =>
    segment.length < 4 || segment.length >= HIGH_ENTROPY_MIN_LENGTH || isWordlikeSegment(segment);
  if (!segments.every(words)) return [token];
  return segments.filter((segment) => segment.length >= HIGH_ENTROPY_MIN_LENGTH);
}

/** A long token (or, in a path of words, one of its long segments) that looks like a generated secret. */
function hasRandomPart(token: string): boolean {
  return secretCandidates(token).some((candidate) => looksRandom(candidate));
}

/** `token` with its generated-secret part replaced: the whole token, or only a path's random segments. */
function redactToken(token: string): string {
  const candidates = secretCandidates(token);
  if (candidates.length === 1 && candidates[0] === token)
    return looksRandom(token) ? '[redacted high-entropy]' : token;
  return token
    .split('/')
    .map((segment) =>
      segment.length >= HIGH_ENTROPY_MIN_LENGTH && looksRandom(segment) ? '[redacted high-entropy]' : segment,
    )
    .join('/');
}

/** The kind of secret `text` carries, or undefined. Never returns the value. */
export function secretKindOf(
  text: string,
  credentialValues: readonly { name: string; value: string }[],
): string | undefined {
  for (const { kind, pattern } of SECRET_PATTERNS) if (pattern.test(text)) return kind;
  for (const { name, value } of credentialValues) if (text.includes(value)) return `env:${name}`;
  for (const token of text.match(/[A-Za-z0-9+/=_-]{32,}/g) ?? []) {
    if (token.length >= HIGH_ENTROPY_MIN_LENGTH && hasRandomPart(token)) return 'high-entropy';
  }
  return undefined;
}

/**
 * The credential values of an environment: variables whose name contains TOKEN, KEY, SECRET,
 * PASSWORD, PASSWD or CREDENTIAL, with values of at least 8 characters that are not plain
 * absolute paths (a path to a key file names where a secret lives; it is not the secret).
 */
export function credentialValues(
  env: Readonly<Record<string, string | undefined>>,
): { name: string; value: string }[] {
  const values: { name: string; value: string }[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || !CREDENTIAL_ENV_NAME.test(name)) continue;
    const trimmed = value.trim();
    if (trimmed.length < MIN_CREDENTIAL_VALUE_LENGTH) continue;
    if (/^\/[^\s]*$/.test(trimmed)) continue;
    values.push({ name, value: trimmed });
  }
  return values;
}

/**
 * Scans every string in `value` (keys included) for secrets: token shapes (API keys `sk-…`,
 * `sk-ant-…`, GitHub `ghp_…`/`github_pat_…`, Slack `xox*-…`, AWS `AKIA…`, Google `AIza…`, JWTs,
 * private key blocks), long high-entropy tokens (32+ characters, at least 15 % upper and 15 % lower
 * case, a digit or `+`/`/`, ≥ 4.2 bits of entropy per character — git hashes, all lower-case hex,
 * paths and time-stamped names never match),
 * and values of credential variables of `env`. Returns one finding per field, never the value.
 */
export function scanForSecrets(
  value: unknown,
  env: Readonly<Record<string, string | undefined>> = {},
): SecretFinding[] {
  const credentials = credentialValues(env);
  const findings: SecretFinding[] = [];
  const visit = (node: unknown, path: string) => {
    if (typeof node === 'string') {
      const kind = secretKindOf(node, credentials);
      if (kind !== undefined) findings.push({ path: path || '(root)', kind });
      return;
    }
    if (Array.isArray(node)) {
      node.forEach((item, index) => {
        visit(item, `${path}[${index}]`);
      });
      return;
    }
    if (node !== null && typeof node === 'object') {
      for (const [key, child] of Object.entries(node)) {
        const childPath = path === '' ? key : `${path}.${key}`;
        const keyKind = secretKindOf(key, credentials);
        if (keyKind !== undefined) findings.push({ path: `${childPath} (key)`, kind: keyKind });
        visit(child, childPath);
      }
    }
  };
  visit(value, '');
  return findings;
}

/** A `Bearer <value>` credential in a header line or message. */
const BEARER = /\bBearer\s+(?!\[redacted)[^\s"',;]+/gi;

/**
 * `text` with every secret {@link secretKindOf} would flag replaced by `[redacted <kind>]`: token
 * shapes, values of credential variables of `env` (longest first, also in their JSON-escaped form
 * so a JSON document can be redacted as text), `Bearer <value>`, long high-entropy tokens. This is
 * bullswarm's one redactor: every place where text leaves a process (terminal, files, database
 * rows, JSON output) goes through it, see {@link createRedactor}.
 */
export function redactSecrets(text: string, env: Readonly<Record<string, string | undefined>> = {}): string {
  return redactWith(
    text,
    credentialValues(env).sort((a, b) => b.value.length - a.value.length),
  );
}

function redactWith(text: string, credentials: readonly { name: string; value: string }[]): string {
  let out = text;
  // Credential values first: `[redacted env:NAME]` says which variable leaked.
  for (const { name, value } of credentials) {
    if (out.includes(value)) out = out.split(value).join(`[redacted env:${name}]`);
    const escaped = JSON.stringify(value).slice(1, -1);
    if (escaped !== value && out.includes(escaped)) out = out.split(escaped).join(`[redacted env:${name}]`);
  }
  for (const { kind, pattern } of SECRET_PATTERNS) {
    const flags = pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`;
    out = out.replace(new RegExp(pattern.source, flags), `[redacted ${kind}]`);
  }
  out = out.replace(BEARER, 'Bearer [redacted]');
  return out.replace(/[A-Za-z0-9+/=_-]{32,}/g, redactToken);
}

/** A redactor bound to the credential values of some environments. */
export interface Redactor {
  /** `text` redacted ({@link redactSecrets} over every environment added). */
  text(text: string): string;
  /** A copy of a JSON-like value with every string (keys included) redacted; the same value when nothing changed. */
  value<T>(value: T): T;
  /** Adds the credential values of another environment (a pool's account environment). */
  addEnv(env: Readonly<Record<string, string | undefined>>): void;
  /**
   * Lets one value through unredacted: a secret this process minted on purpose for the person who
   * started it (the dashboard's access token in the address it prints). Only that exact value.
   */
  allow(value: string): void;
}

/**
 * A redactor over the credential values of `envs` (the process's environment, each pool's
 * account environment) plus the token shapes. Public: the CLI, the workflow engine, the swarm, the
 * dashboard and the MCP server redact what they write through it.
 *
 * @example
 * ```ts
 * const redact = createRedactor([process.env, pool.env]);
 * process.stderr.write(redact.text(message));
 * writeFileAtomic(path, JSON.stringify(redact.value(report)));
 * ```
 */
export function createRedactor(envs: readonly Readonly<Record<string, string | undefined>>[] = []): Redactor {
  const byValue = new Map<string, string>();
  let credentials: { name: string; value: string }[] = [];
  const addEnv = (env: Readonly<Record<string, string | undefined>>) => {
    for (const { name, value } of credentialValues(env)) if (!byValue.has(value)) byValue.set(value, name);
    // Longest first, so a value that contains another is replaced whole.
    credentials = [...byValue]
      .map(([value, name]) => ({ name, value }))
      .sort((a, b) => b.value.length - a.value.length);
  };
  for (const env of envs) addEnv(env);
  const allowed: string[] = [];
  const text = (input: string) => {
    let held = input;
    const kept: string[] = [];
    // An allowed value is swapped for a NUL-fenced placeholder before redaction and put back after,
    // so neither a token shape nor the high-entropy rule touches it (NUL splits every token).
    for (const keep of allowed) {
      if (!held.includes(keep)) continue;
      held = held.split(keep).join(`\u0000${kept.length}\u0000`);
      kept.push(keep);
    }
    const out = redactWith(held, credentials);
    return kept.length === 0
      ? out
      : out.replace(/\u0000(\d+)\u0000/g, (_, i: string) => kept[Number(i)] ?? '');
  };
  const value = <T>(input: T): T => {
    if (typeof input === 'string') return text(input) as T;
    if (Array.isArray(input)) {
      let changed = false;
      const out = input.map((item) => {
        const next = value(item);
        if (next !== item) changed = true;
        return next;
      });
      return (changed ? out : input) as T;
    }
    if (input !== null && typeof input === 'object') {
      let changed = false;
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(input)) {
        const k = text(key);
        const next = value(child);
        if (k !== key || next !== child) changed = true;
        out[k] = next;
      }
      return (changed ? out : input) as T;
    }
    return input;
  };
  const allow = (keep: string) => {
    if (keep !== '' && !allowed.includes(keep)) allowed.push(keep);
  };
  return { text, value, addEnv, allow };
}
