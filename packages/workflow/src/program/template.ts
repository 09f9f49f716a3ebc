import { isPlainObject } from './json-path';

/**
 * What a `{{…}}` template refers to. Only these forms exist; nothing else runs:
 * - `{{inputs.<name>}}` — a run input;
 * - `{{item}}`, `{{item.<path>}}` — the fan-out item (or a field of it);
 * - `{{outputs.<id>.data}}`, `{{outputs.<id>.data.<path>}}` — the structured output of an upstream step
 *   (one with an `outputSchema`);
 * - `{{outputs.<id>.items}}` — the outputs of an upstream fan-out step, as a JSON list of each item's data;
 * - `{{runId}}`.
 *
 * A `<path>` is dot-separated names or list indexes (`data.files.0.path`).
 */
export type TemplateRef =
  | { readonly kind: 'input'; readonly name: string }
  | { readonly kind: 'item'; readonly path: readonly string[] }
  | {
      readonly kind: 'output';
      readonly stepId: string;
      readonly field: 'data' | 'items';
      readonly path: readonly string[];
    }
  | { readonly kind: 'runId' };

/** One `{{…}}` occurrence. */
export interface TemplateToken {
  /** The whole occurrence, braces included. */
  readonly raw: string;
  /** The reference; undefined when the expression is not one of the supported forms. */
  readonly ref?: TemplateRef;
  /** Why the expression is not a reference (with the valid forms). */
  readonly error?: string;
}

const TOKEN = /\{\{\s*([^{}]*?)\s*\}\}/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const SEGMENT = /^[A-Za-z0-9_-]+$/;

/** The valid forms, for error messages. */
export const TEMPLATE_FORMS =
  '{{inputs.<name>}}, {{item}}, {{item.<path>}}, {{outputs.<id>.data.<path>}}, {{outputs.<id>.items}}, {{runId}}';

/** Parses one template expression (the text between the braces). */
export function parseTemplateExpression(expression: string): { ref?: TemplateRef; error?: string } {
  const parts = expression.split('.');
  const bad = (why: string) => ({ error: `${why}; valid forms are ${TEMPLATE_FORMS}` });
  if (parts.some((part) => part === '')) return bad(`"{{${expression}}}" has an empty path segment`);
  const [head, ...rest] = parts as [string, ...string[]];
  switch (head) {
    case 'runId':
      return rest.length === 0 ? { ref: { kind: 'runId' } } : bad(`"{{${expression}}}": runId has no fields`);
    case 'inputs': {
      if (rest.length !== 1 || !NAME.test(rest[0] as string)) {
        return bad(`"{{${expression}}}" is not {{inputs.<name>}}`);
      }
      return { ref: { kind: 'input', name: rest[0] as string } };
    }
    case 'item':
      if (!rest.every((part) => SEGMENT.test(part))) return bad(`"{{${expression}}}" has a bad path`);
      return { ref: { kind: 'item', path: rest } };
    case 'outputs': {
      const [stepId, field, ...path] = rest;
      if (stepId === undefined || field === undefined) {
        return bad(`"{{${expression}}}" names no step output`);
      }
      if (field !== 'data' && field !== 'items') {
        return bad(
          `"{{${expression}}}": only .data (and .items of a fan-out step) of a step output can be used`,
        );
      }
      if (field === 'items' && path.length > 0) {
        return bad(`"{{${expression}}}": {{outputs.<id>.items}} takes no path`);
      }
      if (!path.every((part) => SEGMENT.test(part))) return bad(`"{{${expression}}}" has a bad path`);
      return { ref: { kind: 'output', stepId, field, path } };
    }
    default:
      return bad(`unknown template "{{${expression}}}"`);
  }
}

/**
 * A `{{` that opens a reference: optional spaces, then a head the grammar knows (`inputs`, `item`,
 * `outputs`, `runId`) as a whole word. Keep in step with the `switch` in {@link parseTemplateExpression}.
 */
const REFERENCE_OPENING = /^\{\{\s*(?:inputs|item|outputs|runId)(?![A-Za-z0-9_-])/;

/**
 * Every `{{…}}` occurrence in `text`, parsed; then every `{{` left over that opens a reference the
 * grammar knows (`{{inputs.x`, `{{ item`, `{{outputs.` or `{{runId`) but is not a template: no `}}`
 * closes it (`"{{inputs.x" is not closed with "}}"`), or the `}}` that closes it has a brace before it
 * (`"{{item.{x}}}" holds a brace`). Any other leftover `{{` (`"a {{ b"`, `"{{ {x} }}"`) is literal text,
 * rendered as written. A token's `raw` is at most one line and 40 characters.
 */
export function templateTokens(text: string): TemplateToken[] {
  const tokens: TemplateToken[] = [];
  if (!text.includes('{{')) return tokens;
  for (const match of text.matchAll(TOKEN)) {
    const parsed = parseTemplateExpression(match[1] as string);
    tokens.push({ raw: match[0], ...parsed });
  }
  // What is left once the closed templates are blanked out.
  const rest = text.replace(TOKEN, (raw) => ' '.repeat(raw.length));
  for (let at = rest.indexOf('{{'); at !== -1; at = rest.indexOf('{{', at + 1)) {
    if (!REFERENCE_OPENING.test(rest.slice(at, at + 80))) continue;
    const next = rest.indexOf('{{', at + 2);
    let close = rest.indexOf('}}', at + 2);
    const closed = close !== -1 && (next === -1 || close < next);
    while (closed && rest[close + 2] === '}') close++;
    const lineEnd = text.indexOf('\n', at);
    const end = closed ? close + 2 : lineEnd === -1 ? text.length : lineEnd;
    let raw = text.slice(at, lineEnd === -1 ? end : Math.min(end, lineEnd)).trimEnd();
    if (raw.length > 40 || (lineEnd !== -1 && end > lineEnd)) raw = `${raw.slice(0, 39)}…`;
    const why = closed ? `"${raw}" holds a brace, which no template can` : `"${raw}" is not closed with "}}"`;
    tokens.push({ raw, error: `${why}; valid forms are ${TEMPLATE_FORMS}` });
  }
  return tokens;
}

/** The values templates resolve against at run time. */
export interface TemplateScope {
  readonly runId: string;
  readonly inputs: Readonly<Record<string, unknown>>;
  /** The fan-out item; `hasItem` false outside a fan-out. */
  readonly hasItem: boolean;
  readonly item?: unknown;
  /** An upstream step's output: `data` of a step, `items` (each item's data) of a fan-out step. */
  output(stepId: string): { readonly data?: unknown; readonly items?: readonly unknown[] } | undefined;
}

/** Renders `text`, or says which template has no value. */
export function renderTemplate(
  text: string,
  scope: TemplateScope,
): { readonly ok: true; readonly text: string } | { readonly ok: false; readonly error: string } {
  if (!text.includes('{{')) return { ok: true, text };
  let error: string | undefined;
  const rendered = text.replace(TOKEN, (raw, expression: string) => {
    const parsed = parseTemplateExpression(expression);
    if (parsed.ref === undefined) {
      error ??= parsed.error ?? `bad template ${raw}`;
      return raw;
    }
    const value = resolveRef(parsed.ref, scope);
    if (!value.found) {
      error ??= `template ${raw} has no value${value.why ? ` (${value.why})` : ''}`;
      return raw;
    }
    return formatValue(value.value);
  });
  return error === undefined ? { ok: true, text: rendered } : { ok: false, error };
}

/** Resolves one reference in a scope. */
export function resolveRef(
  ref: TemplateRef,
  scope: TemplateScope,
): { readonly found: true; readonly value: unknown } | { readonly found: false; readonly why?: string } {
  switch (ref.kind) {
    case 'runId':
      return { found: true, value: scope.runId };
    case 'input':
      return Object.hasOwn(scope.inputs, ref.name) && scope.inputs[ref.name] !== undefined
        ? { found: true, value: scope.inputs[ref.name] }
        : { found: false, why: `input ${ref.name} has no value` };
    case 'item':
      if (!scope.hasItem) return { found: false, why: 'not in a fan-out' };
      return walk(scope.item, ref.path);
    case 'output': {
      const output = scope.output(ref.stepId);
      if (output === undefined) return { found: false, why: `step ${ref.stepId} has no recorded output` };
      if (ref.field === 'items') {
        return output.items === undefined
          ? { found: false, why: `step ${ref.stepId} is not a fan-out` }
          : { found: true, value: output.items };
      }
      if (output.data === undefined) return { found: false, why: `step ${ref.stepId} recorded no data` };
      return walk(output.data, ref.path);
    }
  }
}

/** Follows a path of names/indexes into a JSON value. */
export function walk(
  value: unknown,
  path: readonly string[],
): { readonly found: true; readonly value: unknown } | { readonly found: false; readonly why: string } {
  let current = value;
  for (let index = 0; index < path.length; index++) {
    const key = path[index] as string;
    if (Array.isArray(current) && /^\d+$/.test(key) && Number(key) < current.length) {
      current = current[Number(key)];
    } else if (isPlainObject(current) && Object.hasOwn(current, key)) {
      current = current[key];
    } else {
      return { found: false, why: `no value at ${path.slice(0, index + 1).join('.')}` };
    }
  }
  return current === undefined ? { found: false, why: 'no value' } : { found: true, value: current };
}

/** A string renders as itself; anything else as its JSON. */
export function formatValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
