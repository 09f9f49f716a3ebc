import type { z } from 'zod';
import type { ProgramProblemKind } from '../errors/workflow-error';
import { childPath, jsonPath } from './json-path';

/** Turns one zod issue of the program schema into problems with a JSON path and what would be valid. */
export function addIssue(
  issue: z.core.$ZodIssue,
  input: unknown,
  add: (path: string, kind: ProgramProblemKind, message: string) => void,
): void {
  const path = jsonPath(issue.path);
  switch (issue.code) {
    case 'unrecognized_keys':
      for (const key of issue.keys) {
        add(childPath(path, key), 'invalid-field', `unknown field "${key}"; remove it or check its spelling`);
      }
      return;
    case 'invalid_type':
      if (valueAt(input, issue.path) === undefined) {
        add(path, 'invalid-field', `missing required field (expected ${issue.expected})`);
        return;
      }
      add(path, 'invalid-field', `expected ${issue.expected}, got ${show(valueAt(input, issue.path))}`);
      return;
    case 'invalid_value':
      add(
        path,
        'invalid-field',
        `${issue.message.replace(/^Invalid input: /, '')}, got ${show(valueAt(input, issue.path))}`,
      );
      return;
    case 'invalid_key':
      add(path, 'invalid-field', `invalid key: ${issue.issues[0]?.message ?? issue.message}`);
      return;
    default:
      add(path, 'invalid-field', issue.message.replace(/^Invalid input: /, ''));
  }
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    if (!Object.hasOwn(current, key)) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = typeof value;
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** The JSON path of a value nested deeper than `limit`, or undefined (iterative). */
export function deepestPath(value: unknown, limit: number): string | undefined {
  const stack: [unknown, number, string][] = [[value, 0, '$']];
  while (stack.length > 0) {
    const [current, depth, path] = stack.pop() as [unknown, number, string];
    if (current === null || typeof current !== 'object') continue;
    if (depth >= limit) return path;
    if (Array.isArray(current))
      current.forEach((entry, i) => {
        stack.push([entry, depth + 1, `${path}[${i}]`]);
      });
    else
      for (const [key, entry] of Object.entries(current))
        stack.push([entry, depth + 1, childPath(path, key)]);
  }
  return undefined;
}
