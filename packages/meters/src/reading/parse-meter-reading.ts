import type { MeterWindow } from '@bullswarm/pacing';
import { formatFieldPath } from '@bullswarm/pacing/internal';
import type { z } from 'zod';
import { MeterReadError } from '../errors/meter-read-error';
import { meterReadingSchema } from './meter-reading-schema';
import { DEFAULT_WINDOW_MINUTES } from './window-kinds';

/** A parsed meter reading in pacing's terms (epoch ms, window minutes filled in). */
export interface ParsedMeterReading {
  readonly windows: MeterWindow[];
  readonly readAt?: number;
  readonly rateLimited?: boolean;
}

/** Where a reading came from, so errors can name it. */
export interface MeterReadingOrigin {
  /** The meter source type (`file`, `command`, `claude-code`, …). */
  readonly sourceType: string;
  /** How to name the origin in messages: `meter file /x/y.json`, `meter command "my-meter --json"`. */
  readonly description: string;
  /** The file path or command line, for `MeterReadError.location`. */
  readonly location: string;
}

/** Formats a zod issue path as `windows[0].usedPct` (or `(root)` for the top level). */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  return formatFieldPath(path) || '(root)';
}

function describeIssue(issue: z.core.$ZodIssue): string {
  return `${formatIssuePath(issue.path)}: ${issue.message}`;
}

/**
 * Parses JSON text as a bullswarm meter reading. Errors are {@link MeterReadError}s with reason
 * `bad-reading` whose message names the origin and the field path (`windows[0].usedPct`) and
 * whose `fieldPath` holds the first offending path.
 */
export function parseMeterReadingText(text: string, origin: MeterReadingOrigin): ParsedMeterReading {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    const detail = text.trim() === '' ? 'it is empty' : `it is not JSON (${(cause as Error).message})`;
    throw new MeterReadError({
      sourceType: origin.sourceType,
      reason: 'bad-reading',
      status: 'bad meter reading',
      location: origin.location,
      fieldPath: '(root)',
      message: `${origin.description}: ${detail}; expected a bullswarm meter reading {"windows":[…]}`,
      isRetryable: true,
      cause,
    });
  }
  return parseMeterReading(json, origin);
}

/** Validates a JSON value as a bullswarm meter reading; see {@link parseMeterReadingText}. */
export function parseMeterReading(json: unknown, origin: MeterReadingOrigin): ParsedMeterReading {
  const result = meterReadingSchema.safeParse(json);
  if (!result.success) {
    const issues = result.error.issues;
    throw new MeterReadError({
      sourceType: origin.sourceType,
      reason: 'bad-reading',
      status: 'bad meter reading',
      location: origin.location,
      fieldPath: formatIssuePath(issues[0]?.path ?? []),
      message: `${origin.description} is not a valid bullswarm meter reading: ${issues.map(describeIssue).join('; ')}`,
      isRetryable: true,
    });
  }
  const reading = result.data;
  return {
    windows: reading.windows.map((window) => {
      const resetsAt =
        window.resetsAt === undefined
          ? undefined
          : typeof window.resetsAt === 'number'
            ? window.resetsAt
            : Date.parse(window.resetsAt);
      return {
        kind: window.kind,
        usedPct: window.usedPct,
        ...(resetsAt === undefined ? {} : { resetsAt }),
        windowMinutes: window.windowMinutes ?? DEFAULT_WINDOW_MINUTES[window.kind],
      };
    }),
    ...(reading.readAt === undefined ? {} : { readAt: Date.parse(reading.readAt) }),
    ...(reading.rateLimited === undefined ? {} : { rateLimited: reading.rateLimited }),
  };
}
