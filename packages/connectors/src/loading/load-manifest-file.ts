import { readFile } from 'node:fs/promises';
import { ConnectorLoadError } from '../errors';
import { parseJsonText } from '../files/read-json-file';
import { createManifestConnector, type ManifestConnector } from '../manifest/create-manifest-connector';
import { parseConnectorManifest } from '../manifest/parse-connector-manifest';

/**
 * Reads, parses and validates one connector.json. Throws {@link ConnectorLoadError} naming
 * `displayPath` (and the field path for schema problems).
 */
export async function loadManifestFile(path: string, displayPath = path): Promise<ManifestConnector> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    throw new ConnectorLoadError({
      source: displayPath,
      reason: code === 'ENOENT' ? 'not-found' : 'unreadable',
      message: code === 'ENOENT' ? 'file not found' : `cannot read the file (${code ?? String(cause)})`,
      cause,
    });
  }
  // The one reader of user-written JSON (files/read-json-file.ts): line and column, never the text.
  const read = parseJsonText(bytes);
  if (!read.ok) {
    throw new ConnectorLoadError({
      source: displayPath,
      reason: 'invalid-json',
      message: read.problem.replace(/^is /, ''),
      cause: read.cause,
    });
  }
  const json = read.value;
  const manifest = parseConnectorManifest(json, displayPath);
  return createManifestConnector(manifest, { sourcePath: displayPath });
}
