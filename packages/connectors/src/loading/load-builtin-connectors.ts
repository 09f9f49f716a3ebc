import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { BUILTIN_PROVIDER_DIRECTORIES } from '../package-paths';
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

/** Loads the built-in connectors (`providers/*\/connector.json`). */
export async function loadBuiltinConnectors(
  options: { directory?: string } = {},
): Promise<ConnectorLoadResult> {
  const directory = options.directory ?? defaultBuiltinProvidersDirectory();
  if (directory === undefined) return { connectors: [], errors: [] };
  return loadManifestDirectory(directory, 'builtin', dirname(directory));
}
