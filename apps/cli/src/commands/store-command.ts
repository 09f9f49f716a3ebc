import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AppliedMigration, BullswarmHome, NamespaceStatus, StoreMigrations } from '@bullswarm/store';
import { type CommandContext, openCliHome, printJson } from '../cli/command-context';
import { alignColumns } from '../output/align-columns';

/** `bullswarm store status --json`. */
export interface StoreStatusJson {
  readonly engine: 'sqlite' | 'postgres';
  /** The SQLite file, or the Postgres URL without its password. */
  readonly location: string;
  /** Where the choice came from: `BULLSWARM_STORE_URL`, `state.json config.storeUrl`, or `default` (the home's file). */
  readonly source: string;
  /** This machine's id in the store; null while a shared store has none yet (the first write keeps one in `<home>/host-id`). */
  readonly hostId: string | null;
  /** The store's tables exist (false: nothing created yet). */
  readonly exists: boolean;
  readonly namespaces: readonly NamespaceStatus[];
  /** Steps not applied yet, over all namespaces. */
  readonly pending: number;
}

/** `bullswarm store migrate --json`. */
export interface StoreMigrateJson {
  readonly engine: 'sqlite' | 'postgres';
  readonly location: string;
  readonly source: string;
  readonly hostId: string;
  /** The steps this run applied (another process may have applied some first: those are not listed). */
  readonly applied: readonly AppliedMigration[];
  readonly namespaces: readonly NamespaceStatus[];
}

/** Every package's tables in the store, besides the store's own (what status shows and migrate applies). */
async function knownMigrations(): Promise<StoreMigrations[]> {
  const { workflowMigrations } = await import('@bullswarm/workflow');
  return [workflowMigrations];
}

/** The home's store target, and where it came from. */
async function targetOf(context: CommandContext, home: BullswarmHome) {
  const { homeStoreTarget } = await import('@bullswarm/store');
  const target = homeStoreTarget(home, context.io.env);
  return {
    target,
    location:
      target.engine === 'sqlite'
        ? target.dbPath
        : (await import('@bullswarm/store')).redactStoreUrl(target.url),
    source: target.engine === 'sqlite' ? 'default' : target.source,
  };
}

/** The host id the store records for this machine (`<home>/host-id`), without creating one: null before the first write. */
async function currentHostId(context: CommandContext, home: BullswarmHome): Promise<string | null> {
  const { BULLSWARM_HOST_ID, HOST_ID_FILE, resolveHostId } = await import('@bullswarm/store');
  const given = context.io.env[BULLSWARM_HOST_ID];
  if ((given === undefined || given === '') && !existsSync(join(home.home, HOST_ID_FILE))) return null;
  return resolveHostId({ home: home.home, env: context.io.env, create: false });
}

/**
 * `bullswarm store status [--json]`: which store the home uses (the local file, or the Postgres URL
 * without its password and where it was set), this machine's host id, and the schema version of
 * every namespace against what this bullswarm knows. Applies and creates nothing; a Postgres server
 * that cannot be reached is exit 1 naming the URL.
 */
export async function storeStatusCommand(
  context: CommandContext,
  options: { json?: boolean },
): Promise<void> {
  const home = await openCliHome(context);
  const { openHomeStoreIfExists, STORE_NAMESPACE } = await import('@bullswarm/store');
  const { target, location, source } = await targetOf(context, home);
  const migrations = await knownMigrations();
  // Opened with no other package's migrations, so nothing of theirs is applied (SQLite brings the
  // store's own tables up to date on every open, as every command does; Postgres applies nothing).
  const store = await openHomeStoreIfExists(home, { env: context.io.env });
  let inDatabase: readonly NamespaceStatus[] = [];
  try {
    if (store !== undefined) inDatabase = (await store.migrationStatus()).namespaces;
  } finally {
    await store?.close();
  }
  const applied = new Map(inDatabase.map((ns) => [ns.namespace, ns.applied]));
  const knownSets = new Set(migrations.map((set) => set.namespace));
  const namespaces: NamespaceStatus[] = [
    ...inDatabase.filter((ns) => !knownSets.has(ns.namespace)),
    ...migrations.map((set) => {
      const version = applied.get(set.namespace) ?? 0;
      const known = set.migrations.length;
      return {
        namespace: set.namespace,
        applied: version,
        known,
        pending: Math.max(0, known - version),
        ahead: version > known,
      };
    }),
  ];
  const json: StoreStatusJson = {
    engine: target.engine,
    location,
    source,
    hostId: await currentHostId(context, home),
    exists: store !== undefined,
    namespaces,
    pending: namespaces.reduce((sum, ns) => sum + ns.pending, 0),
  };
  if (options.json) {
    printJson(context, json);
    return;
  }
  const lines: string[][] = [
    ['store', `${json.location}  (${describeSource(json)})`],
    [
      'host id',
      json.hostId ??
        `none yet (${join(home.home, 'host-id')} is written by the first command that records work)`,
    ],
  ];
  if (!json.exists) {
    lines.push([
      'schema',
      'none yet: the first command that records work creates it, or `bullswarm store migrate`',
    ]);
  } else {
    for (const ns of json.namespaces) {
      const versions =
        ns.known === undefined
          ? `version ${ns.applied} (not known to this bullswarm)`
          : ns.ahead
            ? `version ${ns.applied} (newer than this bullswarm's ${ns.known}: accepted)`
            : ns.pending > 0
              ? `version ${ns.applied} of ${ns.known}: ${ns.pending} pending`
              : `version ${ns.applied}, up to date`;
      lines.push([ns.namespace === STORE_NAMESPACE ? 'schema store' : `schema ${ns.namespace}`, versions]);
    }
  }
  context.io.out(`${alignColumns(lines).join('\n')}\n`);
  if (json.exists && json.pending > 0) {
    context.io.out(
      `${json.pending} step${json.pending === 1 ? '' : 's'} pending: \`bullswarm store migrate\` applies them (so does the first command that needs them)\n`,
    );
  }
}

/**
 * `bullswarm store migrate [--json]`: creates the store (the local file, or the tables in the
 * Postgres database) and applies every pending step of every namespace, once across all processes
 * and hosts (SQLite: one `BEGIN IMMEDIATE`; Postgres: behind an advisory lock), then says what it
 * applied. Nothing pending is success with nothing applied. (SQLite brings the store's own tables
 * up to date whenever the file is opened, so there only other namespaces' steps are listed.)
 */
export async function storeMigrateCommand(
  context: CommandContext,
  options: { json?: boolean },
): Promise<void> {
  const home = await openCliHome(context);
  const { openHomeStore, openHomeStoreIfExists } = await import('@bullswarm/store');
  const { target, location, source } = await targetOf(context, home);
  const migrations = await knownMigrations();
  const before = new Map<string, number>();
  const existing = await openHomeStoreIfExists(home, { env: context.io.env });
  try {
    for (const ns of (await existing?.migrationStatus())?.namespaces ?? [])
      before.set(ns.namespace, ns.applied);
  } finally {
    await existing?.close();
  }
  // Postgres: nothing is applied on open, so migrate() applies every step under the migration
  // lock and returns exactly the ones this process applied (a host migrating at the same time
  // applied the others). SQLite brings the store's own tables up to date when the file is opened:
  // there the steps are what changed since `before`.
  const store = await openHomeStore(home, {
    env: context.io.env,
    migrations,
    ...(target.engine === 'postgres' ? { migrate: 'never' as const } : {}),
  });
  let json: StoreMigrateJson;
  try {
    const own = await store.migrate();
    const after = await store.migrationStatus();
    const applied: AppliedMigration[] = [];
    if (target.engine === 'postgres') applied.push(...own);
    else {
      for (const ns of after.namespaces) {
        for (let version = (before.get(ns.namespace) ?? 0) + 1; version <= ns.applied; version++)
          applied.push({ namespace: ns.namespace, version });
      }
    }
    json = {
      engine: target.engine,
      location,
      source,
      hostId: store.hostId,
      applied,
      namespaces: after.namespaces,
    };
  } finally {
    await store.close();
  }
  if (options.json) {
    printJson(context, json);
    return;
  }
  const versions = json.namespaces.map((ns) => `${ns.namespace} ${ns.applied}`).join(', ');
  if (json.applied.length === 0) {
    context.io.out(`${location} is up to date (${versions}); nothing to apply\n`);
    return;
  }
  const byNamespace = new Map<string, number[]>();
  for (const step of json.applied)
    byNamespace.set(step.namespace, [...(byNamespace.get(step.namespace) ?? []), step.version]);
  const what = [...byNamespace]
    .map(([namespace, steps]) =>
      steps.length === 1 ? `${namespace} ${steps[0]}` : `${namespace} ${steps[0]}–${steps.at(-1)}`,
    )
    .join(', ');
  context.io.out(`applied ${what} to ${location}; now ${versions}\n`);
}

function describeSource(json: Pick<StoreStatusJson, 'engine' | 'source'>): string {
  if (json.engine === 'sqlite') return 'the local file: no BULLSWARM_STORE_URL or config.storeUrl';
  return `shared Postgres, from ${json.source}`;
}
