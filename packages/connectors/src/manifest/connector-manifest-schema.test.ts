import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConnectorLoadError } from '../errors';
import { minimalManifest } from '../test-support/fixtures';
import { connectorManifestJsonSchema, connectorManifestSchema } from './connector-manifest-schema';
import { parseConnectorManifest } from './parse-connector-manifest';

const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const providersRoot = resolve(packageRoot, '..', '..', 'providers');

describe('connector.schema.json', () => {
  it('is the JSON Schema generated from the zod schema (pinned)', async () => {
    await expect(`${JSON.stringify(connectorManifestJsonSchema(), null, 2)}\n`).toMatchFileSnapshot(
      join(packageRoot, 'connector.schema.json'),
    );
  });

  it('is exported by the package and shipped in files', () => {
    const pkg = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as {
      exports: Record<string, unknown>;
      files: string[];
    };
    expect(pkg.exports['./connector.schema.json']).toBe('./connector.schema.json');
    expect(pkg.files).toContain('connector.schema.json');
  });
});

describe('built-in providers', () => {
  const ids = readdirSync(providersRoot).filter((entry) =>
    existsSync(join(providersRoot, entry, 'connector.json')),
  );

  it('are the eight built-ins', () => {
    expect(ids.sort()).toEqual([
      'claude-code',
      'codex',
      'echo',
      'gemini',
      'grok',
      'opencode',
      'sim',
      'sim-codex',
    ]);
  });

  it.each(ids)('%s validates, is named after its folder and points $schema at the shipped schema', (id) => {
    const file = join(providersRoot, id, 'connector.json');
    const json = JSON.parse(readFileSync(file, 'utf8')) as { $schema: string };
    const manifest = parseConnectorManifest(json, file);
    expect(manifest.id).toBe(id);
    expect(resolve(dirname(file), json.$schema)).toBe(join(packageRoot, 'connector.schema.json'));
    for (const [tier, models] of Object.entries(manifest.modelProfiles)) {
      expect(
        models.filter((m) => m.default).length,
        `${id} ${tier}: at most one default`,
      ).toBeLessThanOrEqual(1);
    }
  });
});

describe('manifest validation', () => {
  const problem = (mutate: (m: Record<string, unknown>) => void) => {
    const manifest = minimalManifest() as Record<string, unknown>;
    mutate(manifest);
    try {
      parseConnectorManifest(manifest, 'providers/foo/connector.json');
    } catch (error) {
      if (ConnectorLoadError.isInstance(error)) return { message: error.message, fieldPath: error.fieldPath };
      throw error;
    }
    throw new Error('expected the manifest to be rejected');
  };

  it('fills defaults', () => {
    const manifest = connectorManifestSchema.parse(minimalManifest());
    expect(manifest.capabilities).toEqual([]);
    expect(manifest.account).toEqual({ env: {}, defaultEnv: {} });
    expect(manifest.invocation.args).toEqual([]);
    // Free models are probed unless a connector opts out (docs/routing.md, "Free-model liveness probe").
    expect(manifest.probe).toBe(true);
  });

  it('names the file and the field path', () => {
    expect(
      problem((m) => {
        m.modelProfiles = { high: [{ model: 5 }] };
      }),
    ).toEqual({
      message: 'providers/foo/connector.json: modelProfiles.high[0].model: expected string, received number',
      fieldPath: 'modelProfiles.high[0].model',
    });
    expect(
      problem((m) => {
        m.id = 'Foo Bar';
      }).message,
    ).toBe(
      'providers/foo/connector.json: id: id must be kebab-case (lowercase letters, digits and single dashes)',
    );
    expect(
      problem((m) => {
        m.cost = 9;
      }).message,
    ).toMatch(/^providers\/foo\/connector\.json: cost: Too big: expected number to be <=5/);
    expect(
      problem((m) => {
        m.outputFormat = 'xml';
      }).message,
    ).toMatch(/outputFormat: expected one of "claude-stream-json"\|/);
    expect(
      problem((m) => {
        m.colour = 'red';
      }).message,
    ).toBe('providers/foo/connector.json: (root): unknown field(s) "colour"');
    expect(
      problem((m) => {
        m.specificationVersion = 'connector-v2';
      }).fieldPath,
    ).toBe('specificationVersion');
    expect(
      problem((m) => {
        m.meter = { type: 'file' };
      }).fieldPath,
    ).toBe('meter.path');
  });

  it('refuses prompt arguments without {{prompt}} and a tier with two default models', () => {
    expect(
      problem((m) => {
        m.invocation = { command: 'foo', prompt: { mode: 'arg', args: ['-p'] } };
      }),
    ).toEqual({
      message:
        'providers/foo/connector.json: invocation.prompt.args: no argument carries {{prompt}}: the prompt would never reach the CLI (use mode "stdin" to send it on stdin)',
      fieldPath: 'invocation.prompt.args',
    });
    expect(
      problem((m) => {
        m.modelProfiles = {
          high: [
            { model: 'a', default: true },
            { model: 'b', default: true },
          ],
        };
      }),
    ).toEqual({
      message:
        'providers/foo/connector.json: modelProfiles.high[1].default: only one model of a tier may be the default (models 0 and 1 both say default: true)',
      fieldPath: 'modelProfiles.high[1].default',
    });
    // `{{ prompt }}` with spaces is the same variable, and one default per tier is fine.
    expect(() =>
      parseConnectorManifest(
        {
          ...minimalManifest(),
          invocation: { command: 'foo', prompt: { mode: 'arg', args: ['-p', '{{ prompt }}'] } },
          modelProfiles: { high: [{ model: 'a' }, { model: 'b', default: true }] },
        },
        'providers/foo/connector.json',
      ),
    ).not.toThrow();
  });

  it('allows only the known template variables, each where it makes sense', () => {
    expect(
      problem((m) => {
        m.invocation = { command: 'foo', args: ['{{secret}}'], prompt: { mode: 'stdin' } };
      }),
    ).toEqual({
      message:
        'providers/foo/connector.json: invocation.args[0]: unknown template variable {{secret}} here; valid: {{account}}, {{home}}, {{userHome}}, {{cwd}}, {{env.NAME}}',
      fieldPath: 'invocation.args[0]',
    });
    expect(
      problem((m) => {
        m.invocation = { command: 'foo', args: ['{{prompt}}'], prompt: { mode: 'stdin' } };
      }).fieldPath,
    ).toBe('invocation.args[0]');
    expect(
      problem((m) => {
        m.account = { env: { X: '{{cwd}}' } };
      }).fieldPath,
    ).toBe('account.env.X');
    expect(
      problem((m) => {
        m.meter = { type: 'file', path: '{{home}/x' };
      }).message,
    ).toMatch(/unbalanced/);
    expect(() =>
      parseConnectorManifest(
        {
          ...minimalManifest(),
          invocation: {
            command: 'foo',
            prompt: { mode: 'arg', args: ['-p', '{{prompt}}'] },
            addDirArgs: ['--dir', '{{dir}}'],
            modelArgs: ['-m', '{{model}}'],
            env: { A: '{{env.HOME}}' },
          },
        },
        'x',
      ),
    ).not.toThrow();
  });
});
