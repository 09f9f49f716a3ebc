import { z } from 'zod';

/*
 * Both schemas are built on first use (a `z.lazy` around each): building zod schemas is part of
 * every CLI start that loads this package, and most starts read meters from the cache and parse
 * no reading. Parsing, defaults, messages and the JSON Schema are those of the inner schemas.
 */

function buildWindowSchema() {
  return z.object({
    kind: z.enum(['five_hour', 'weekly', 'monthly']).describe('Which window: five_hour, weekly or monthly.'),
    usedPct: z
      .number()
      .min(0)
      .describe('Share of the window quota used, 0-100 (values above 100 are kept: providers over-report).'),
    resetsAt: z
      .union([
        z.iso.datetime({ offset: true }),
        z.number().int().min(1e12, {
          message: 'expected epoch milliseconds (a number below 1e12 looks like epoch seconds)',
        }),
      ])
      .optional()
      .describe('When the window resets: ISO-8601 with offset, or epoch milliseconds.'),
    windowMinutes: z
      .number()
      .positive()
      .optional()
      .describe('Window length in minutes; defaults: five_hour 300, weekly 10080, monthly 43200.'),
  });
}

let windowSchema: ReturnType<typeof buildWindowSchema> | undefined;

function windowObject(): ReturnType<typeof buildWindowSchema> {
  windowSchema ??= buildWindowSchema();
  return windowSchema;
}

/** One window of a bullswarm meter reading. */
export const meterReadingWindowSchema = z.lazy(windowObject);

function buildReadingSchema() {
  return z
    .object({
      readAt: z.iso
        .datetime({ offset: true })
        .optional()
        .describe('When the reading was taken (ISO-8601 with offset); defaults to when bullswarm read it.'),
      rateLimited: z.boolean().optional().describe('The provider reports an active rate limit.'),
      windows: z.array(windowObject()).describe('The metered windows; an empty list is a valid reading.'),
    })
    .describe('A bullswarm meter reading (@bullswarm/meters).');
}

let readingSchema: ReturnType<typeof buildReadingSchema> | undefined;

/**
 * The bullswarm meter reading: what a `file` or `command` meter source provides, what the sim
 * writes, and what users' own exporters print. Unknown keys (such as `$schema`) are ignored.
 *
 * ```json
 * {"readAt":"2026-05-23T03:03:56Z","windows":[{"kind":"five_hour","usedPct":42,"resetsAt":"2026-05-23T05:00:00Z"}]}
 * ```
 */
export const meterReadingSchema = z.lazy(() => {
  readingSchema ??= buildReadingSchema();
  return readingSchema;
});

/** A bullswarm meter reading as written in JSON (the input shape of {@link meterReadingSchema}). */
export type MeterReading = z.input<typeof meterReadingSchema>;

/** One window of a {@link MeterReading}. */
export type MeterReadingWindow = z.input<typeof meterReadingWindowSchema>;

/**
 * The JSON Schema (draft 2020-12) of the bullswarm meter reading, generated from
 * {@link meterReadingSchema}. The same document ships as `@bullswarm/meters/meter-reading.schema.json`.
 */
export function meterReadingJsonSchema(): Record<string, unknown> {
  const json = z.toJSONSchema(meterReadingSchema, { io: 'input' }) as Record<string, unknown>;
  // Where the file is published (unpkg, by major version; docs/releasing.md), for `$schema`.
  return {
    $schema: json.$schema,
    $id: 'https://unpkg.com/@bullswarm/meters@0/meter-reading.schema.json',
    ...json,
  };
}
