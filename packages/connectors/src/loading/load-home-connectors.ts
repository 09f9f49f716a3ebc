import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadManifestDirectory } from './load-manifest-directory';
import type { ConnectorLoadResult } from './loaded-connector';

/** Loads `$BULLSWARM_HOME/providers/*\/connector.json` (none when the directory is absent). */
export async function loadHomeConnectors(home: string): Promise<ConnectorLoadResult> {
  const directory = join(home, 'providers');
  if (!existsSync(directory)) return { connectors: [], errors: [] };
  return loadManifestDirectory(directory, 'home');
}
