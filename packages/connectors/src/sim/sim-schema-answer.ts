import { readFileSync } from 'node:fs';

/**
 * A workflow step with an `outputSchema` tells its worker: "Your final answer must be one JSON
 * object that matches the JSON Schema in <file>. Before you reply, …" (packages/workflow,
 * src/engine/step-prompt.ts). The sim's `ok` answer then ends with the smallest object that
 * schema accepts, so example programs with output schemas run on simulated pools (`bullswarm demo`).
 */
const SCHEMA_INSTRUCTION =
  /must be one JSON object that matches the JSON Schema in (.+?)\. Before you reply/s;

/** The schema file a prompt asks the answer to match, or undefined. */
export function schemaFileOf(prompt: string): string | undefined {
  return SCHEMA_INSTRUCTION.exec(prompt)?.[1];
}

type Schema = {
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly required?: readonly string[];
  readonly items?: Schema;
  readonly enum?: readonly unknown[];
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
};

const MAX_DEPTH = 32;

/**
 * A value of the output-schema subset (type, properties, required, items, enum, min/max items,
 * length and value): the first enum value; for an object its required properties; for an array
 * `max(minItems, 1)` items (capped by maxItems), so a fan-out over it has an item; `"sim"` for a
 * string (padded or cut to its length bounds); the minimum (else 1, within the maximum) for a number.
 */
export function exampleValue(schema: Schema, depth = 0): unknown {
  if (depth > MAX_DEPTH) return null;
  if (schema.enum !== undefined && schema.enum.length > 0) return schema.enum[0];
  const types =
    schema.type === undefined ? [] : typeof schema.type === 'string' ? [schema.type] : schema.type;
  const type = types.find((t) => t !== 'null') ?? types[0] ?? (schema.properties ? 'object' : 'null');
  switch (type) {
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const key of schema.required ?? []) {
        value[key] = exampleValue(schema.properties?.[key] ?? {}, depth + 1);
      }
      return value;
    }
    case 'array': {
      const count = Math.min(Math.max(schema.minItems ?? 0, 1), schema.maxItems ?? Number.POSITIVE_INFINITY);
      return Array.from({ length: count }, () => exampleValue(schema.items ?? {}, depth + 1));
    }
    case 'string': {
      const text = 'sim'.padEnd(schema.minLength ?? 0, 'x');
      return schema.maxLength === undefined ? text : text.slice(0, schema.maxLength);
    }
    case 'integer':
    case 'number': {
      const low = schema.minimum === undefined ? 1 : Math.ceil(schema.minimum);
      return schema.maximum === undefined ? low : Math.min(low, Math.floor(schema.maximum));
    }
    case 'boolean':
      return true;
    default:
      return null;
  }
}

/**
 * The JSON block the sim appends to its answer when the prompt names a readable output schema, or
 * undefined (no schema named, or the file is missing or not JSON: the answer is the plain one).
 */
export function schemaAnswerBlock(prompt: string): string | undefined {
  const file = schemaFileOf(prompt);
  if (file === undefined) return undefined;
  let schema: unknown;
  try {
    schema = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
  if (typeof schema !== 'object' || schema === null) return undefined;
  return `\`\`\`json\n${JSON.stringify(exampleValue(schema as Schema))}\n\`\`\``;
}
