import { describe, expect, it } from 'vitest';
import { defineConnector } from './define-connector';
import { ConnectorLoadError, InvalidConnectorError, UnsupportedConnectorVersionError } from './errors';
import { createOutputParser } from './parsers';
import { resolveConnector } from './resolve-connector';

const manifest = {
  specificationVersion: 'connector-v1',
  id: 'acme-agent',
  displayName: 'Acme Agent',
  providerFamily: 'acme',
  invocation: { command: 'acme', prompt: { mode: 'arg', args: ['--ask', '{{prompt}}'] } },
  outputFormat: 'text',
  lanes: ['analyze', 'build'],
  pacingWindow: 'monthly',
  hasFiveHourWindow: false,
  cost: 3,
  modelProfiles: { medium: [{ model: 'acme-1' }] },
  authSignatures: ['seat expired'],
  meter: { type: 'manual' },
} as const;

describe('resolveConnector', () => {
  it('accepts a connector-v1 and rejects other versions and shapes', () => {
    const connector = defineConnector({ manifest });
    expect(resolveConnector(connector)).toBe(connector);
    expect(() => resolveConnector({ ...connector, specificationVersion: 'connector-v2' }, 'pkg')).toThrow(
      UnsupportedConnectorVersionError,
    );
    expect(() => resolveConnector({ ...connector, specificationVersion: 'connector-v2' }, 'pkg')).toThrow(
      'pkg: specificationVersion: "connector-v2" is not supported; expected one of "connector-v1"',
    );
    expect(() => resolveConnector(null)).toThrow(InvalidConnectorError);
    expect(() => resolveConnector({ ...connector, classifyOutcome: 'no' }, 'pkg')).toThrow(
      'pkg: classifyOutcome: expected a function',
    );
    expect(() => resolveConnector({ ...connector, classifyOutcome: 'no' }, 'pkg')).toThrow(
      expect.objectContaining({ source: 'pkg', field: 'classifyOutcome', problem: 'expected a function' }),
    );
    expect(() => resolveConnector({ ...connector, connectorId: 'Acme' }, 'pkg')).toThrow(
      'pkg: connectorId: expected a kebab-case id',
    );
  });
});

describe('defineConnector', () => {
  it('validates the manifest like a connector.json', () => {
    expect(() =>
      defineConnector({ manifest: { ...manifest, cost: 0 } as never, source: 'bullswarm-connector-acme' }),
    ).toThrow(ConnectorLoadError);
    expect(() =>
      defineConnector({ manifest: { ...manifest, cost: 0 } as never, source: 'bullswarm-connector-acme' }),
    ).toThrow(/^bullswarm-connector-acme: cost: /);
  });

  it('wraps the base behaviour with overrides', () => {
    const connector = defineConnector({
      manifest,
      createOutputParser: () => {
        const inner = createOutputParser('text');
        return { push: (chunk) => inner.push(chunk.toUpperCase()), end: () => inner.end() };
      },
      classifyOutcome: (input, base) => {
        const outcome = base(input);
        return outcome.kind === 'process' && input.exitCode === 75
          ? { ...outcome, kind: 'throttle' }
          : outcome;
      },
      buildInvocation: (request, base) => {
        const invocation = base(request);
        return { ...invocation, args: [...invocation.args, '--quiet'] };
      },
    });
    expect(
      connector.buildInvocation({ prompt: 'hi', cwd: '/w', addDirs: [], accountEnv: {}, bullswarmHome: '/b' })
        .args,
    ).toEqual(['--ask', 'hi', '--quiet']);
    const parser = connector.createOutputParser();
    parser.push('done\n');
    const parsed = parser.end();
    expect(parsed.answer).toBe('DONE');
    const now = 0;
    expect(
      connector.classifyOutcome({
        exitCode: 75,
        signal: null,
        parsed: createOutputParser('text').end(),
        stderr: '',
        now,
      }).kind,
    ).toBe('throttle');
    expect(
      connector.classifyOutcome({
        exitCode: 1,
        signal: null,
        parsed: createOutputParser('text').end(),
        stderr: 'Seat expired for acme',
        now,
      }).kind,
    ).toBe('auth');
  });
});
