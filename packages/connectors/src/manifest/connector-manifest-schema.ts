import { z } from 'zod';
import { OUTPUT_FORMATS } from '../parsers';
import { checkTemplate } from './template';
import { checkVersionRange } from './version-range';

const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const kebab = (what: string) =>
  z
    .string()
    .regex(KEBAB, { message: `${what} must be kebab-case (lowercase letters, digits and single dashes)` });

const ACCOUNT_VARS = ['account', 'home', 'userHome'];

/** A string that may use the given template variables (and `{{env.NAME}}`). */
const template = (allowed: readonly string[]) =>
  z.string().superRefine((value, context) => {
    const problem = checkTemplate(value, allowed);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });

const COMMON = [...ACCOUNT_VARS, 'cwd'];

const PROMPT_VARIABLE = /\{\{\s*prompt\s*\}\}/;

const envRecord = (allowed: readonly string[]) =>
  z.record(
    z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { message: 'expected an environment variable name' }),
    template(allowed),
  );

/**
 * Builds the manifest schema. Constructing zod schemas costs milliseconds of a command's start,
 * and most starts never validate a manifest (the built-in ones load pre-parsed), so this runs on
 * the first validation, through {@link connectorManifestSchema}.
 */
function buildConnectorManifestSchema() {
  const eventName = z.string().regex(/^[A-Za-z0-9_.:-]+(?:\/[A-Za-z0-9_.:-]+)?$/, {
    message: 'expected an event name such as "item.completed" or "system/api_retry"',
  });

  const regex = z.string().superRefine((value, context) => {
    try {
      new RegExp(value);
    } catch (error) {
      context.addIssue({ code: 'custom', message: `not a regular expression: ${(error as Error).message}` });
    }
  });

  const versionRange = z.string().superRefine((value, context) => {
    const problem = checkVersionRange(value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });

  const invocationSchema = z
    .object({
      command: z.string().min(1).meta({
        description:
          'The CLI to run: a bare name looked up on PATH, an absolute path, or a bundled bin name (bullswarm-sim).',
      }),
      args: z
        .array(template(COMMON))
        .default([])
        .meta({ description: 'Fixed arguments, first on the command line.' }),
      prompt: z
        .discriminatedUnion('mode', [
          z
            .object({
              mode: z.literal('arg'),
              args: z
                .array(template([...COMMON, 'prompt']))
                .min(1)
                .default(['{{prompt}}'])
                .meta({
                  description: 'The prompt arguments, e.g. ["-p", "{{prompt}}"] or ["--", "{{prompt}}"].',
                }),
              position: z
                .enum(['first', 'last'])
                .default('last')
                .meta({ description: 'Right after `args` (first) or after every other argument (last).' }),
            })
            .superRefine((prompt, context) => {
              // Without {{prompt}} the prompt would be dropped from every command line.
              if (!prompt.args.some((arg) => PROMPT_VARIABLE.test(arg))) {
                context.addIssue({
                  code: 'custom',
                  path: ['args'],
                  message:
                    'no argument carries {{prompt}}: the prompt would never reach the CLI (use mode "stdin" to send it on stdin)',
                });
              }
            }),
          z.object({ mode: z.literal('stdin') }),
        ])
        .meta({
          description: 'How the prompt reaches the CLI: as arguments (never through a shell) or on stdin.',
        }),
      outputArgs: z.array(template(COMMON)).default([]).meta({
        description:
          'The machine-readable output flags, e.g. ["--output-format", "stream-json", "--verbose"].',
      }),
      modelArgs: z
        .array(template([...COMMON, 'model']))
        .default([])
        .meta({ description: 'Added when a model is chosen, e.g. ["--model", "{{model}}"].' }),
      cwdArgs: z.array(template(COMMON)).default([]).meta({
        description:
          'Added to name the working directory, e.g. ["-C", "{{cwd}}"] (the process also starts in it).',
      }),
      addDirArgs: z
        .array(template([...COMMON, 'dir']))
        .default([])
        .meta({
          description:
            'Repeated once per extra directory, e.g. ["--add-dir", "{{dir}}"]; empty = unsupported.',
        }),
      env: envRecord(COMMON).default({}).meta({ description: 'Variables set for every run.' }),
    })
    .strict();

  const meterSchema = z.discriminatedUnion('type', [
    z.object({ type: z.literal('codex-rollout'), codexHome: template(ACCOUNT_VARS) }).strict(),
    z.object({ type: z.literal('claude-code'), configDir: template(ACCOUNT_VARS) }).strict(),
    z
      .object({
        type: z.literal('command'),
        command: template(ACCOUNT_VARS),
        args: z.array(template(ACCOUNT_VARS)).optional(),
        timeoutMs: z.number().int().positive().optional(),
      })
      .strict(),
    z.object({ type: z.literal('file'), path: template(ACCOUNT_VARS) }).strict(),
    z.object({ type: z.literal('manual') }).strict(),
    z.object({ type: z.literal('none') }).strict(),
  ]);

  const modelProfileSchema = z
    .object({
      model: z.string().min(1),
      free: z
        .literal(true)
        .optional()
        .meta({ description: 'The model costs nothing (ranked ahead of metered pools).' }),
      default: z
        .literal(true)
        .optional()
        .meta({ description: 'The model setup picks for this tier (else the first).' }),
    })
    .strict();

  return z
    .object({
      $schema: z.string().optional(),
      specificationVersion: z.literal('connector-v1'),
      id: kebab('id').meta({ description: 'The connector id and default pool id, e.g. "claude-code".' }),
      displayName: z.string().min(1),
      providerFamily: kebab('providerFamily').meta({
        description:
          'What route.providers.use/avoid names, e.g. "anthropic" (accounts of one provider are one family).',
      }),
      credentialGroup: kebab('credentialGroup').optional().meta({
        description:
          'Defaults to the id. A pool\'s credential group is "<credentialGroup>:<account>"; an auth failure skips that group.',
      }),
      invocation: invocationSchema,
      outputFormat: z.enum(OUTPUT_FORMATS),
      lanes: z.array(z.enum(['analyze', 'build', 'chore'])).min(1),
      capabilities: z.array(z.string().min(1)).default([]),
      pacingWindow: z.enum(['weekly', 'monthly']),
      hasFiveHourWindow: z.boolean(),
      cost: z.number().int().min(1).max(5).meta({ description: 'Relative cost 1–5, display only.' }),
      modelProfiles: z
        .record(
          kebab('effort tier'),
          z
            .array(modelProfileSchema)
            .min(1)
            .superRefine((profiles, context) => {
              const defaults = profiles.flatMap((profile, index) => (profile.default ? [index] : []));
              if (defaults.length > 1) {
                context.addIssue({
                  code: 'custom',
                  path: [defaults[1]!, 'default'],
                  message: `only one model of a tier may be the default (models ${defaults.join(' and ')} both say default: true)`,
                });
              }
            }),
        )
        .meta({ description: 'The allow-list of models per effort tier (low, medium, high, or your own).' }),
      authSignatures: z.array(z.string().min(1)).default([]),
      callerEnv: z
        .array(
          z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*\*?$/, {
            message: 'expected a variable name, optionally ending in *',
          }),
        )
        .default([])
        .meta({
          description: 'Variables the agent CLI sets in its children: when present, it is the caller.',
        }),
      account: z
        .object({
          env: envRecord(ACCOUNT_VARS).default({}).meta({ description: 'Selects a named account.' }),
          defaultEnv: envRecord(ACCOUNT_VARS)
            .default({})
            .meta({ description: 'Env for the default account (usually none).' }),
          defaultMeter: meterSchema
            .optional()
            .meta({ description: 'Replaces `meter` for the default account.' }),
        })
        .strict()
        .default({ env: {}, defaultEnv: {} }),
      meter: meterSchema,
      detect: z
        .object({
          binary: z.string().min(1),
          accountGlobs: z
            .array(template(['userHome', 'home']))
            .optional()
            .meta({
              description:
                'Globs whose matches are accounts, e.g. "{{userHome}}/.claude-*" (the * is the account).',
            }),
        })
        .strict()
        .optional(),
      probe: z.boolean().default(true).meta({
        description:
          'Liveness-probe (PONG) a free model a tier names before dispatch; false opts out. A rung on a CLI that takes no model (no modelArgs) is never probed.',
      }),
      activity: z
        .object({
          progress: z.array(eventName).default([]).meta({
            description:
              'Events that are progress (restart the silence clock), e.g. "item.completed" or "system/init". An event is named "<type>" and "<type>/<subtype or item.type>".',
          }),
          noise: z.array(eventName).default([]).meta({
            description:
              'Events that are noise (restart nothing), e.g. "error" or "system/api_retry"; noise wins over progress.',
          }),
          networkWait: z.array(regex).default([]).meta({
            description:
              'Regular expressions over a noise line (or a stderr line): a match is a network-wait notice, quoted by its match.',
          }),
        })
        .strict()
        .optional()
        .meta({
          description:
            'Which output events are progress and which are noise. When progress is named, only those events (on stdout) restart the silence clock; absent, every byte does.',
        }),
      signIn: z
        .discriminatedUnion('type', [
          z
            .object({
              type: z.literal('command'),
              args: z.array(z.string().min(1)).min(1).meta({
                description:
                  'The arguments after the CLI that print whether it is signed in, e.g. ["login", "status"].',
              }),
              signedIn: regex.meta({
                description: 'A regular expression over the output that means signed in.',
              }),
              signedOut: regex.meta({
                description: 'A regular expression over the output that means signed out.',
              }),
            })
            .strict(),
          z
            .object({
              type: z.literal('files'),
              files: z.array(template(ACCOUNT_VARS)).default([]).meta({
                description:
                  'Credential files of a named account, e.g. "{{env.GEMINI_CLI_HOME}}/.gemini/oauth_creds.json" (a path whose template cannot be rendered is skipped).',
              }),
              defaultFiles: z
                .array(template(ACCOUNT_VARS))
                .optional()
                .meta({ description: 'The credential files of the default account, when they differ.' }),
              env: z
                .array(
                  z
                    .string()
                    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { message: 'expected an environment variable name' }),
                )
                .default([])
                .meta({ description: 'Variables that sign the CLI in, e.g. GEMINI_API_KEY.' }),
              whenMissing: z.enum(['signed-out', 'unknown']).meta({
                description:
                  'What finding no file and no variable means: signed-out, or unknown when the CLI can run without (free models).',
              }),
            })
            .strict(),
        ])
        .optional()
        .meta({
          description:
            'How `bullswarm doctor` tells whether an account is signed in without a network call; absent: unknown.',
        }),
      cliVersions: z
        .object({
          checked: versionRange.meta({
            description: 'The CLI versions this connector was checked against, e.g. ">=0.171.0 <0.172.0".',
          }),
          versionArgs: z
            .array(z.string().min(1))
            .default(['--version'])
            .meta({ description: 'Arguments that print the CLI version.' }),
        })
        .strict()
        .optional(),
      exitCodes: z
        .record(
          z.string().regex(/^\d+$/, { message: 'expected an exit code' }),
          z.enum(['quota', 'throttle', 'auth']),
        )
        .optional()
        .meta({ description: 'Exit codes with a fixed meaning, e.g. {"41": "auth"} for Gemini.' }),
    })
    .strict()
    .meta({
      title: 'bullswarm connector manifest (connector-v1)',
      description: 'How bullswarm drives one agent CLI: providers/<id>/connector.json.',
    });
}

let built: ReturnType<typeof buildConnectorManifestSchema> | undefined;

/**
 * The zod schema of `providers/<id>/connector.json` (and of home and configured manifests).
 * `z.toJSONSchema` of it is shipped as `@bullswarm/connectors/connector.schema.json`.
 *
 * A `z.lazy` around the object schema: it is built on its first use (a parse, or the JSON Schema),
 * not when the package loads. Parsing, defaults and error paths are those of the object schema.
 */
export const connectorManifestSchema = z.lazy(() => (built ??= buildConnectorManifestSchema()));

/**
 * Where `connector.schema.json` is published: the file of this package's tarball on unpkg, by major
 * version, so a connector.json outside bullswarm can name it in `$schema` (docs/releasing.md).
 */
export const CONNECTOR_SCHEMA_ID = 'https://unpkg.com/@bullswarm/connectors@0/connector.schema.json';

/** The JSON Schema of a connector.json, as shipped in `@bullswarm/connectors/connector.schema.json`. */
export function connectorManifestJsonSchema(): Record<string, unknown> {
  const json = z.toJSONSchema(connectorManifestSchema, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return { $schema: json.$schema, $id: CONNECTOR_SCHEMA_ID, ...json };
}

/** A manifest as written in connector.json (defaults optional). */
export type ConnectorManifestInput = z.input<typeof connectorManifestSchema>;

/** A parsed manifest with every default filled in. */
export type ConnectorManifest = z.output<typeof connectorManifestSchema>;
