import { isAbsolute, join, resolve } from 'node:path';
import type { ConfiguredConnectorEntry } from '@bullswarm/connectors';
import { CliUsageError } from '../cli/cli-errors';
import { type CommandContext, openCliHome, printJson } from '../cli/command-context';

/**
 * `bullswarm connectors add|remove|list`: the third-party connectors a home loads, kept in
 * `$BULLSWARM_HOME/state.json` `config.connectors`. `add` resolves what it is given ONCE, from the
 * current directory, and stores the package's own absolute directory beside its name (or the
 * absolute path of a connector.json), so every later command finds it from any directory.
 */

/** How an entry reads in the list and in messages. */
function describeEntry(entry: ConfiguredConnectorEntry): { name: string; location: string | null } {
  if (typeof entry === 'string') {
    return { name: entry, location: isAbsolute(entry) ? entry : null };
  }
  return { name: entry.package, location: entry.directory };
}

/** Whether two entries name the same package or the same file. */
function sameEntry(a: ConfiguredConnectorEntry, b: ConfiguredConnectorEntry): boolean {
  const left = describeEntry(a);
  const right = describeEntry(b);
  return left.name === right.name || (left.location !== null && left.location === right.location);
}

/** `bullswarm connectors add <package-or-path>`: resolve, check it loads, store it. */
export async function connectorsAddCommand(
  context: CommandContext,
  what: string,
  options: { json?: boolean },
): Promise<void> {
  const { ConnectorLoadError, loadConfiguredConnectors, resolveConnectorEntry } = await import(
    '@bullswarm/connectors'
  );
  let resolved: Awaited<ReturnType<typeof resolveConnectorEntry>>;
  try {
    resolved = await resolveConnectorEntry(what, context.io.cwd);
  } catch (error) {
    if (!ConnectorLoadError.isInstance(error)) throw error;
    throw new CliUsageError({
      message: `<package-or-path> ${error.message}`,
      flag: '<package-or-path>',
      expected:
        'an installed package named bullswarm-connector-* (resolved from the current directory), the path to its directory, or the path to a connector.json',
    });
  }
  const home = await openCliHome(context);
  const { entry, connector } = resolved;
  const others = home.readState().config.connectors.filter((existing) => !sameEntry(existing, entry));
  // Two configured connectors with one id are ambiguous (both would be dropped): refuse here.
  const loadedOthers = await loadConfiguredConnectors(others, context.io.cwd);
  const clash = loadedOthers.connectors.find(
    (loaded) => loaded.connector.connectorId === connector.connectorId,
  );
  if (clash) {
    throw new CliUsageError({
      message: `<package-or-path> "${what}" is connector "${connector.connectorId}", which configured connector "${clash.source}" already provides: remove that one first (bullswarm connectors remove ${clash.source})`,
      flag: '<package-or-path>',
    });
  }
  let replaced = false;
  home.updateState((state) => {
    const index = state.config.connectors.findIndex((existing) => sameEntry(existing, entry));
    if (index === -1) state.config.connectors.push(entry);
    else {
      state.config.connectors[index] = entry;
      replaced = true;
    }
  });
  const { name, location } = describeEntry(entry);
  if (options.json) {
    printJson(context, { entry, connectorId: connector.connectorId, replaced });
    return;
  }
  context.io.out(
    `${replaced ? 'updated' : 'added'} connector "${connector.connectorId}" (${connector.displayName}) from ${name}${location !== null && location !== name ? ` at ${location}` : ''}\n` +
      `next: bullswarm pools add ${connector.connectorId}\n`,
  );
}

/**
 * `bullswarm connectors remove <entry> [--json]`: by the connector id it provides (as `connectors
 * list` prints first), package name, stored string, or path (a folder holding a connector.json
 * names that file, as `connectors add` accepts it).
 */
export async function connectorsRemoveCommand(
  context: CommandContext,
  what: string,
  options: { json?: boolean } = {},
): Promise<void> {
  const home = await openCliHome(context);
  const asPath = resolve(context.io.cwd, what);
  const asManifest = join(asPath, 'connector.json');
  const configured = home.readState().config.connectors;
  // The connector id each entry provides (loaded only when the argument could be an id).
  const ids = new Map<ConfiguredConnectorEntry, string | null>();
  if (!what.includes('/')) {
    const { loadConfiguredConnectors } = await import('@bullswarm/connectors');
    for (const entry of configured) {
      const { connectors } = await loadConfiguredConnectors([entry], context.io.cwd);
      ids.set(entry, connectors[0]?.connector.connectorId ?? null);
    }
  }
  const matches = (entry: ConfiguredConnectorEntry) => {
    const { name, location } = describeEntry(entry);
    const stored = typeof entry === 'string' ? resolve(context.io.cwd, entry) : undefined;
    return (
      name === what ||
      location === asPath ||
      location === asManifest ||
      stored === asPath ||
      stored === asManifest ||
      ids.get(entry) === what
    );
  };
  if (!configured.some(matches)) {
    const known = configured.map((entry) => describeEntry(entry).name);
    throw new CliUsageError({
      message: `<entry> "${what}" is not a configured connector: ${known.length === 0 ? 'none are configured' : `configured: ${known.join(', ')}`}`,
      flag: '<entry>',
      expected: known.join(', '),
    });
  }
  const removed = configured.filter(matches);
  home.updateState((state) => {
    state.config.connectors = state.config.connectors.filter(
      (entry) => !removed.some((gone) => sameEntry(gone, entry)),
    );
  });
  if (options.json) {
    printJson(context, { removed });
    return;
  }
  context.io.out(
    `removed connector ${what} (pools that use it stay; they show "not installed" until it is added again)\n`,
  );
}

/** `bullswarm connectors list [--json]`: each configured entry and whether it loads. */
export async function connectorsListCommand(
  context: CommandContext,
  options: { json?: boolean },
): Promise<void> {
  const { loadConfiguredConnectors } = await import('@bullswarm/connectors');
  const home = await openCliHome(context);
  const entries = home.readState().config.connectors;
  const rows = [];
  for (const entry of entries) {
    const { connectors, errors } = await loadConfiguredConnectors([entry], context.io.cwd);
    const { name, location } = describeEntry(entry);
    rows.push({
      entry,
      name,
      location,
      connectorId: connectors[0]?.connector.connectorId ?? null,
      // (The loader names the entry `connectors[0] "<name>"`: one entry is loaded at a time here.)
      error: errors[0] === undefined ? null : errors[0].message.replace(/^connectors\[0\] "[^"]*": /, ''),
    });
  }
  if (options.json) {
    printJson(context, { connectors: rows });
    return;
  }
  if (rows.length === 0) {
    context.io.out(
      'no connector packages configured (the built-in connectors need none): add one with `bullswarm connectors add <package-or-path>`\n',
    );
    return;
  }
  for (const row of rows) {
    const where = row.location !== null && row.location !== row.name ? `  ${row.location}` : '';
    context.io.out(
      row.connectorId !== null
        ? `${row.connectorId}  ${row.name}${where}\n`
        : `${context.colors.yellow('not loaded')}  ${row.name}${where}: ${row.error}\n`,
    );
  }
}
