import { z } from 'zod';

/** The `schemaVersion` of a program this engine reads. */
export const PROGRAM_SCHEMA_VERSION = 'bullswarm.workflow.program.v3';

/** Default of `settings.concurrency`. */
export const DEFAULT_CONCURRENCY = 4;
/** Default of `settings.retryAttempts` (and a step's `retryAttempts`). */
export const DEFAULT_RETRY_ATTEMPTS = 1;
/** The largest `concurrency` a program or `--concurrency` may ask for. */
export const MAX_CONCURRENCY = 64;
/** The largest `retryAttempts` a program may ask for. */
export const MAX_RETRY_ATTEMPTS = 5;

/** Step ids: a letter or digit, then letters, digits, `_` and `-` (no dots: they separate template paths). */
export const STEP_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
/** Input names. */
export const INPUT_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]*$/;

const stepId = z
  .string()
  .regex(
    STEP_ID_PATTERN,
    'expected a step id: letters, digits, "_" and "-", starting with a letter or digit',
  );
const nonEmpty = z.string().min(1, 'expected a non-empty string');
const seconds = z
  .number()
  .positive('expected a number of seconds > 0')
  .max(7 * 86_400);

const useAvoid = z
  .strictObject({
    use: z.array(nonEmpty).optional().describe('Only these (ids)'),
    avoid: z.array(nonEmpty).optional().describe('Never these (ids)'),
  })
  .describe('A hard filter applied before quota pacing');

/** A step's `route`: hard filters before pacing (docs/workflows.md, "Verification"). */
export const stepRouteSchema = z
  .strictObject({
    providers: useAvoid.optional().describe('Provider families (accounts of one provider are one family)'),
    pools: useAvoid.optional().describe('Exact pool ids'),
    independentOf: z
      .array(stepId)
      .optional()
      .describe('Avoid the provider families that worked on these upstream steps'),
  })
  .describe('Route constraints');

const argv = z.array(z.string()).min(1, 'expected a non-empty argv list');

/**
 * A gate: a command that must pass after the step. An argv list runs without a shell; a string runs
 * with `sh -c` (the program author's own command, like an npm script).
 */
export const gateSchema = z.union(
  [
    nonEmpty.describe('A command line run with sh -c in the work tree'),
    argv.describe('An argv list run without a shell'),
    z.strictObject({
      command: z.union([nonEmpty, argv]),
      cwd: nonEmpty.optional().describe('Relative to the work tree'),
      timeoutSec: seconds.optional(),
    }),
  ],
  { error: 'expected a command string, an argv list, or {command, cwd?, timeoutSec?}' },
);

const concurrency = z.number().int().min(1).max(MAX_CONCURRENCY);

/** Fan-out: one run of the step per item (exactly one of `items`, `glob`, `from`). */
export const forEachSchema = z
  .strictObject({
    items: z.array(z.json()).optional().describe('A literal list of items'),
    glob: nonEmpty.optional().describe('Files of the work tree matching this glob (relative), sorted'),
    from: z
      .string()
      .regex(
        /^outputs\.[A-Za-z0-9][A-Za-z0-9_-]*\.data(\.[A-Za-z0-9_-]+)*$/,
        'expected outputs.<id>.data.<path>',
      )
      .optional()
      .describe('A list in an upstream step’s structured output: outputs.<id>.data.<path>'),
    concurrency: concurrency.optional().describe('An extra cap on this fan-out, within the run’s limit'),
  })
  .describe('Fan-out');

/** One step of a program. */
export const programStepSchema = z
  .strictObject({
    id: stepId,
    description: z.string().optional(),
    prompt: nonEmpty
      .optional()
      .describe('The task; templates {{inputs.x}}, {{item}}, {{outputs.<id>.data.<path>}}, {{runId}}'),
    promptFile: nonEmpty.optional().describe('A file holding the prompt, relative to the program file'),
    lane: z.string().optional().describe('analyze (default), build or chore'),
    effort: z
      .string()
      .optional()
      .describe('Effort tier; default by lane (analyze medium, build high, chore low)'),
    files: z.array(nonEmpty).optional().describe('Globs of what the step may write (default: nothing)'),
    dependsOn: z.array(stepId).optional(),
    blindTo: z
      .array(stepId)
      .optional()
      .describe('Steps whose outputs, transcripts and reasons this step never sees'),
    route: stepRouteSchema.optional(),
    outputSchema: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('An object-typed JSON-Schema subset the answer must match'),
    gate: gateSchema.optional(),
    timeoutSec: seconds.optional(),
    retryAttempts: z.number().int().min(0).max(MAX_RETRY_ATTEMPTS).optional(),
    forEach: forEachSchema.optional(),
  })
  .describe('A step');

const inputSchema = z.strictObject({
  default: z.json().optional(),
  description: z.string().optional(),
  required: z.boolean().optional(),
});

/** A workflow program, `schemaVersion: "bullswarm.workflow.program.v3"`. */
export const programSchema = z
  .strictObject({
    $schema: z.string().optional(),
    schemaVersion: z.literal(PROGRAM_SCHEMA_VERSION),
    name: z.string().optional(),
    description: z.string().optional(),
    inputs: z
      .record(
        z.string().regex(INPUT_NAME_PATTERN, 'expected an input name: letters, digits, "_" and "-"'),
        inputSchema,
      )
      .optional(),
    settings: z
      .strictObject({
        concurrency: concurrency
          .optional()
          .describe(`Steps in flight across the run (default ${DEFAULT_CONCURRENCY})`),
        retryAttempts: z.number().int().min(0).max(MAX_RETRY_ATTEMPTS).optional(),
        timeoutSec: seconds.optional().describe('Default wall-clock limit of one attempt'),
      })
      .optional(),
    steps: z.array(programStepSchema).min(1, 'a program needs at least one step'),
  })
  .describe('A bullswarm workflow program');

/** A program as written (fields optional). */
export type WorkflowProgramInput = z.input<typeof programSchema>;
/** One step as written. */
export type ProgramStepInput = z.input<typeof programStepSchema>;
/** A gate as written. */
export type GateInput = z.input<typeof gateSchema>;
/** A fan-out as written. */
export type ForEachInput = z.input<typeof forEachSchema>;
/** A route as written. */
export type StepRouteInput = z.input<typeof stepRouteSchema>;

/**
 * The JSON Schema of a program file (from the zod schema), shipped as
 * `@bullswarm/workflow/workflow-program.schema.json`; point a program's `$schema` at it and an
 * editor checks the structure. `bullswarm workflow validate` adds the cross-step rules.
 */
export function programJsonSchema(): string {
  const json = z.toJSONSchema(programSchema, { io: 'input', target: 'draft-2020-12' });
  return `${JSON.stringify(
    {
      $schema: json.$schema,
      // Where the file is published (unpkg, by major version; docs/releasing.md), for `$schema`.
      $id: 'https://unpkg.com/@bullswarm/workflow@0/workflow-program.schema.json',
      ...json,
      title: 'bullswarm workflow program v3',
      description:
        'A bullswarm workflow program. Validate it with `bullswarm workflow validate <file>`, which also checks ids, dependencies, templates, lanes, pools and output schemas.',
    },
    null,
    2,
  )}\n`;
}
