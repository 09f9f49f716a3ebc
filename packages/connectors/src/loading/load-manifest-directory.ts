import { relative } from 'node:path';
import { ConnectorLoadError } from '../errors';
import { loadManifestFile } from './load-manifest-file';
import type { ConnectorLoadResult, ConnectorOrigin, LoadedConnector } from './loaded-connector';

/**
 * Loads every `<directory>/*\/connector.json`, sorted by path. A bad file becomes an error and
 * the others still load. `displayBase` makes messages name `providers/foo/connector.json`
 * rather than an absolute path.
 */
export async function loadManifestDirectory(
  directory: string,
  origin: ConnectorOrigin,
  displayBase?: string,
): Promise<ConnectorLoadResult> {
  const { default: fg } = await import('fast-glob');
  const files = (await fg('*/connector.json', { cwd: directory, absolute: true, onlyFiles: true })).sort();
  const connectors: LoadedConnector[] = [];
  const errors: ConnectorLoadError[] = [];
  for (const file of files) {
    const display = displayBase === undefined ? file : relative(displayBase, file);
    try {
      connectors.push({ connector: await loadManifestFile(file, display), origin, source: display });
    } catch (error) {
      if (ConnectorLoadError.isInstance(error)) errors.push(error);
      else throw error;
    }
  }
  return { connectors, errors };
}
