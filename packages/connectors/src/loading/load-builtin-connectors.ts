import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { createManifestConnector } from '../manifest/create-manifest-connector';
import { BUILTIN_PROVIDER_DIRECTORIES } from '../package-paths';
import { readBuiltinManifestsFile } from './builtin-manifests-file';
import { loadManifestDirectory } from './load-manifest-directory';
import type { ConnectorLoadResult } from './loaded-connector';

/**
 * The directory the built-in manifests are read from: the repo's top-level `providers/` when
 * running from sources, else the copy the build puts in `dist/providers/` (so it also resolves in
 * the published package). Undefined when neither exists.
 */
export function defaultBuiltinProvidersDirectory(): string | undefined {
  return BUILTIN_PROVIDER_DIRECTORIES.find((directory) => existsSync(directory));
}

/**
 * Loads the built-in connectors (`providers/*\/connector.json`).
 *
 * When the directory holds `builtin-manifests.json` (the build writes it into `dist/providers/`
 * after validating every manifest with the zod schema; see {@link writeBuiltinManifestsFile}), the
 * connectors are made from those pre-parsed manifests: nothing is globbed, and neither the zod
 * schema nor a manifest parse runs. Without it (running from sources), every manifest is read
 * and validated. Home and configured manifests are always validated.
 */
export async function loadBuiltinConnectors(
  options: { directory?: string } = {},
): Promise<ConnectorLoadResult> {
  const directory = options.directory ?? defaultBuiltinProvidersDirectory();
  if (directory === undefined) return { connectors: [], errors: [] };
  const prepared = readBuiltinManifestsFile(directory);
  if (prepared !== undefined) {
    return {
      connectors: prepared.manifests.map(({ source, manifest }) => ({
        connector: createManifestConnector(manifest, { sourcePath: source }),
        origin: 'builtin',
        source,
      })),
      errors: [],
    };
  }
  return loadManifestDirectory(directory, 'builtin', dirname(directory));
}
