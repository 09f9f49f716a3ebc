import { parseIsoInstant } from '@bullswarm/connectors/internal';
import { LANES, type Lane, type WindowKind } from '@bullswarm/pacing';
import { CliUsageError } from '../cli/cli-errors';

/** Collects a repeatable option's values (`--add-dir a --add-dir b`). */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** `--lane`: one of analyze, build, chore. */
export function parseLane(value: string | undefined, flag = '--lane'): Lane {
  if (value === undefined) {
    throw new CliUsageError({
      message: `${flag} is required: one of ${LANES.join(', ')}`,
      flag,
      expected: LANES.join(', '),
    });
  }
  if (!(LANES as readonly string[]).includes(value)) {
    throw new CliUsageError({
      message: `${flag} "${value}" is not a lane: expected one of ${LANES.join(', ')}`,
      flag,
      expected: LANES.join(', '),
    });
  }
  return value as Lane;
}

/** A whole number >= `min` (`--retry-attempts 2`). */
export function parseWholeNumber(value: string, flag: string, min = 0, max?: number): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) < min || (max !== undefined && Number(value) > max)) {
    const expected = max === undefined ? `a whole number >= ${min}` : `a whole number from ${min} to ${max}`;
    throw new CliUsageError({
      message: `${flag} "${value}" is not valid: expected ${expected}`,
      flag,
      expected,
    });
  }
  return Number(value);
}

/**
 * A percentage >= 0 (values above 100 are kept: providers over-report), or from 0 to `max` when
 * given (a reading typed by hand: `meters set --weekly 150` is a typo, not a reading).
 */
export function parsePct(value: string, flag: string, max?: number): number {
  const n = Number(value.trim().replace(/%$/, ''));
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || (max !== undefined && n > max)) {
    const range = max === undefined ? '0 or more' : `0 to ${max}`;
    throw new CliUsageError({
      message: `${flag} "${value}" is not valid: expected a percentage such as 42 or 87.5 (${range})`,
      flag,
      expected: max === undefined ? 'a percentage >= 0' : `a percentage from 0 to ${max}`,
    });
  }
  return n;
}

/** `K=V` (`--env`, `--model`, `--resets-at`): the key before the first `=`, the value after it. */
export function parseKeyValue(value: string, flag: string, what: string): [string, string] {
  const at = value.indexOf('=');
  if (at <= 0) {
    throw new CliUsageError({
      message: `${flag} "${value}" is not valid: expected ${what}`,
      flag,
      expected: what,
    });
  }
  return [value.slice(0, at), value.slice(at + 1)];
}

const WINDOW_NAMES: Readonly<Record<string, WindowKind>> = {
  '5h': 'five_hour',
  five_hour: 'five_hour',
  'five-hour': 'five_hour',
  weekly: 'weekly',
  monthly: 'monthly',
};

/** A window as the command line names it: `5h`, `weekly`, `monthly` (the flag is `--<name>`). */
export function windowFlagName(kind: WindowKind): '5h' | 'weekly' | 'monthly' {
  return kind === 'five_hour' ? '5h' : kind;
}

/** A window name as typed: `5h` (or `five_hour`), `weekly`, `monthly`. */
export function parseWindowName(value: string, flag: string): WindowKind {
  const kind = WINDOW_NAMES[value];
  if (kind === undefined) {
    throw new CliUsageError({
      message: `${flag} window "${value}" is not valid: expected 5h, weekly or monthly`,
      flag,
      expected: '5h, weekly or monthly',
    });
  }
  return kind;
}

/**
 * An ISO-8601 instant with a zone (`2026-12-01T00:00:00Z`), or a date alone (midnight UTC);
 * returns epoch ms. The rule is `parseIsoInstant` (connectors/internal), the same as `BULLSWARM_NOW`'s:
 * zone-less times and dates or times that do not exist (`2026-02-30`, `24:00`, `12:61`) are refused.
 */
export function parseInstant(value: string, flag: string): number {
  const ms = parseIsoInstant(value);
  if (ms === undefined) {
    throw new CliUsageError({
      message: `${flag} "${value}" is not valid: expected an ISO-8601 instant with a zone, such as 2026-12-01T00:00:00Z, or a date alone (midnight UTC), such as 2026-12-01`,
      flag,
      expected: 'an ISO-8601 instant such as 2026-12-01T00:00:00Z, or a date such as 2026-12-01',
    });
  }
  return ms;
}

const WAIT_DURATION = /^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/;

/** A duration as typed for a wait bound: `3h`, `90m`, `1h30m`, `45s`, `2d`; returns ms (more than 0). */
export function parseWaitDuration(value: string, flag: string): number {
  const text = value.trim();
  const match = WAIT_DURATION.exec(text);
  const [d, h, m, s] = (match?.slice(1) ?? []).map((part) => Number(part ?? 0));
  const ms =
    match === null || text === '' ? 0 : ((((d ?? 0) * 24 + (h ?? 0)) * 60 + (m ?? 0)) * 60 + (s ?? 0)) * 1000;
  if (!(ms > 0)) {
    const expected = 'a duration such as 3h, 90m, 1h30m, 45s or 2d';
    throw new CliUsageError({
      message: `${flag} "${value}" is not valid: expected ${expected}`,
      flag,
      expected,
    });
  }
  return ms;
}
