import { readFile } from 'node:fs/promises';
import { ConnectorLoadError } from '../errors';
import { createManifestConnector, type ManifestConnector } from '../manifest/create-manifest-connector';
import { parseConnectorManifest } from '../manifest/parse-connector-manifest';

/**
 * Reads, parses and validates one connector.json. Throws {@link ConnectorLoadError} naming
 * `displayPath` (and the field path for schema problems).
 */
export async function loadManifestFile(path: string, displayPath = path): Promise<ManifestConnector> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    throw new ConnectorLoadError({
      source: displayPath,
      reason: code === 'ENOENT' ? 'not-found' : 'unreadable',
      message: code === 'ENOENT' ? 'file not found' : `cannot read the file (${code ?? String(cause)})`,
      cause,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new ConnectorLoadError({
      source: displayPath,
      reason: 'invalid-json',
      message: `not valid JSON (${(cause as Error).message})`,
      cause,
    });
  }
  const manifest = parseConnectorManifest(json, displayPath);
  return createManifestConnector(manifest, { sourcePath: displayPath });
}
