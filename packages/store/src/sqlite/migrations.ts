import type Database from 'better-sqlite3';
import { StoreMigrationError } from '../errors/store-migration-error';
import type { BusyRunner } from './busy-retry';

/**
 * A step whose SQL differs by engine (column types, generated ids). `sqlite` is what the embedded
 * store runs (SQL or a function of the database), `postgres` what a Postgres store runs; both
 * must leave the same tables, columns and indexes, so version `n` means one schema everywhere.
 */
export interface DialectMigration {
  readonly sqlite: string | ((database: Database.Database) => void);
  readonly postgres: string;
}

/**
 * One migration step: portable SQL (may hold several statements; see the rules in
 * `engine/sql-session.ts`), a {@link DialectMigration}, or a function for what SQL cannot say
 * (SQLite only: a namespace with one cannot be applied to a Postgres store).
 */
export type StoreMigration = string | ((database: Database.Database) => void) | DialectMigration;

/**
 * Migrations a package registers with the store. Version `n` of a namespace is
 * `migrations[n - 1]`; the list is append-only: never edit or remove a released step, add a new one.
 *
 * @example
 * ```ts
 * const swarmMigrations: StoreMigrations = {
 *   namespace: 'swarm',
 *   migrations: ['CREATE TABLE swarm_leases (id TEXT PRIMARY KEY, holder TEXT NOT NULL, expires_at INTEGER NOT NULL)'],
 * };
 * const store = openStore({ dbPath, migrations: [swarmMigrations] });
 * ```
 */
export interface StoreMigrations {
  /** Who owns these tables: lowercase letters, digits, `-`, `_`, `.`, `/` or `@` (e.g. `swarm`). */
  readonly namespace: string;
  readonly migrations: readonly StoreMigration[];
}

const NAMESPACE_PATTERN = /^[a-z0-9@][a-z0-9@/._-]*$/;

/** Whether a step is something the runner can apply (non-empty SQL, a function, or both dialects). */
function isWellFormedStep(step: unknown): boolean {
  const sql = (text: unknown) => typeof text === 'string' && text.trim() !== '';
  if (typeof step === 'function' || sql(step)) return true;
  if (typeof step !== 'object' || step === null) return false;
  const { sqlite, postgres } = step as Partial<DialectMigration>;
  return (typeof sqlite === 'function' || sql(sqlite)) && sql(postgres);
}

/**
 * Checks registrations before anything is applied: the namespace's form, no namespace twice,
 * every step well formed. Shared by the SQLite and the Postgres runner.
 * @throws StoreMigrationError
 */
export function checkMigrationSets(location: string, sets: readonly StoreMigrations[]): void {
  const seen = new Set<string>();
  for (const set of sets) {
    if (typeof set.namespace !== 'string' || !NAMESPACE_PATTERN.test(set.namespace)) {
      throw new StoreMigrationError({
        dbPath: location,
        namespace: String(set.namespace),
        problem: 'the namespace must be lowercase letters, digits, "-", "_", ".", "/" or "@", e.g. "swarm"',
      });
    }
    if (seen.has(set.namespace)) {
      throw new StoreMigrationError({
        dbPath: location,
        namespace: set.namespace,
        problem: 'registered twice',
      });
    }
    seen.add(set.namespace);
    set.migrations.forEach((step, index) => {
      if (!isWellFormedStep(step)) {
        throw new StoreMigrationError({
          dbPath: location,
          namespace: set.namespace,
          version: index + 1,
          problem:
            'a migration must be non-empty SQL, a function of the database, or { sqlite, postgres } with both non-empty',
        });
      }
    });
  }
}

/** Runs one step on the SQLite database. */
function runSqliteStep(db: Database.Database, step: StoreMigration): void {
  const sqlite = typeof step === 'object' ? step.sqlite : step;
  if (typeof sqlite === 'function') sqlite(db);
  else db.exec(sqlite);
}

const createTrackingTable = `CREATE TABLE IF NOT EXISTS schema_migrations (
  namespace TEXT NOT NULL,
  version INTEGER NOT NULL,
  applied_at INTEGER NOT NULL,
  PRIMARY KEY (namespace, version)
) WITHOUT ROWID`;

/** The highest applied version per namespace (empty when nothing was ever applied). */
export function appliedVersions(db: Database.Database): Map<string, number> {
  const exists = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
    .get();
  if (exists === undefined) return new Map();
  const rows = db
    .prepare('SELECT namespace, MAX(version) AS version FROM schema_migrations GROUP BY namespace')
    .all() as { namespace: string; version: number }[];
  return new Map(rows.map((row) => [row.namespace, row.version]));
}

/**
 * Apply every pending migration of `sets`, each exactly once across all processes: pending steps
 * run inside one `BEGIN IMMEDIATE` transaction (so concurrent openers serialise, and the second
 * finds nothing left to do), each recorded in `schema_migrations(namespace, version)`. A failing
 * step rolls the whole transaction back and throws {@link StoreMigrationError}.
 *
 * A database already past a namespace's known steps (written by a newer bullswarm) is accepted:
 * migrations are additive, so an older version keeps working on a newer schema.
 *
 * `PRAGMA user_version` mirrors the version of `userVersionNamespace` (the store's own tables), so
 * external tools can read the core schema version without knowing the tracking table.
 */
export function applyMigrations(
  db: Database.Database,
  runner: BusyRunner,
  dbPath: string,
  sets: readonly StoreMigrations[],
  userVersionNamespace: string,
): void {
  checkMigrationSets(dbPath, sets);
  const pending = (versions: Map<string, number>) =>
    sets.some((set) => (versions.get(set.namespace) ?? 0) < set.migrations.length);
  if (!pending(runner.read('migrations.check', () => appliedVersions(db)))) return;

  runner.write('migrations.apply', () => {
    db.exec(createTrackingTable);
    const versions = appliedVersions(db);
    const record = db.prepare(
      'INSERT INTO schema_migrations (namespace, version, applied_at) VALUES (?, ?, ?)',
    );
    for (const set of sets) {
      const from = versions.get(set.namespace) ?? 0;
      for (let version = from + 1; version <= set.migrations.length; version++) {
        const step = set.migrations[version - 1] as StoreMigration;
        try {
          runSqliteStep(db, step);
        } catch (error) {
          throw new StoreMigrationError({
            dbPath,
            namespace: set.namespace,
            version,
            problem: (error as Error).message,
            cause: error,
          });
        }
        record.run(set.namespace, version, Date.now());
      }
      if (set.namespace === userVersionNamespace && set.migrations.length > from) {
        db.pragma(`user_version = ${set.migrations.length}`);
      }
    }
  });
}
