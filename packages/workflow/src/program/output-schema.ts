import { childPath, isPlainObject, ownValue } from './json-path';

/** The JSON types an output schema can name. */
export const OUTPUT_SCHEMA_TYPES = [
  'object',
  'array',
  'string',
  'number',
  'integer',
  'boolean',
  'null',
] as const;

/** A JSON type an output schema can name. */
export type OutputSchemaType = (typeof OUTPUT_SCHEMA_TYPES)[number];

/**
 * The JSON-Schema subset a step's `outputSchema` may use. The root must be `type: "object"`.
 * Supported keywords: `type` (one type or a list), `properties`, `required`, `items`, `enum`,
 * `additionalProperties` (boolean or a schema), `minItems`, `maxItems`, `minLength`, `maxLength`,
 * `minimum`, `maximum`, `description`, `title` (and `$schema` at the root). Anything else is
 * refused, so a schema never silently checks less than its author thinks.
 */
export interface OutputSchema {
  readonly $schema?: string;
  readonly type?: OutputSchemaType | readonly OutputSchemaType[];
  readonly properties?: Readonly<Record<string, OutputSchema>>;
  readonly required?: readonly string[];
  readonly items?: OutputSchema;
  readonly enum?: readonly unknown[];
  readonly additionalProperties?: boolean | OutputSchema;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly description?: string;
  readonly title?: string;
}

/** One problem, with the JSON path of the offending place. */
export interface OutputSchemaProblem {
  /** `$.properties.files.items` for a schema problem; `$.files[2]` for a value problem. */
  readonly path: string;
  readonly message: string;
}

const KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'items',
  'enum',
  'additionalProperties',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'description',
  'title',
]);

/** Schemas nested deeper than this are refused (a guard against runaway input). */
export const MAX_OUTPUT_SCHEMA_DEPTH = 32;

/**
 * Checks that `schema` is an output schema of the supported subset whose root is an object type.
 * Returns every problem (empty when usable). Never throws.
 */
export function checkOutputSchema(schema: unknown, path = '$'): OutputSchemaProblem[] {
  const problems: OutputSchemaProblem[] = [];
  if (!isPlainObject(schema)) {
    problems.push({ path, message: 'expected a JSON Schema object with "type": "object"' });
    return problems;
  }
  const type = ownValue(schema, 'type');
  if (type !== 'object' && !(Array.isArray(type) && type.length === 1 && type[0] === 'object')) {
    problems.push({
      path: childPath(path, 'type'),
      message: `the root of an outputSchema must be "type": "object", got ${show(type)}`,
    });
  }
  checkNode(schema, path, 0, problems, true);
  return problems;
}

function checkNode(
  node: unknown,
  path: string,
  depth: number,
  problems: OutputSchemaProblem[],
  root = false,
): void {
  if (!isPlainObject(node)) {
    problems.push({ path, message: `expected a schema object, got ${show(node)}` });
    return;
  }
  if (depth > MAX_OUTPUT_SCHEMA_DEPTH) {
    problems.push({ path, message: `nested deeper than ${MAX_OUTPUT_SCHEMA_DEPTH} levels` });
    return;
  }
  for (const key of Object.keys(node)) {
    if (KEYWORDS.has(key) || (root && key === '$schema')) continue;
    problems.push({
      path: childPath(path, key),
      message: `unsupported keyword "${key}"; an outputSchema may use ${[...KEYWORDS].join(', ')}`,
    });
  }
  const type = ownValue(node, 'type');
  if (type !== undefined) {
    const types = Array.isArray(type) ? type : [type];
    if (types.length === 0) problems.push({ path: childPath(path, 'type'), message: 'empty type list' });
    types.forEach((entry, index) => {
      if (typeof entry !== 'string' || !(OUTPUT_SCHEMA_TYPES as readonly string[]).includes(entry)) {
        problems.push({
          path: Array.isArray(type) ? childPath(childPath(path, 'type'), index) : childPath(path, 'type'),
          message: `unknown type ${show(entry)}; expected one of ${OUTPUT_SCHEMA_TYPES.join(', ')}`,
        });
      }
    });
  }
  const properties = ownValue(node, 'properties');
  if (properties !== undefined) {
    if (!isPlainObject(properties)) {
      problems.push({ path: childPath(path, 'properties'), message: 'expected an object of schemas' });
    } else {
      for (const [key, value] of Object.entries(properties)) {
        checkNode(value, childPath(childPath(path, 'properties'), key), depth + 1, problems);
      }
    }
  }
  const required = ownValue(node, 'required');
  if (required !== undefined) {
    if (!Array.isArray(required) || required.some((entry) => typeof entry !== 'string')) {
      problems.push({ path: childPath(path, 'required'), message: 'expected a list of property names' });
    } else if (isPlainObject(properties)) {
      required.forEach((name: string, index) => {
        if (!Object.hasOwn(properties, name)) {
          problems.push({
            path: childPath(childPath(path, 'required'), index),
            message: `required property "${name}" is not among properties`,
          });
        }
      });
    }
  }
  const items = ownValue(node, 'items');
  if (items !== undefined) checkNode(items, childPath(path, 'items'), depth + 1, problems);
  const additional = ownValue(node, 'additionalProperties');
  if (additional !== undefined && typeof additional !== 'boolean') {
    checkNode(additional, childPath(path, 'additionalProperties'), depth + 1, problems);
  }
  const enumValues = ownValue(node, 'enum');
  if (enumValues !== undefined && (!Array.isArray(enumValues) || enumValues.length === 0)) {
    problems.push({ path: childPath(path, 'enum'), message: 'expected a non-empty list of values' });
  }
  for (const key of ['minItems', 'maxItems', 'minLength', 'maxLength'] as const) {
    const value = ownValue(node, key);
    if (value !== undefined && !(Number.isInteger(value) && (value as number) >= 0)) {
      problems.push({
        path: childPath(path, key),
        message: `expected a whole number >= 0, got ${show(value)}`,
      });
    }
  }
  for (const key of ['minimum', 'maximum'] as const) {
    const value = ownValue(node, key);
    if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value))) {
      problems.push({ path: childPath(path, key), message: `expected a number, got ${show(value)}` });
    }
  }
  for (const key of ['description', 'title', '$schema'] as const) {
    const value = ownValue(node, key);
    if (value !== undefined && typeof value !== 'string') {
      problems.push({ path: childPath(path, key), message: `expected a string, got ${show(value)}` });
    }
  }
}

/**
 * Validates `value` against an output schema (one that passed {@link checkOutputSchema}).
 * Returns every mismatch with its JSON path (`$.findings[2].line`); empty when it matches.
 */
export function validateOutput(schema: OutputSchema, value: unknown, path = '$'): OutputSchemaProblem[] {
  const problems: OutputSchemaProblem[] = [];
  validateNode(schema, value, path, problems, 0);
  return problems;
}

function typeOf(value: unknown): OutputSchemaType | 'unknown' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'object') {
    return typeof value as 'string' | 'boolean' | 'object';
  }
  return 'unknown';
}

function matchesType(value: unknown, type: OutputSchemaType): boolean {
  const actual = typeOf(value);
  if (type === 'number') return actual === 'number' || actual === 'integer';
  return actual === type;
}

function validateNode(
  schema: OutputSchema,
  value: unknown,
  path: string,
  problems: OutputSchemaProblem[],
  depth: number,
): void {
  if (depth > MAX_OUTPUT_SCHEMA_DEPTH + 1) return;
  if (schema.type !== undefined) {
    const types = (Array.isArray(schema.type) ? schema.type : [schema.type]) as OutputSchemaType[];
    if (!types.some((type) => matchesType(value, type))) {
      problems.push({ path, message: `expected ${types.join(' or ')}, got ${describeValue(value)}` });
      return;
    }
  }
  if (schema.enum !== undefined && !schema.enum.some((option) => jsonEqual(option, value))) {
    problems.push({
      path,
      message: `expected one of ${schema.enum.map((option) => JSON.stringify(option)).join(', ')}, got ${show(value)}`,
    });
  }
  if (typeof value === 'string') {
    const length = [...value].length;
    if (schema.minLength !== undefined && length < schema.minLength) {
      problems.push({ path, message: `expected at least ${schema.minLength} characters, got ${length}` });
    }
    if (schema.maxLength !== undefined && length > schema.maxLength) {
      problems.push({ path, message: `expected at most ${schema.maxLength} characters, got ${length}` });
    }
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) {
      problems.push({ path, message: `expected a number >= ${schema.minimum}, got ${value}` });
    }
    if (schema.maximum !== undefined && value > schema.maximum) {
      problems.push({ path, message: `expected a number <= ${schema.maximum}, got ${value}` });
    }
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) {
      problems.push({ path, message: `expected at least ${schema.minItems} items, got ${value.length}` });
    }
    if (schema.maxItems !== undefined && value.length > schema.maxItems) {
      problems.push({ path, message: `expected at most ${schema.maxItems} items, got ${value.length}` });
    }
    if (schema.items !== undefined) {
      const items = schema.items;
      value.forEach((entry, index) => {
        validateNode(items, entry, childPath(path, index), problems, depth + 1);
      });
    }
  }
  if (isPlainObject(value)) {
    const properties = schema.properties ?? {};
    for (const name of schema.required ?? []) {
      if (!Object.hasOwn(value, name)) {
        problems.push({ path: childPath(path, name), message: 'missing required property' });
      }
    }
    for (const [name, entry] of Object.entries(value)) {
      if (Object.hasOwn(properties, name)) {
        validateNode(properties[name] as OutputSchema, entry, childPath(path, name), problems, depth + 1);
      } else if (schema.additionalProperties === false) {
        problems.push({
          path: childPath(path, name),
          message: `unexpected property; allowed: ${Object.keys(properties).join(', ') || '(none)'}`,
        });
      } else if (isPlainObject(schema.additionalProperties)) {
        validateNode(schema.additionalProperties, entry, childPath(path, name), problems, depth + 1);
      }
    }
  }
}

/** Deep equality of JSON values (key order ignored). */
export function jsonEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (Array.isArray(left) || Array.isArray(right)) {
    if (!Array.isArray(left) || !Array.isArray(right) || left.length !== right.length) return false;
    return left.every((entry, index) => jsonEqual(entry, right[index]));
  }
  if (isPlainObject(left) && isPlainObject(right)) {
    const keys = Object.keys(left);
    if (keys.length !== Object.keys(right).length) return false;
    return keys.every((key) => Object.hasOwn(right, key) && jsonEqual(left[key], right[key]));
  }
  return false;
}

function describeValue(value: unknown): string {
  const type = typeOf(value);
  return type === 'object' || type === 'array' ? type : `${type} ${show(value)}`;
}

function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
