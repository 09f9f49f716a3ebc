import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDirs } from '@bullswarm/test-support/temp-dirs';
import { afterAll, describe, expect, it } from 'vitest';
import type { ManifestConnector } from '../manifest/create-manifest-connector';
import { parseConnectorManifest } from '../manifest/parse-connector-manifest';
import {
  BUILTIN_MANIFESTS_FILE,
  BUILTIN_MANIFESTS_FORMAT,
  type BuiltinManifestsFile,
  readBuiltinManifestsFile,
  writeBuiltinManifestsFile,
} from './builtin-manifests-file';
import { loadBuiltinConnectors } from './load-builtin-connectors';

const scratchDirs = tempDirs();
afterAll(() => scratchDirs.cleanup());

const repoProviders = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'providers');

/** A copy of the repo's providers/ in a temp dir (named `providers`, as the build's copy is). */
function copyProviders(): string {
  const directory = join(scratchDirs.make('bullswarm-builtin-'), 'providers');
  cpSync(repoProviders, directory, { recursive: true });
  return directory;
}

function readFile(directory: string): BuiltinManifestsFile {
  return JSON.parse(readFileSync(join(directory, BUILTIN_MANIFESTS_FILE), 'utf8')) as BuiltinManifestsFile;
}

describe('builtin-manifests.json', () => {
  it('holds exactly what the zod schema parses from every built-in connector.json', async () => {
    const directory = copyProviders();
    const returned = await writeBuiltinManifestsFile(directory);
    const file = readFile(directory);
    expect(file).toStrictEqual(JSON.parse(JSON.stringify(returned)));
    expect(file.format).toBe(BUILTIN_MANIFESTS_FORMAT);

    // Every manifest, in the loader's order (by path: `sim-codex/` sorts before `sim/`).
    const sources = readdirSync(repoProviders)
      .filter((id) => existsSync(join(repoProviders, id, 'connector.json')))
      .map((id) => `providers/${id}/connector.json`)
      .sort();
    expect(sources.length).toBeGreaterThanOrEqual(8);
    expect(file.manifests.map((entry) => entry.source)).toEqual(sources);
    for (const [index, source] of sources.entries()) {
      const parsed = parseConnectorManifest(
        JSON.parse(readFileSync(join(repoProviders, '..', source), 'utf8')),
        source,
      );
      // Strict: the JSON round trip loses nothing the parse produced (no undefined, no Dates).
      expect(file.manifests[index]?.manifest).toStrictEqual(parsed);
    }
  });

  it('loadBuiltinConnectors builds the same connectors from it as from parsing the manifests', async () => {
    const parsedDirectory = copyProviders();
    const preparedDirectory = copyProviders();
    await writeBuiltinManifestsFile(preparedDirectory);

    const parsed = await loadBuiltinConnectors({ directory: parsedDirectory });
    const prepared = await loadBuiltinConnectors({ directory: preparedDirectory });
    expect(prepared.errors).toEqual([]);
    expect(prepared.connectors.map((c) => [c.connector.connectorId, c.origin, c.source])).toEqual(
      parsed.connectors.map((c) => [c.connector.connectorId, c.origin, c.source]),
    );
    for (const [index, loaded] of prepared.connectors.entries()) {
      const other = parsed.connectors[index]!.connector as ManifestConnector;
      const connector = loaded.connector as ManifestConnector;
      expect(connector.manifest).toStrictEqual(other.manifest);
      expect(connector.sourcePath).toBe(other.sourcePath);
      const request = { prompt: 'hi', cwd: '/w', addDirs: ['/x'], accountEnv: {}, bullswarmHome: '/b' };
      expect(connector.buildInvocation(request)).toEqual(other.buildInvocation(request));
    }
  });

  it('is trusted: the loader takes the manifests from it, not from the connector.json files', async () => {
    const directory = copyProviders();
    const file = await writeBuiltinManifestsFile(directory);
    const edited = {
      ...file,
      manifests: file.manifests.map((entry) =>
        entry.manifest.id === 'echo'
          ? { ...entry, manifest: { ...entry.manifest, displayName: 'From the pre-parsed file' } }
          : entry,
      ),
    };
    writeFileSync(join(directory, BUILTIN_MANIFESTS_FILE), JSON.stringify(edited));
    const { connectors } = await loadBuiltinConnectors({ directory });
    expect(connectors.find((c) => c.connector.connectorId === 'echo')?.connector.displayName).toBe(
      'From the pre-parsed file',
    );
  });

  it.each([
    ['not JSON', '{ "format": '],
    ['another format', JSON.stringify({ format: 'bullswarm-builtin-manifests-v0', manifests: [] })],
    ['no manifests list', JSON.stringify({ format: BUILTIN_MANIFESTS_FORMAT })],
  ])('a damaged file (%s) is ignored: every manifest is parsed and validated', async (_what, text) => {
    const directory = copyProviders();
    writeFileSync(join(directory, BUILTIN_MANIFESTS_FILE), text);
    expect(readBuiltinManifestsFile(directory)).toBeUndefined();
    writeFileSync(join(directory, 'echo', 'connector.json'), '{ "id": "echo", ');
    const { connectors, errors } = await loadBuiltinConnectors({ directory });
    expect(connectors.map((c) => c.connector.connectorId)).not.toContain('echo');
    expect(errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/^providers\/echo\/connector\.json: not valid JSON/),
    ]);
  });

  it('the build step refuses an invalid manifest, naming the file and field, and writes nothing', async () => {
    const directory = copyProviders();
    const path = join(directory, 'echo', 'connector.json');
    const manifest = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    writeFileSync(path, JSON.stringify({ ...manifest, cost: 9 }));
    await expect(writeBuiltinManifestsFile(directory)).rejects.toThrow(
      /providers\/echo\/connector\.json: cost: /,
    );
    expect(existsSync(join(directory, BUILTIN_MANIFESTS_FILE))).toBe(false);
    expect(readdirSync(directory).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
