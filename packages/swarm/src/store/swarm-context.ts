import type { Redactor } from '@bullswarm/connectors/redact';
import type { AsyncBullswarmStore, SqlSession } from '@bullswarm/store';
import type { SwarmSettings } from '../settings/swarm-env';

/**
 * What every swarm book works with: the shared store (either engine: the home's SQLite file or a
 * Postgres database that several hosts share), the clock, the swarm clocks and this host.
 *
 * Books reach their tables through {@link sql} only, in portable SQL (the rules are in the
 * store's `engine/sql-session.ts`). A call on {@link sql} made inside {@link tx}'s callback joins
 * that transaction.
 */
export interface SwarmContext {
  readonly store: AsyncBullswarmStore;
  /** The store's SQL layer (`store.sql`). */
  readonly sql: SqlSession;
  /** Epoch ms; honours `BULLSWARM_NOW` when created from the environment. */
  readonly clock: () => number;
  readonly settings: SwarmSettings;
  /**
   * This machine's id in the store (`store.hostId`): agents and leases recorded by this host are
   * judged by their process too; those of any other host by their heartbeat alone.
   */
  readonly host: string;
  /**
   * What free text passes through before it is stored or journalled (notice and escalation text,
   * answers, journal entries): token shapes and credential values become `[redacted <kind>]`.
   */
  readonly redact: Redactor;
  /**
   * A write transaction, as if alone (SQLite: `BEGIN IMMEDIATE`, retried on busy; Postgres:
   * `SERIALIZABLE`, re-run after a serialization failure): every compare-and-set runs in one.
   * `fn` touches only the database and may run more than once.
   */
  tx<T>(fn: () => Promise<T>): Promise<T>;
}

/** Parses a JSON array of strings stored in a column. */
export function parseList(text: string | null | undefined): string[] {
  if (!text) return [];
  const value = JSON.parse(text) as unknown;
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
