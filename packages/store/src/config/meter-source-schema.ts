import { z } from 'zod';

/**
 * A pool's meter-source override in state.json.
 *
 * Structurally identical to `ConnectorV1MeterSource` in
 * `packages/connectors/src/spec/v1/connector-v1-meter-source.ts` (the spec type lives there; the
 * store must not depend on connectors, so the schema is written again here; a type test keeps the
 * two in step). String fields may use the account templates `{{account}}`, `{{home}}`,
 * `{{userHome}}` and `{{env.NAME}}`.
 */
export const meterSourceSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('codex-rollout'), codexHome: z.string().min(1) }),
  z.strictObject({ type: z.literal('claude-code'), configDir: z.string().min(1) }),
  z.strictObject({
    type: z.literal('command'),
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    timeoutMs: z.number().int().positive().optional(),
  }),
  z.strictObject({ type: z.literal('file'), path: z.string().min(1) }),
  z.strictObject({ type: z.literal('manual') }),
  z.strictObject({ type: z.literal('none') }),
]);

/** A meter source as state.json stores it (see {@link meterSourceSchema}). */
export type StateMeterSource = z.output<typeof meterSourceSchema>;
