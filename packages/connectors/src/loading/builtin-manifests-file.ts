import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../files/write-file-atomic';
import type { ConnectorManifest } from '../manifest/connector-manifest-schema';
import type { ManifestConnector } from '../manifest/create-manifest-connector';
import { loadManifestDirectory } from './load-manifest-directory';

/** The pre-parsed built-in manifests, written beside `<id>/connector.json` by the build. */
export const BUILTIN_MANIFESTS_FILE = 'builtin-manifests.json';

/** The format tag of {@link BUILTIN_MANIFESTS_FILE}; a file with another tag is not used. */
export const BUILTIN_MANIFESTS_FORMAT = 'bullswarm-builtin-manifests-v1';

/** One built-in manifest as the zod schema parsed it (every default filled in). */
export type BuiltinManifestEntry = {
  /** How messages name it: `providers/<id>/connector.json`. */
  readonly source: string;
  readonly manifest: ConnectorManifest;
};

/** The content of {@link BUILTIN_MANIFESTS_FILE}: every manifest of the directory, sorted by path. */
export type BuiltinManifestsFile = {
  readonly format: typeof BUILTIN_MANIFESTS_FORMAT;
  readonly manifests: readonly BuiltinManifestEntry[];
};

/**
 * Build step: parses every `<directory>/*\/connector.json` through the zod manifest schema and
 * writes the results to `<directory>/builtin-manifests.json` (atomically: temp file, fsync,
 * rename), so a start of bullswarm creates the built-in connectors without building the zod schema
 * or parsing eight manifests again. Throws when any manifest is invalid, naming each file and
 * field — a build with a broken built-in manifest fails.
 *
 * Only the package build writes this file, beside the manifests it copies into `dist/providers/`:
 * {@link loadBuiltinConnectors} trusts it, so the manifests and the file must not be edited apart.
 */
export async function writeBuiltinManifestsFile(directory: string): Promise<BuiltinManifestsFile> {
  const { connectors, errors } = await loadManifestDirectory(directory, 'builtin', dirname(directory));
  if (errors.length > 0) {
    throw new Error(
      `invalid built-in connector manifest(s) in ${directory}:\n${errors.map((e) => `  ${e.message}`).join('\n')}`,
    );
  }
  const content: BuiltinManifestsFile = {
    format: BUILTIN_MANIFESTS_FORMAT,
    manifests: connectors.map(({ connector, source }) => ({
      source,
      manifest: (connector as ManifestConnector).manifest,
    })),
  };
  writeFileAtomic(join(directory, BUILTIN_MANIFESTS_FILE), `${JSON.stringify(content, null, 2)}\n`, {
    mode: 0o644,
  });
  return content;
}

/**
 * Reads `<directory>/builtin-manifests.json`. Undefined when there is none (running from sources:
 * the repo's `providers/` has no such file) or it is not one this version wrote (unreadable, not
 * JSON, another format tag): the caller then parses the manifests themselves, so a damaged file
 * costs time, never correctness.
 */
export function readBuiltinManifestsFile(directory: string): BuiltinManifestsFile | undefined {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(join(directory, BUILTIN_MANIFESTS_FILE), 'utf8'));
  } catch {
    return undefined;
  }
  const file = value as Partial<BuiltinManifestsFile> | null;
  if (file?.format !== BUILTIN_MANIFESTS_FORMAT || !Array.isArray(file.manifests)) return undefined;
  return file as BuiltinManifestsFile;
}
