import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConnectorLoadError, InvalidConnectorError, UnsupportedConnectorVersionError } from '../errors';
import { readJsonFile } from '../files/read-json-file';
import { resolveConnector } from '../resolve-connector';
import type { ConnectorV1 } from '../spec/v1';
import {
  CONNECTOR_PACKAGE_NAME,
  type ConfiguredConnectorEntry,
  connectorEntryName,
} from './configured-connector-entry';
import { loadManifestFile } from './load-manifest-file';
import type { ConnectorLoadResult, LoadedConnector } from './loaded-connector';

function isPathEntry(entry: string): boolean {
  return entry.startsWith('.') || isAbsolute(entry) || entry.endsWith('.json');
}

/** Imports the module at `file`, unwraps `default` and checks it is a connector-v1. */
async function importConnector(resolved: string, where: string, name: string): Promise<ConnectorV1> {
  let module: unknown;
  try {
    // (The CLI bundle rewrites this exact line to the bin's import: apps/cli/tsup.config.ts.)
    module = await import(pathToFileURL(resolved).href);
  } catch (cause) {
    throw new ConnectorLoadError({
      source: where,
      reason: 'import-failed',
      message: `import of ${resolved} failed: ${(cause as Error).message}`,
      cause,
    });
  }
  let value = module as { default?: unknown } | undefined;
  // Unwrap `default` (ESM default export, or CJS interop's double default).
  for (let depth = 0; depth < 2 && value && typeof value === 'object' && 'default' in value; depth += 1) {
    value = value.default as { default?: unknown } | undefined;
  }
  return resolveConnector(value, name);
}

/**
 * The module file of the package in `directory` (absolute): resolved by its own name from inside
 * it (a package with `exports` refers to itself), else as a directory (`main`, then `index.js`).
 */
function resolvePackageModule(name: string, directory: string, where: string): string {
  const requireInside = createRequire(join(directory, 'package.json'));
  try {
    return requireInside.resolve(name);
  } catch {
    try {
      return requireInside.resolve(directory);
    } catch (cause) {
      throw new ConnectorLoadError({
        source: where,
        reason: existsSync(join(directory, 'package.json')) ? 'import-failed' : 'not-found',
        message: existsSync(join(directory, 'package.json'))
          ? `cannot resolve the module of ${name} in ${directory} (its exports needs a "default" or "require" condition, or a main file; is it built?)`
          : `no package at ${directory} (was it moved or uninstalled? run \`bullswarm connectors add\` again)`,
        cause,
      });
    }
  }
}

/** The directory of the package `name` that `file` belongs to: the nearest package.json named so. */
function packageDirectoryOf(file: string, name: string): string | undefined {
  let directory = dirname(file);
  for (;;) {
    const manifest = join(directory, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === name)
          return directory;
      } catch {
        // not JSON: keep walking up
      }
    }
    const parent = dirname(directory);
    if (parent === directory) return undefined;
    directory = parent;
  }
}

/**
 * The `node_modules/<name>` directory Node finds first from `fromDir` upwards, as it is (a link
 * left unresolved: pnpm and npm link install packages as symlinks, and the link survives an upgrade
 * where the store path it points to does not).
 */
function nodeModulesDirectoryOf(fromDir: string, name: string): string | undefined {
  let directory = resolve(fromDir);
  for (;;) {
    const candidate = join(directory, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    const parent = dirname(directory);
    if (parent === directory) return undefined;
    directory = parent;
  }
}

/** Reads the `name` of the package.json in `directory`, or undefined when there is none. */
function readPackageName(directory: string, where: string): string | undefined {
  const manifest = join(directory, 'package.json');
  if (!existsSync(manifest)) return undefined;
  const read = readJsonFile(manifest);
  if (!read.ok) {
    throw new ConnectorLoadError({
      source: where,
      reason: 'invalid-connector',
      fieldPath: 'name',
      message: `${manifest} ${read.problem}`,
      cause: read.cause,
    });
  }
  const name = (read.value as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : '';
}

function checkPackageName(name: string, where: string, file?: string): void {
  if (!CONNECTOR_PACKAGE_NAME.test(name)) {
    throw new ConnectorLoadError({
      source: where,
      reason: 'invalid-connector',
      ...(file === undefined ? {} : { fieldPath: 'name' }),
      message: `${file === undefined ? '' : `${file} names the package ${JSON.stringify(name)}; `}expected a package named bullswarm-connector-* or @scope/bullswarm-connector-*, or a path to a connector.json`,
    });
  }
}

/** Turns the loader's error kinds into one {@link ConnectorLoadError} naming `where`. */
function asLoadError(error: unknown, where: string): ConnectorLoadError {
  if (ConnectorLoadError.isInstance(error)) return error;
  if (UnsupportedConnectorVersionError.isInstance(error)) {
    return new ConnectorLoadError({
      source: where,
      reason: 'unsupported-version',
      fieldPath: 'specificationVersion',
      message: `${JSON.stringify(error.version)} is not supported; expected ${error.supportedVersions.map((v) => JSON.stringify(v)).join(' or ')}`,
      cause: error,
    });
  }
  if (InvalidConnectorError.isInstance(error)) {
    return new ConnectorLoadError({
      source: where,
      reason: 'invalid-connector',
      fieldPath: error.field,
      message: error.problem,
      cause: error,
    });
  }
  throw error;
}

async function loadEntry(
  entry: ConfiguredConnectorEntry,
  projectDir: string,
  where: string,
): Promise<ConnectorV1> {
  if (typeof entry !== 'string') {
    checkPackageName(entry.package, where);
    if (!isAbsolute(entry.directory)) {
      throw new ConnectorLoadError({
        source: where,
        reason: 'invalid-connector',
        fieldPath: 'directory',
        message: `must be an absolute path, got ${JSON.stringify(entry.directory)}`,
      });
    }
    return importConnector(resolvePackageModule(entry.package, entry.directory, where), where, entry.package);
  }
  if (isPathEntry(entry)) return loadManifestFile(resolve(projectDir, entry), entry);
  checkPackageName(entry, where);
  const resolved = resolvePackageFrom(
    projectDir,
    entry,
    where,
    `cannot resolve the package from ${projectDir} (is it installed there?)`,
  );
  return importConnector(resolved, where, entry);
}

/**
 * Loads the connectors the home config lists (`$BULLSWARM_HOME/state.json` `config.connectors`,
 * managed with `bullswarm connectors add|remove|list`), in order. Each entry is one of
 * (see {@link ConfiguredConnectorEntry}):
 * - `{ package, directory }`: the package in that absolute directory, resolved by its own name from
 *   inside it (so its `exports` needs a `default` or `require` condition) or by its `main`;
 * - a path to a connector.json (absolute, or relative to `projectDir`), parsed as a manifest;
 * - a package name `bullswarm-connector-*` / `@scope/bullswarm-connector-*`, resolved FROM
 *   `projectDir` with `createRequire(projectDir).resolve` (hand-written entries; `connectors add`
 *   stores the package's directory instead, so it loads from anywhere).
 * A package is `import()`ed, its `default` export unwrapped, and checked with {@link resolveConnector}.
 *
 * There is no node_modules scan: only listed entries load. A failing entry becomes an error
 * naming the entry, and the others still load.
 */
export async function loadConfiguredConnectors(
  entries: readonly ConfiguredConnectorEntry[],
  projectDir: string,
): Promise<ConnectorLoadResult> {
  const connectors: LoadedConnector[] = [];
  const errors: ConnectorLoadError[] = [];
  for (const [index, entry] of entries.entries()) {
    const name = connectorEntryName(entry);
    const where = `connectors[${index}] "${name}"`;
    try {
      connectors.push({
        connector: await loadEntry(entry, projectDir, where),
        origin: 'configured',
        source: name,
      });
    } catch (error) {
      errors.push(asLoadError(error, where));
    }
  }
  return { connectors, errors };
}

/** What {@link resolveConnectorEntry} found: the entry to store and the connector it loads. */
export type ResolvedConnectorEntry = {
  readonly entry: ConfiguredConnectorEntry;
  readonly connector: ConnectorV1;
};

/**
 * Resolves what a user names in `bullswarm connectors add <package-or-path>` to the entry to store,
 * and loads it once to check it is a valid connector:
 * - a path (starting with `.` or `/`, or naming an existing file or directory) to a package
 *   directory → `{ package, directory }` with the package's name and absolute directory;
 * - a path to a `connector.json`, or to a directory holding one (and no package.json) → its
 *   absolute path;
 * - a package name → resolved from `fromDir` (as Node resolves it from there), stored as
 *   `{ package, directory }` with the package's directory: the `node_modules/<name>` Node found
 *   (a symlink kept as the link), or the package `fromDir` is in.
 * Throws a {@link ConnectorLoadError} naming `what` and where it looked when it cannot be resolved
 * or is not a valid connector.
 */
export async function resolveConnectorEntry(what: string, fromDir: string): Promise<ResolvedConnectorEntry> {
  const where = `"${what}"`;
  const path = resolve(fromDir, what);
  const looksLikePath =
    what.startsWith('.') || isAbsolute(what) || what.endsWith('.json') || existsSync(path);
  let entry: ConfiguredConnectorEntry;
  try {
    if (looksLikePath) {
      if (!existsSync(path)) {
        throw new ConnectorLoadError({
          source: where,
          reason: 'not-found',
          message: `no such file or directory: ${path}`,
        });
      }
      if (statSync(path).isDirectory()) {
        const name = readPackageName(path, where);
        if (name !== undefined) {
          checkPackageName(name, where, join(path, 'package.json'));
          entry = { package: name, directory: path };
        } else if (existsSync(join(path, 'connector.json'))) {
          entry = join(path, 'connector.json');
        } else {
          throw new ConnectorLoadError({
            source: where,
            reason: 'not-found',
            message: `${path} holds neither a package.json nor a connector.json`,
          });
        }
      } else {
        entry = path;
      }
    } else {
      checkPackageName(what, where);
      const resolved = resolvePackageFrom(
        fromDir,
        what,
        where,
        `cannot resolve the package from ${resolve(fromDir)} (looked in node_modules there and above; install it there, or give the path to its directory)`,
      );
      const directory = nodeModulesDirectoryOf(fromDir, what) ?? packageDirectoryOf(resolved, what);
      if (directory === undefined) {
        throw new ConnectorLoadError({
          source: where,
          reason: 'not-found',
          message: `resolved to ${resolved}, but found no package.json named ${what} above it`,
        });
      }
      entry = { package: what, directory };
    }
    return { entry, connector: await loadEntry(entry, fromDir, where) };
  } catch (error) {
    throw asLoadError(error, where);
  }
}

/** Resolves a package's main module as Node would from `dir`; `not-found` with `message` when it cannot. */
function resolvePackageFrom(dir: string, name: string, where: string, message: string): string {
  try {
    return createRequire(join(resolve(dir), 'package.json')).resolve(name);
  } catch (cause) {
    throw new ConnectorLoadError({ source: where, reason: 'not-found', message, cause });
  }
}
