import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDirs } from '@bullswarm/test-support/temp-dirs';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectorLoadError, DuplicateConnectorError } from '../errors';
import { defaultBuiltinProvidersDirectory, loadBuiltinConnectors } from './load-builtin-connectors';
import { loadConfiguredConnectors, resolveConnectorEntry } from './load-configured-connectors';
import { loadConnectors } from './load-connectors';
import { loadHomeConnectors } from './load-home-connectors';

const repoProviders = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'providers');
const sample = JSON.parse(readFileSync(join(repoProviders, 'echo', 'connector.json'), 'utf8')) as Record<
  string,
  unknown
>;

function manifest(id: string, extra: Record<string, unknown> = {}) {
  const { $schema: _schema, ...rest } = sample;
  return { ...rest, id, displayName: `Connector ${id}`, ...extra };
}

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

function tempDir(prefix: string) {
  return dirs.make(`bullswarm-${prefix}-`);
}

function writeManifest(root: string, folder: string, content: unknown) {
  mkdirSync(join(root, folder), { recursive: true });
  writeFileSync(
    join(root, folder, 'connector.json'),
    typeof content === 'string' ? content : JSON.stringify(content),
  );
}

describe('loadBuiltinConnectors', () => {
  it('loads the repo providers/ when running from sources', async () => {
    expect(defaultBuiltinProvidersDirectory()).toBe(repoProviders);
    const { connectors, errors } = await loadBuiltinConnectors();
    expect(errors).toEqual([]);
    expect(connectors.map((c) => [c.connector.connectorId, c.origin, c.source])).toEqual([
      ['claude-code', 'builtin', 'providers/claude-code/connector.json'],
      ['codex', 'builtin', 'providers/codex/connector.json'],
      ['echo', 'builtin', 'providers/echo/connector.json'],
      ['gemini', 'builtin', 'providers/gemini/connector.json'],
      ['grok', 'builtin', 'providers/grok/connector.json'],
      ['opencode', 'builtin', 'providers/opencode/connector.json'],
      // Sorted by manifest path: `sim-codex/` sorts before `sim/`.
      ['sim-codex', 'builtin', 'providers/sim-codex/connector.json'],
      ['sim', 'builtin', 'providers/sim/connector.json'],
    ]);
  });

  it('a malformed connector.json names the file and the field path; the others still load', async () => {
    const root = join(tempDir('providers'), 'providers');
    cpSync(repoProviders, root, { recursive: true });
    writeManifest(root, 'foo', manifest('foo', { modelProfiles: { high: [{ model: 5 }] } }));
    writeManifest(root, 'broken', '{ "id": "broken", ');
    const { connectors, errors } = await loadBuiltinConnectors({ directory: root });
    expect(connectors.map((c) => c.connector.connectorId)).toEqual([
      'claude-code',
      'codex',
      'echo',
      'gemini',
      'grok',
      'opencode',
      'sim-codex',
      'sim',
    ]);
    expect(errors.map((e) => e.message)).toEqual([
      'providers/broken/connector.json: not valid JSON: expected a double-quoted field name, found the end of the file at line 1, column 19',
      'providers/foo/connector.json: modelProfiles.high[0].model: expected string, received number',
    ]);
    const fieldError = errors[1] as ConnectorLoadError;
    expect(ConnectorLoadError.isInstance(fieldError)).toBe(true);
    expect([fieldError.source, fieldError.fieldPath, fieldError.reason]).toEqual([
      'providers/foo/connector.json',
      'modelProfiles.high[0].model',
      'invalid-manifest',
    ]);
  });
});

describe('loadConnectors: builtin + home + configured', () => {
  it('home overrides a builtin with a warning; configured packages and paths load from the project', async () => {
    const home = tempDir('home');
    writeManifest(join(home, 'providers'), 'echo', manifest('echo', { displayName: 'My echo' }));
    writeManifest(join(home, 'providers'), 'house', manifest('house'));

    const project = tempDir('project');
    writeFileSync(join(project, 'package.json'), '{"name":"my-project","private":true}');
    const pkg = join(project, 'node_modules', 'bullswarm-connector-tmp');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(
      join(pkg, 'package.json'),
      JSON.stringify({
        name: 'bullswarm-connector-tmp',
        type: 'module',
        exports: { '.': { default: './index.js' } },
      }),
    );
    writeFileSync(
      join(pkg, 'index.js'),
      `const connector = {
  specificationVersion: 'connector-v1', connectorId: 'tmp', displayName: 'Tmp', providerFamily: 'tmp', credentialGroup: 'tmp',
  lanes: ['chore'], capabilities: [], pacingWindow: 'monthly', hasFiveHourWindow: false, cost: 2,
  modelProfiles: { low: [{ model: 'tmp-1' }] }, authSignatures: [], callerEnv: [], meter: { type: 'none' }, probe: false,
  accountEnv: () => ({}),
  buildInvocation: (r) => ({ command: 'tmp', args: [r.prompt], env: {}, cwd: r.cwd }),
  createOutputParser: () => { let t = ''; return { push: (c) => { t += c; }, end: () => ({ answer: t.trim(), events: { total: 1, ignored: 0, kinds: {} }, isError: false, notices: [], rateLimitEvents: [] }) }; },
  classifyOutcome: () => ({ kind: 'ok', message: 'ok', evidence: 'tmp' }),
};
export default connector;
`,
    );
    writeManifest(join(project, 'tools'), 'bar', manifest('bar'));

    const loaded = await loadConnectors({
      home,
      configEntries: ['bullswarm-connector-tmp', './tools/bar/connector.json'],
      projectDir: project,
    });
    expect(loaded.errors).toEqual([]);
    expect([...loaded.connectors.keys()].sort()).toEqual(
      [
        'bar',
        'claude-code',
        'codex',
        'echo',
        'gemini',
        'grok',
        'house',
        'opencode',
        'sim',
        'sim-codex',
        'tmp',
      ].sort(),
    );
    expect(loaded.connectors.get('echo')?.displayName).toBe('My echo');
    expect(loaded.sources.get('echo')?.origin).toBe('home');
    expect(loaded.sources.get('tmp')).toMatchObject({
      origin: 'configured',
      source: 'bullswarm-connector-tmp',
    });
    expect(loaded.warnings).toEqual([
      `home connector "echo" (${join(home, 'providers', 'echo', 'connector.json')}) replaces the builtin one (providers/echo/connector.json)`,
    ]);
    const tmp = loaded.connectors.get('tmp');
    expect(
      tmp?.buildInvocation({ prompt: 'hi', cwd: '/w', addDirs: [], accountEnv: {}, bullswarmHome: '/b' }),
    ).toEqual({
      command: 'tmp',
      args: ['hi'],
      env: {},
      cwd: '/w',
    });
  });

  it('two configured connectors with one id are both dropped with a DuplicateConnectorError', async () => {
    const project = tempDir('dup');
    writeManifest(join(project, 'a'), 'x', manifest('twin'));
    writeManifest(join(project, 'b'), 'x', manifest('twin'));
    const loaded = await loadConnectors({
      configEntries: ['./a/x/connector.json', './b/x/connector.json'],
      projectDir: project,
    });
    expect(loaded.connectors.has('twin')).toBe(false);
    expect(loaded.errors).toHaveLength(1);
    const error = loaded.errors[0];
    expect(DuplicateConnectorError.isInstance(error)).toBe(true);
    expect((error as DuplicateConnectorError).sources).toEqual([
      './a/x/connector.json',
      './b/x/connector.json',
    ]);
  });

  it('a package directory whose package.json is not JSON is named with the line and column', async () => {
    const dir = tempDir('broken-package');
    writeFileSync(join(dir, 'package.json'), '{\n  "name": "bullswarm-connector-x",\n}\n');
    const error = await resolveConnectorEntry(dir, dir).catch((e: unknown) => e);
    expect(ConnectorLoadError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(
      `${join(dir, 'package.json')} is not valid JSON: expected a double-quoted field name, found "}" at line 3, column 1`,
    );
  });

  it('bad configured entries become errors naming the entry', async () => {
    const project = tempDir('bad');
    writeFileSync(join(project, 'package.json'), '{"name":"p"}');
    const old = join(project, 'node_modules', 'bullswarm-connector-old');
    mkdirSync(old, { recursive: true });
    writeFileSync(
      join(old, 'package.json'),
      JSON.stringify({ name: 'bullswarm-connector-old', main: 'index.cjs' }),
    );
    writeFileSync(
      join(old, 'index.cjs'),
      "module.exports = { specificationVersion: 'connector-v0', connectorId: 'old' };",
    );
    const half = join(project, 'node_modules', '@acme', 'bullswarm-connector-half');
    mkdirSync(half, { recursive: true });
    writeFileSync(
      join(half, 'package.json'),
      JSON.stringify({ name: '@acme/bullswarm-connector-half', main: 'index.cjs' }),
    );
    writeFileSync(
      join(half, 'index.cjs'),
      "module.exports = { specificationVersion: 'connector-v1', connectorId: 'half', displayName: 'Half', providerFamily: 'h', credentialGroup: 'h' };",
    );
    const { connectors, errors } = await loadConfiguredConnectors(
      [
        'left-pad',
        'bullswarm-connector-missing',
        'bullswarm-connector-old',
        '@acme/bullswarm-connector-half',
        './nope.json',
      ],
      project,
    );
    expect(connectors).toEqual([]);
    expect(errors.map((e) => [e.message, (e as ConnectorLoadError).reason])).toEqual([
      [
        'connectors[0] "left-pad": expected a package named bullswarm-connector-* or @scope/bullswarm-connector-*, or a path to a connector.json',
        'invalid-connector',
      ],
      [
        `connectors[1] "bullswarm-connector-missing": cannot resolve the package from ${project} (is it installed there?)`,
        'not-found',
      ],
      [
        'connectors[2] "bullswarm-connector-old": specificationVersion: "connector-v0" is not supported; expected "connector-v1"',
        'unsupported-version',
      ],
      [
        'connectors[3] "@acme/bullswarm-connector-half": buildInvocation: expected a function',
        'invalid-connector',
      ],
      ['./nope.json: file not found', 'not-found'],
    ]);
  });

  it('home with no providers directory loads nothing', async () => {
    expect(await loadHomeConnectors(tempDir('empty'))).toEqual({ connectors: [], errors: [] });
  });

  it('requires projectDir with configured entries', async () => {
    await expect(loadConnectors({ configEntries: ['./x.json'] })).rejects.toThrow(/projectDir is required/);
  });
});
