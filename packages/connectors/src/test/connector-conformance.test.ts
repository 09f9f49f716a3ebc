import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { defineConnector } from '../define-connector';
import { loadBuiltinConnectors } from '../loading';
import type { ConnectorV1 } from '../spec/v1';
import { minimalManifest } from '../test-support/fixtures';
import { useTempDirs } from '../test-support/temp-dir';
import { ConformanceError } from './conformance-error';
import { type ConnectorConformanceOptions, connectorConformanceChecks } from './connector-conformance';

const fixture = (name: string) => new URL(`../__fixtures__/${name}`, import.meta.url);
const NOW = Date.parse('2026-11-30T12:00:00Z');

async function builtin(id: string): Promise<ConnectorV1> {
  const loaded = (await loadBuiltinConnectors()).connectors.find((c) => c.connector.connectorId === id);
  if (!loaded) throw new Error(`no built-in ${id}`);
  return loaded.connector;
}

/** Runs every check; returns the failures as `name: message`. */
async function failures(options: ConnectorConformanceOptions): Promise<string[]> {
  const failed: string[] = [];
  for (const check of connectorConformanceChecks(options)) {
    try {
      await check.run();
    } catch (error) {
      expect(ConformanceError.isInstance(error), String(error)).toBe(true);
      failed.push((error as Error).message);
    }
  }
  return failed;
}

const claudeSamples = {
  success: { file: fixture('claude/success.jsonl') },
  usageLimit: [
    { file: fixture('claude/usage-limit.jsonl') },
    { file: fixture('claude/usage-limit-legacy.jsonl') },
  ],
  throttle: { file: fixture('claude/throttle-not-your-limit.jsonl') },
  signIn: { file: fixture('claude/auth-not-logged-in.jsonl') },
} as const;

describe('connectorConformanceChecks', () => {
  it('passes the built-in claude-code connector on its captured samples', async () => {
    const connector = await builtin('claude-code');
    const checks = connectorConformanceChecks({ connector, samples: claudeSamples, now: NOW });
    expect(checks.map((check) => check.name)).toContain('outcome: usage-limit sample 2 is quota');
    expect(await failures({ connector, samples: claudeSamples, now: NOW })).toEqual([]);
  });

  it('fails a sample of the wrong kind, naming the check, the expectation and the outcome', async () => {
    const connector = await builtin('claude-code');
    const swapped = { ...claudeSamples, throttle: { file: fixture('claude/usage-limit.jsonl') } };
    const failed = await failures({ connector, samples: swapped, now: NOW });
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatch(
      /^outcome: throttle sample 1 is throttle: expected outcome "throttle", got "quota" \(/,
    );
  });

  it('checks a named reset and a named wait when the author gives them', async () => {
    const connector = await builtin('claude-code');
    const failed = await failures({
      connector,
      samples: {
        ...claudeSamples,
        usageLimit: { file: fixture('claude/usage-limit-legacy.jsonl'), resetsAt: '2020-01-01T00:00:00Z' },
      },
      now: NOW,
    });
    expect(failed).toEqual([
      expect.stringMatching(
        /^outcome: usage-limit sample 1 is quota: resetsAt \S+Z, expected 2020-01-01T00:00:00.000Z$/,
      ),
    ]);
  });

  it('fails a parser whose result depends on where the stream is cut', async () => {
    const base = await builtin('claude-code');
    // Reads only whole chunks as lines: a line split across two pushes is lost.
    const chunky: ConnectorV1 = {
      ...base,
      createOutputParser() {
        const inner = base.createOutputParser();
        return {
          push: (chunk) => {
            if (chunk.endsWith('\n')) inner.push(chunk);
          },
          end: () => inner.end(),
        };
      },
    };
    const failed = await failures({ connector: chunky, samples: claudeSamples, now: NOW });
    expect(failed).toContain(
      "parser: success sample 1 parses the same in any chunks: fed in chunks of 1 characters, the parser's result differs from the whole",
    );
  });

  it('fails a value that is not a connector, and a missing sample kind', async () => {
    expect(
      await failures({ connector: { specificationVersion: 'connector-v1' }, samples: claudeSamples }),
    ).toContain('manifest: a valid connector-v1: connector: connectorId: expected a non-empty string');
    const connector = await builtin('claude-code');
    const { signIn: _signIn, ...three } = claudeSamples;
    expect(
      await failures({
        connector,
        samples: three as unknown as ConnectorConformanceOptions['samples'],
        now: NOW,
      }),
    ).toEqual(['samples: at least one sign-in sample: samples.signIn is missing: add a captured one']);
  });

  describe('with files', () => {
    const newDir = useTempDirs();
    let current = '';
    const dir = () => current;
    beforeEach(() => {
      current = newDir();
    });

    it('validates the shipped connector.json and that it is this connector', async () => {
      const connector = defineConnector({ manifest: minimalManifest() });
      const good = join(dir(), 'good.json');
      writeFileSync(good, JSON.stringify(minimalManifest()));
      const other = join(dir(), 'other.json');
      writeFileSync(other, JSON.stringify({ ...minimalManifest(), id: 'bar' }));
      const bad = join(dir(), 'bad.json');
      writeFileSync(bad, JSON.stringify({ ...minimalManifest(), lanes: 'all' }));
      const manifestFailures = async (manifestFile: string) =>
        (await failures({ connector, manifestFile, samples: claudeSamples })).filter((f) =>
          f.startsWith('manifest'),
        );
      expect(await manifestFailures(good)).toEqual([]);
      expect(await manifestFailures(other)).toEqual([
        `manifest: a valid connector-v1: ${other}: id "bar" is not the connector's id "foo"`,
      ]);
      expect((await manifestFailures(bad))[0]).toMatch(
        /^manifest: a valid connector-v1: .*bad\.json: lanes: /,
      );
    });

    it('loads the package from its directory as `connectors add` does', async () => {
      const connector = defineConnector({ manifest: minimalManifest() });
      const pkg = join(dir(), 'bullswarm-connector-foo');
      mkdirSync(pkg);
      writeFileSync(
        join(pkg, 'package.json'),
        JSON.stringify({
          name: 'bullswarm-connector-foo',
          keywords: ['bullswarm-connector'],
          main: 'index.cjs',
        }),
      );
      // A hand-written connector-v1 object (the loader duck-checks the shape), with another id.
      writeFileSync(
        join(pkg, 'index.cjs'),
        `const fn = () => ({});
module.exports = { specificationVersion: 'connector-v1', connectorId: 'bar', displayName: 'Bar',
  providerFamily: 'bar', credentialGroup: 'bar', lanes: ['analyze'],
  modelProfiles: { low: [], medium: [], high: [] }, meter: { type: 'none' },
  buildInvocation: fn, createOutputParser: fn, classifyOutcome: fn, accountEnv: fn };
`,
      );
      const check = connectorConformanceChecks({ connector, packageDir: pkg, samples: claudeSamples }).find(
        (c) => c.name.startsWith('package'),
      )!;
      await expect(check.run()).rejects.toThrow(
        'package: loads as `bullswarm connectors add` loads it: the package\'s default export is connector "bar", not "foo"',
      );
    });
  });
});
