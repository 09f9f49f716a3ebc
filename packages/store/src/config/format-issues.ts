import { formatFieldPath as formatPath } from '@bullswarm/pacing/internal';
import type { z } from 'zod';

/** One schema problem, with its field path in `pools[2].models.high` form. */
export interface FieldProblem {
  /** The offending field; undefined for the file as a whole. */
  readonly fieldPath: string | undefined;
  readonly problem: string;
  /** How to recover when the usual advice (fix the field by hand) would be wrong. */
  readonly recovery?: string;
}

/** Format a zod path as `pools[2].models.high` (keys that are not plain names are quoted). */
export function formatFieldPath(path: readonly PropertyKey[]): string | undefined {
  const out = formatPath(path);
  return out === '' ? undefined : out;
}

/** Turn zod issues into field problems worded for a person editing the file by hand. */
export function formatIssues(issues: readonly z.core.$ZodIssue[], input: unknown): FieldProblem[] {
  return issues.flatMap((issue): FieldProblem[] => {
    const fieldPath = formatFieldPath(issue.path);
    switch (issue.code) {
      case 'unrecognized_keys':
        return issue.keys.map((key) => ({
          fieldPath: formatFieldPath([...issue.path, key]),
          problem: 'unknown field; remove it or check its spelling',
        }));
      case 'invalid_key': {
        const inner = issue.issues[0]?.message ?? issue.message;
        return [{ fieldPath, problem: `invalid key: ${inner}` }];
      }
      case 'invalid_type':
        if (valueAt(input, issue.path) === undefined) {
          return [{ fieldPath, problem: `missing required field (expected ${issue.expected})` }];
        }
        return [{ fieldPath, problem: issue.message.replace(/^Invalid input: /, '') }];
      case 'invalid_value': {
        const found = valueAt(input, issue.path);
        if (fieldPath === 'version' && typeof found === 'number' && found > 1) {
          return [
            {
              fieldPath,
              problem: `version ${found} was written by a newer bullswarm; this one reads version 1`,
              recovery: 'upgrade bullswarm to read it',
            },
          ];
        }
        return [
          { fieldPath, problem: `${issue.message.replace(/^Invalid input: /, '')}, got ${show(found)}` },
        ];
      }
      default:
        return [{ fieldPath, problem: issue.message.replace(/^Invalid input: /, '') }];
    }
  });
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
