import { StoreMigrationError } from '../errors/store-migration-error';
import { checkMigrationSets, type StoreMigration, type StoreMigrations } from '../sqlite/migrations';
import { isConflictError, isConnectionError } from './postgres/pg-errors';
import type { SqlEngine, SqlSession } from './sql-session';

/** The migration state of one namespace. */
export interface NamespaceStatus {
  readonly namespace: string;
  /** The highest version applied in the database (0: none). */
  readonly applied: number;
  /** The versions this bullswarm knows (undefined: a namespace no registered package knows). */
  readonly known: number | undefined;
  /** Known steps not applied yet. */
  readonly pending: number;
  /** The database is past what this bullswarm knows (a newer bullswarm migrated it; accepted). */
  readonly ahead: boolean;
}

/** What `bullswarm store status` shows. */
export interface MigrationStatus {
  readonly engine: 'sqlite' | 'postgres';
  /** The SQLite file or the Postgres URL without its password. */
  readonly location: string;
  /** This machine's host id in the store. */
  readonly hostId: string;
  /** Registered namespaces first (in registration order), then any others the database has. */
  readonly namespaces: readonly NamespaceStatus[];
  /** Pending steps over all namespaces. */
  readonly pending: number;
}

/** One step applied by a migrate. */
export interface AppliedMigration {
  readonly namespace: string;
  readonly version: number;
}

/** The highest applied version per namespace (empty when the tracking table does not exist yet). */
export async function readAppliedVersions(session: SqlSession): Promise<Map<string, number>> {
  const exists =
    session.dialect.engine === 'sqlite'
      ? await session.get(
          "SELECT 1 AS yes FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'",
        )
      : await session.get("SELECT 1 AS yes WHERE to_regclass('schema_migrations') IS NOT NULL");
  if (exists === undefined) return new Map();
  const rows = await session.query<{ namespace: string; version: number }>(
    'SELECT namespace, MAX(version) AS version FROM schema_migrations GROUP BY namespace',
  );
  return new Map(rows.map((row) => [row.namespace, Number(row.version)]));
}

/** The status of `sets` against the applied versions. */
export function namespaceStatuses(
  applied: ReadonlyMap<string, number>,
  sets: readonly StoreMigrations[],
): NamespaceStatus[] {
  const out: NamespaceStatus[] = sets.map((set) => {
    const version = applied.get(set.namespace) ?? 0;
    const known = set.migrations.length;
    return {
      namespace: set.namespace,
      applied: version,
      known,
      pending: Math.max(0, known - version),
      ahead: version > known,
    };
  });
  const registered = new Set(sets.map((set) => set.namespace));
  for (const [namespace, version] of [...applied].sort(([a], [b]) => a.localeCompare(b))) {
    if (!registered.has(namespace))
      out.push({ namespace, applied: version, known: undefined, pending: 0, ahead: false });
  }
  return out;
}

const postgresTrackingTable = `CREATE TABLE IF NOT EXISTS schema_migrations (
  namespace TEXT NOT NULL,
  version INTEGER NOT NULL,
  applied_at BIGINT NOT NULL,
  PRIMARY KEY (namespace, version)
)`;

/** The advisory lock every Postgres migration takes (one migrator at a time across all hosts). */
export const MIGRATION_LOCK = 'store.migrations';

/** A step's Postgres SQL, or a `StoreMigrationError` for a SQLite-only function step. */
function postgresSql(location: string, namespace: string, version: number, step: StoreMigration): string {
  if (typeof step === 'string') return step;
  if (typeof step === 'object') return step.postgres;
  throw new StoreMigrationError({
    dbPath: location,
    namespace,
    version,
    problem:
      'this step is a function of the SQLite database; a Postgres store needs { sqlite, postgres } SQL',
  });
}

/**
 * Applies every pending step of `sets` to a Postgres store, each exactly once across all hosts:
 * one transaction takes the advisory lock `store.migrations` (`pg_advisory_lock`, before its snapshot) and then
 * reads the applied versions, so a second migrator waits, then finds nothing left to do. A failing
 * step rolls the whole batch back (`StoreMigrationError`). A database ahead of a namespace's known
 * steps is accepted (migrations are additive). Returns the steps applied.
 */
export async function applyPostgresMigrations(
  engine: SqlEngine,
  sets: readonly StoreMigrations[],
): Promise<AppliedMigration[]> {
  checkMigrationSets(engine.location, sets);
  sets.forEach((set) => {
    set.migrations.forEach((step, index) => {
      postgresSql(engine.location, set.namespace, index + 1, step);
    });
  });
  const pending = (versions: Map<string, number>) =>
    sets.some((set) => (versions.get(set.namespace) ?? 0) < set.migrations.length);
  if (!pending(await readAppliedVersions(engine))) return [];
  return engine.transaction(
    async (tx) => {
      await engine.execScript(postgresTrackingTable, tx);
      const versions = await readAppliedVersions(tx);
      const applied: AppliedMigration[] = [];
      for (const set of sets) {
        const from = versions.get(set.namespace) ?? 0;
        for (let version = from + 1; version <= set.migrations.length; version++) {
          const sql = postgresSql(engine.location, set.namespace, version, set.migrations[version - 1]!);
          try {
            await engine.execScript(sql, tx);
          } catch (error) {
            // A conflict or a lost connection re-runs the whole batch (the transaction's own retry).
            if (isConflictError(error) || isConnectionError(error)) throw error;
            throw new StoreMigrationError({
              dbPath: engine.location,
              namespace: set.namespace,
              version,
              problem: (error as Error).message,
              cause: error,
            });
          }
          await tx.exec('INSERT INTO schema_migrations (namespace, version, applied_at) VALUES (?, ?, ?)', [
            set.namespace,
            version,
            Date.now(),
          ]);
          applied.push({ namespace: set.namespace, version });
        }
      }
      return applied;
    },
    { lock: MIGRATION_LOCK, operation: 'migrations.apply' },
  );
}
