import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nowEnv, PROVIDERS_ROOT, writeTestHome } from '@bullswarm/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { bullswarm, tempDirs } from './support/cli';

const NOW = Date.parse('2026-09-10T12:00:00Z');
const dirs = tempDirs();
afterEach(() => dirs.cleanup());

/** examples/connector-template: built before these tests (a devDependency, so turbo builds it). */
const TEMPLATE_DIR = fileURLToPath(new URL('../../../examples/connector-template', import.meta.url));

const stateOf = (home: string) =>
  JSON.parse(readFileSync(join(home, 'state.json'), 'utf8')) as { config: { connectors: unknown[] } };

/** A project with the template installed in node_modules (a symlink, as pnpm and npm link do). */
function projectWithTemplate(): string {
  const project = dirs.make();
  writeFileSync(join(project, 'package.json'), '{"name":"project","private":true}');
  mkdirSync(join(project, 'node_modules'), { recursive: true });
  symlinkSync(TEMPLATE_DIR, join(project, 'node_modules', 'bullswarm-connector-template'), 'dir');
  return project;
}

describe('bullswarm connectors', () => {
  it('adds the template by path; pools from any other directory find it', async () => {
    const home = dirs.make();
    writeTestHome(home, { now: NOW, pools: [] });
    const env = nowEnv(NOW);
    const added = await bullswarm(['connectors', 'add', TEMPLATE_DIR], { home, env, cwd: dirs.make() });
    expect(added.stderr).toBe('');
    expect(added.exitCode).toBe(0);
    expect(added.stdout).toContain(
      'added connector "template" (Template agent) from bullswarm-connector-template',
    );
    expect(stateOf(home).config.connectors).toEqual([
      { package: 'bullswarm-connector-template', directory: TEMPLATE_DIR },
    ]);

    const elsewhere = dirs.make();
    const pool = await bullswarm(['pools', 'add', 'template', '--json'], { home, env, cwd: elsewhere });
    expect(pool.stderr).toBe('');
    expect(pool.exitCode).toBe(0);
    const listed = await bullswarm(['pools', '--json'], { home, env, cwd: dirs.make() });
    expect(listed.stderr).toBe('');
    const [row] = (JSON.parse(listed.stdout) as { pools: { id: string; problem: string | null }[] }).pools;
    expect(row?.id).toBe('template');
    expect(row?.problem ?? '').not.toMatch(/not installed/);

    const list = await bullswarm(['connectors', 'list', '--json'], { home, env, cwd: elsewhere });
    expect(JSON.parse(list.stdout)).toEqual({
      connectors: [
        {
          entry: { package: 'bullswarm-connector-template', directory: TEMPLATE_DIR },
          name: 'bullswarm-connector-template',
          location: TEMPLATE_DIR,
          connectorId: 'template',
          error: null,
        },
      ],
    });
    const text = await bullswarm(['connectors', 'list'], { home, env });
    expect(text.stdout).toBe(`template  bullswarm-connector-template  ${TEMPLATE_DIR}\n`);

    // Adding it again (now by name, from a project that has it installed) updates the one entry.
    const project = projectWithTemplate();
    const again = await bullswarm(['connectors', 'add', 'bullswarm-connector-template'], {
      home,
      env,
      cwd: project,
    });
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toContain('updated connector "template"');
    expect(stateOf(home).config.connectors).toHaveLength(1);

    const removed = await bullswarm(['connectors', 'remove', 'bullswarm-connector-template'], { home, env });
    expect(removed.exitCode).toBe(0);
    expect(stateOf(home).config.connectors).toEqual([]);
    const after = await bullswarm(['pools', '--json'], { home, env });
    expect(JSON.parse(after.stdout).pools[0].problem).toMatch(/not installed/);
  });

  it('adds by package name, resolved from the current directory, stored with its directory', async () => {
    const home = dirs.make();
    const project = projectWithTemplate();
    const added = await bullswarm(['connectors', 'add', 'bullswarm-connector-template', '--json'], {
      home,
      cwd: project,
    });
    expect(added.exitCode).toBe(0);
    const json = JSON.parse(added.stdout) as {
      entry: { package: string; directory: string };
      connectorId: string;
    };
    expect(json.connectorId).toBe('template');
    expect(json.entry.package).toBe('bullswarm-connector-template');
    // The package's own directory (through the project's node_modules link), absolute.
    expect(json.entry.directory).toBe(join(project, 'node_modules', 'bullswarm-connector-template'));
    // Loaded from another directory: the pool is added; its agent is not installed here, so
    // `pools add` warns at once that it cannot run yet.
    const pool = await bullswarm(['pools', 'add', 'template'], { home, cwd: dirs.make() });
    expect(pool.stderr).toBe(
      'warning: pool template cannot run: template-agent not on PATH; it shows UNAVAILABLE in bullswarm pools until then (install Template agent, or add the pool with --command <path>)\n',
    );
    expect(pool.exitCode).toBe(0);
  });

  it.each([
    [
      'an uninstalled package',
      ['bullswarm-connector-nosuch'],
      /^error: <package-or-path> "bullswarm-connector-nosuch": cannot resolve the package from (\S+) \(looked in node_modules there and above/,
    ],
    [
      'a name that is not a connector package',
      ['left-pad'],
      /^error: <package-or-path> "left-pad": expected a package named bullswarm-connector-\*/,
    ],
    [
      'a missing path',
      ['./nowhere'],
      /^error: <package-or-path> "\.\/nowhere": no such file or directory: \S+nowhere\n$/,
    ],
  ])('refuses %s with exit 2, naming it and where it looked', async (_name, args, message) => {
    const home = dirs.make();
    writeTestHome(home, { now: NOW, pools: [] });
    const before = readFileSync(join(home, 'state.json'), 'utf8');
    const cwd = dirs.make();
    const result = await bullswarm(['connectors', 'add', ...args], { home, cwd });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(message);
    if (args[0] === 'bullswarm-connector-nosuch') expect(result.stderr).toContain(cwd);
    expect(readFileSync(join(home, 'state.json'), 'utf8')).toBe(before);
  });

  it('refuses a package that is not a valid connector, naming the field', async () => {
    const home = dirs.make();
    const pkg = join(dirs.make(), 'bullswarm-connector-bad');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(
      join(pkg, 'package.json'),
      JSON.stringify({
        name: 'bullswarm-connector-bad',
        type: 'module',
        exports: { '.': { default: './index.js' } },
      }),
    );
    writeFileSync(
      join(pkg, 'index.js'),
      "export default { specificationVersion: 'connector-v1', connectorId: 5 };\n",
    );
    const result = await bullswarm(['connectors', 'add', pkg], { home });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^error: <package-or-path> "[^"]+bullswarm-connector-bad": connectorId: /);
    const list = await bullswarm(['connectors', 'list'], { home });
    expect(list.stdout).toMatch(/^no connector packages configured/);
  });

  it('removes by the connector id it provides, or by a folder holding a connector.json, with --json', async () => {
    const home = dirs.make();
    writeTestHome(home, { now: NOW, pools: [] });
    expect((await bullswarm(['connectors', 'add', TEMPLATE_DIR], { home })).exitCode).toBe(0);
    const byId = await bullswarm(['connectors', 'remove', 'template', '--json'], { home });
    expect(byId.stderr).toBe('');
    expect(byId.exitCode).toBe(0);
    expect(JSON.parse(byId.stdout)).toEqual({
      removed: [{ package: 'bullswarm-connector-template', directory: TEMPLATE_DIR }],
    });
    expect(stateOf(home).config.connectors).toEqual([]);

    // A bare manifest in a folder: added by the folder, removed by the folder.
    const folder = dirs.make();
    const manifest = JSON.parse(readFileSync(join(PROVIDERS_ROOT, 'echo', 'connector.json'), 'utf8'));
    const { $schema: _schema, ...rest } = manifest;
    writeFileSync(join(folder, 'connector.json'), JSON.stringify({ ...rest, id: 'myecho' }));
    const added = await bullswarm(['connectors', 'add', folder], { home });
    expect(added.stderr).toBe('');
    expect(added.exitCode).toBe(0);
    const byFolder = await bullswarm(['connectors', 'remove', folder], { home });
    expect(byFolder.stderr).toBe('');
    expect(byFolder.exitCode).toBe(0);
    expect(stateOf(home).config.connectors).toEqual([]);
  });

  it('refuses to remove an entry that is not configured, listing the configured ones', async () => {
    const home = dirs.make();
    await bullswarm(['connectors', 'add', TEMPLATE_DIR], { home });
    const result = await bullswarm(['connectors', 'remove', 'bullswarm-connector-x'], { home });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(
      'error: <entry> "bullswarm-connector-x" is not a configured connector: configured: bullswarm-connector-template\n',
    );
  });
});
