import type { Redactor } from '@bullswarm/connectors/redact';
import type { EmbeddedBullswarmStore } from '@bullswarm/store';
import type { SwarmSettings } from '../settings/swarm-env';

/** The raw database handle of the store. */
export type SwarmDatabase = EmbeddedBullswarmStore['database'];

/** What every swarm book works with: the shared store, the clock, the swarm clocks and this host. */
export interface SwarmContext {
  readonly store: EmbeddedBullswarmStore;
  readonly db: SwarmDatabase;
  /** Epoch ms; honours `BULLSWARM_NOW` when created from the environment. */
  readonly clock: () => number;
  readonly settings: SwarmSettings;
  /** This machine's name (agents on other hosts are judged by heartbeat alone). */
  readonly host: string;
  /**
   * What free text passes through before it is stored or journalled (notice and escalation text,
   * answers, journal entries): token shapes and credential values become `[redacted <kind>]`.
   */
  readonly redact: Redactor;
  /** A write transaction (`BEGIN IMMEDIATE`, retried on busy): every compare-and-set runs in one. */
  tx<T>(fn: () => T): T;
}

/** Parses a JSON array of strings stored in a column. */
export function parseList(text: string | null | undefined): string[] {
  if (!text) return [];
  const value = JSON.parse(text) as unknown;
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
