import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { bullswarm, tempDirs } from './support/cli';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

/** examples/connector-template: what `connectors init --id template` must write. */
const TEMPLATE_DIR = fileURLToPath(new URL('../../../examples/connector-template', import.meta.url));
const CONNECTORS_VERSION = (
  JSON.parse(readFileSync(new URL('../../../packages/connectors/package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

/** Files of a package directory as the repository holds them (no install or build output). */
function files(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (['node_modules', 'dist', 'test-results', '.turbo'].includes(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else found.push(relative(root, path));
    }
  };
  walk(root);
  return found.sort();
}

const read = (root: string, file: string) => readFileSync(join(root, file), 'utf8');

describe('bullswarm connectors init', () => {
  it('with --id template writes exactly examples/connector-template, its package.json ready to publish', async () => {
    const target = join(dirs.make(), 'bullswarm-connector-template');
    const result = await bullswarm(['connectors', 'init', target, '--id', 'template']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(
      `created bullswarm-connector-template (connector "template") in ${target}`,
    );
    expect(files(target)).toEqual(files(TEMPLATE_DIR));
    for (const file of files(TEMPLATE_DIR).filter((name) => name !== 'package.json'))
      expect(read(target, file), file).toBe(read(TEMPLATE_DIR, file));
    const written = JSON.parse(read(target, 'package.json'));
    const template = JSON.parse(read(TEMPLATE_DIR, 'package.json'));
    expect(written).toEqual({
      ...Object.fromEntries(Object.entries(template).filter(([key]) => key !== 'private')),
      version: '0.1.0',
      peerDependencies: { '@bullswarm/connectors': `^${CONNECTORS_VERSION}` },
      devDependencies: { ...template.devDependencies, '@bullswarm/connectors': `^${CONNECTORS_VERSION}` },
    });
    // Standalone: nothing reaches into a workspace.
    expect(read(target, 'tsconfig.json')).not.toContain('extends');
    expect(read(target, 'vitest.config.ts')).not.toContain('@bullswarm/source');
    expect(JSON.stringify(written)).not.toContain('workspace:');
  });

  it('names everything after the id the directory gives, in each case style', async () => {
    const target = join(dirs.make(), 'bullswarm-connector-my-agent');
    const result = await bullswarm(['connectors', 'init', target, '--json']);
    expect(result.exitCode).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json).toMatchObject({
      directory: target,
      packageName: 'bullswarm-connector-my-agent',
      connectorId: 'my-agent',
    });
    expect(json.files).toEqual(files(target));
    expect(json.files).toEqual(
      expect.arrayContaining([
        '.gitignore',
        'connector.json',
        'src/create-my-agent.ts',
        'src/my-agent.test.ts',
      ]),
    );
    for (const file of files(target)) expect(read(target, file), file).not.toMatch(/template/i);
    expect(JSON.parse(read(target, 'connector.json'))).toMatchObject({
      id: 'my-agent',
      displayName: 'MyAgent agent',
      callerEnv: ['MY_AGENT_AGENT_SESSION'],
    });
    expect(read(target, 'src/index.ts')).toContain('export const myAgentConnector = createMyAgent();');
    expect(statSync(target).isDirectory()).toBe(true);
    // Nothing is left beside it.
    expect(readdirSync(join(target, '..'))).toEqual(['bullswarm-connector-my-agent']);
  });

  it('refuses a non-empty directory, a file, a bad id and a built-in id (exit 2, nothing written)', async () => {
    const root = dirs.make();
    const busy = join(root, 'busy');
    mkdirSync(busy);
    writeFileSync(join(busy, 'notes.txt'), 'mine\n');
    const nonEmpty = await bullswarm(['connectors', 'init', busy, '--id', 'acme']);
    expect(nonEmpty).toMatchObject({ exitCode: 2, stdout: '' });
    expect(nonEmpty.stderr).toBe(
      `error: <dir> ${busy} is not empty: give a new directory (or an empty one); nothing was written\n`,
    );
    expect(readdirSync(busy)).toEqual(['notes.txt']);

    const file = join(root, 'file');
    writeFileSync(file, '');
    expect((await bullswarm(['connectors', 'init', file])).stderr).toBe(
      `error: <dir> ${file} is a file: give a new directory (or an empty one)\n`,
    );

    const badId = await bullswarm(['connectors', 'init', join(root, 'x'), '--id', 'My_Agent']);
    expect(badId).toMatchObject({ exitCode: 2 });
    expect(badId.stderr).toBe(
      'error: --id "My_Agent" is not a connector id: kebab case starting with a letter, e.g. my-agent\n',
    );
    const badName = await bullswarm(['connectors', 'init', join(root, 'Foo Bar')]);
    expect(badName.exitCode).toBe(2);
    expect(badName.stderr).toContain('name the id with --id');

    const builtin = await bullswarm(['connectors', 'init', join(root, 'bullswarm-connector-codex')]);
    expect(builtin).toMatchObject({ exitCode: 2 });
    expect(builtin.stderr).toBe(
      'error: <dir> "codex" is the id of a built-in connector: choose another with --id\n',
    );
    expect(readdirSync(root).sort()).toEqual(['busy', 'file']);
  });

  it('writes into an empty directory', async () => {
    const target = dirs.make();
    const result = await bullswarm(['connectors', 'init', target, '--id', 'acme']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(read(target, 'package.json')).name).toBe('bullswarm-connector-acme');
  });
});
