import { createRequire } from 'node:module';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConnectorLoadError, InvalidConnectorError, UnsupportedConnectorVersionError } from '../errors';
import { resolveConnector } from '../resolve-connector';
import { loadManifestFile } from './load-manifest-file';
import type { ConnectorLoadResult, LoadedConnector } from './loaded-connector';

const PACKAGE_NAME = /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?bullswarm-connector-[a-z0-9-._~]+$/;

function isPathEntry(entry: string): boolean {
  return entry.startsWith('.') || isAbsolute(entry) || entry.endsWith('.json');
}

/**
 * Loads the connectors a project's config lists (`bullswarm.config.json` `"connectors"`), in
 * order. Each entry is either:
 * - a path to a connector.json (relative to `projectDir`), parsed as a manifest; or
 * - a package named `bullswarm-connector-*` / `@scope/bullswarm-connector-*`, resolved FROM THE
 *   PROJECT with `createRequire(projectDir).resolve` (so its `exports` needs a `default` or
 *   `require` condition), `import()`ed, its `default` export unwrapped, and checked with
 *   {@link resolveConnector}.
 *
 * There is no node_modules scan: only listed entries load. A failing entry becomes an error
 * naming the entry, and the others still load.
 */
export async function loadConfiguredConnectors(
  entries: readonly string[],
  projectDir: string,
): Promise<ConnectorLoadResult> {
  const connectors: LoadedConnector[] = [];
  const errors: ConnectorLoadError[] = [];
  const requireFromProject = createRequire(join(resolve(projectDir), 'package.json'));
  for (const [index, entry] of entries.entries()) {
    const where = `connectors[${index}] "${entry}"`;
    try {
      if (isPathEntry(entry)) {
        const file = resolve(projectDir, entry);
        connectors.push({
          connector: await loadManifestFile(file, entry),
          origin: 'configured',
          source: entry,
        });
        continue;
      }
      if (!PACKAGE_NAME.test(entry)) {
        throw new ConnectorLoadError({
          source: where,
          reason: 'invalid-connector',
          message:
            'expected a package named bullswarm-connector-* or @scope/bullswarm-connector-*, or a path to a connector.json',
        });
      }
      let resolved: string;
      try {
        resolved = requireFromProject.resolve(entry);
      } catch (cause) {
        throw new ConnectorLoadError({
          source: where,
          reason: 'not-found',
          message: `cannot resolve the package from ${projectDir} (is it installed there?)`,
          cause,
        });
      }
      let module: unknown;
      try {
        module = await import(pathToFileURL(resolved).href);
      } catch (cause) {
        throw new ConnectorLoadError({
          source: where,
          reason: 'import-failed',
          message: `import failed: ${(cause as Error).message}`,
          cause,
        });
      }
      let value = module as { default?: unknown } | undefined;
      // Unwrap `default` (ESM default export, or CJS interop's double default).
      for (let depth = 0; depth < 2 && value && typeof value === 'object' && 'default' in value; depth += 1) {
        value = value.default as { default?: unknown } | undefined;
      }
      const connector = resolveConnector(value, entry);
      connectors.push({ connector, origin: 'configured', source: entry });
    } catch (error) {
      if (ConnectorLoadError.isInstance(error)) errors.push(error);
      else if (UnsupportedConnectorVersionError.isInstance(error)) {
        errors.push(
          new ConnectorLoadError({
            source: where,
            reason: 'unsupported-version',
            fieldPath: 'specificationVersion',
            message: `${JSON.stringify(error.version)} is not supported; expected ${error.supportedVersions.map((v) => JSON.stringify(v)).join(' or ')}`,
            cause: error,
          }),
        );
      } else if (InvalidConnectorError.isInstance(error)) {
        errors.push(
          new ConnectorLoadError({
            source: where,
            reason: 'invalid-connector',
            fieldPath: error.field,
            message: error.problem,
            cause: error,
          }),
        );
      } else throw error;
    }
  }
  return { connectors, errors };
}
