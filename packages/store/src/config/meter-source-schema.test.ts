import { describe, expect, expectTypeOf, it } from 'vitest';
// Type-only, test-only reference to the spec file the schema mirrors: the store package itself
// never depends on @bullswarm/connectors.
import type { ConnectorV1MeterSource } from '../../../connectors/src/spec/v1/connector-v1-meter-source';
import { meterSourceSchema, type StateMeterSource } from './meter-source-schema';

type DeepMutable<T> = T extends readonly (infer U)[]
  ? DeepMutable<U>[]
  : T extends object
    ? { -readonly [K in keyof T]: DeepMutable<T[K]> }
    : T;

describe('meterSourceSchema', () => {
  it('is structurally identical to ConnectorV1MeterSource', () => {
    expectTypeOf<StateMeterSource>().toEqualTypeOf<DeepMutable<ConnectorV1MeterSource>>();
  });

  it.each<ConnectorV1MeterSource>([
    { type: 'codex-rollout', codexHome: '{{env.CODEX_HOME}}' },
    { type: 'claude-code', configDir: '{{userHome}}/.claude-{{account}}' },
    { type: 'command', command: 'acme-meter', args: ['--json'], timeoutMs: 5000 },
    { type: 'file', path: '{{home}}/meters/grok.json' },
    { type: 'manual' },
    { type: 'none' },
  ])('accepts %j', (source) => {
    expect(meterSourceSchema.parse(source)).toEqual(source);
  });

  it.each([
    { type: 'file' },
    { type: 'command', command: 'x', timeoutMs: -1 },
    { type: 'none', extra: 1 },
    {},
  ])('refuses %j', (source) => {
    expect(meterSourceSchema.safeParse(source).success).toBe(false);
  });
});
