import { randomBytes } from 'node:crypto';
import type { SqlSession } from '../engine/sql-session';
import { isLocalHost, judgeHolder } from '../hosts/liveness';
import { requireString } from '../sqlite/validate-input';
import type { ClaimBook, ClaimHolder, ClaimOutcome } from './async-store-types';
import type { BookContext } from './book-context';

interface ClaimRow {
  scope: string;
  name: string;
  host: string;
  pid: number;
  pid_start_time: string | null;
  token: string;
  claimed_at: number;
  heartbeat_at: number;
}

/**
 * Ownership claims over the SQL layer (table `store_claims`, both engines). A claim is one
 * transaction: read the row, judge its holder (pid and start time on this host, heartbeat age
 * elsewhere), and take it over only when that holder is gone — so two processes, or two hosts,
 * racing for one name leave exactly one owner (SQLite: `BEGIN IMMEDIATE`; Postgres: `SERIALIZABLE`,
 * the loser re-runs and finds the winner). Held claims are renewed by the store's heartbeat.
 */
export class ClaimRegistry implements ClaimBook {
  constructor(
    private readonly sql: SqlSession,
    private readonly context: BookContext,
  ) {}

  async claim(scope: string, name: string): Promise<ClaimOutcome> {
    const op = 'claims.claim';
    requireString(op, 'scope', scope);
    requireString(op, 'name', name);
    const rules = this.context.rules;
    const token = randomBytes(8).toString('hex');
    const startTime = this.context.startTimeOf(process.pid) ?? null;
    const outcome = await this.sql.transaction(
      async (tx): Promise<ClaimHolder | ClaimRow> => {
        const row = await tx.get<ClaimRow>('SELECT * FROM store_claims WHERE scope = ? AND name = ?', [
          scope,
          name,
        ]);
        const now = rules.now();
        if (row !== undefined && this.verdict(row, now) === 'alive') return this.toHolder(row);
        const mine: ClaimRow = {
          scope,
          name,
          host: rules.hostId,
          pid: process.pid,
          pid_start_time: startTime,
          token,
          claimed_at: now,
          heartbeat_at: now,
        };
        await tx.exec(
          `INSERT INTO store_claims (scope, name, host, pid, pid_start_time, token, claimed_at, heartbeat_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (scope, name) DO UPDATE SET host = excluded.host, pid = excluded.pid,
             pid_start_time = excluded.pid_start_time, token = excluded.token,
             claimed_at = excluded.claimed_at, heartbeat_at = excluded.heartbeat_at`,
          [scope, name, mine.host, mine.pid, mine.pid_start_time, token, now, now],
        );
        return mine;
      },
      { operation: op },
    );
    if (!('token' in outcome)) return { claimed: false, holder: outcome };
    const key = `claim:${scope}/${name}`;
    this.context.heartbeat.hold(key);
    let released = false;
    return {
      claimed: true,
      claim: {
        holder: this.toHolder(outcome),
        release: async () => {
          if (released) return false;
          released = true;
          this.context.heartbeat.drop(key);
          const result = await this.sql.exec(
            'DELETE FROM store_claims WHERE scope = ? AND name = ? AND token = ?',
            [scope, name, token],
            { idempotent: true },
          );
          return result.changes > 0;
        },
      },
    };
  }

  async holder(scope: string, name: string): Promise<ClaimHolder | undefined> {
    const row = await this.sql.get<ClaimRow>('SELECT * FROM store_claims WHERE scope = ? AND name = ?', [
      scope,
      name,
    ]);
    if (row === undefined || this.verdict(row, this.context.rules.now()) !== 'alive') return undefined;
    return this.toHolder(row);
  }

  async renew(): Promise<number> {
    const rules = this.context.rules;
    const result = await this.sql.exec(
      'UPDATE store_claims SET heartbeat_at = ? WHERE host = ? AND pid = ?',
      [rules.now(), rules.hostId, process.pid],
      { idempotent: true },
    );
    return result.changes;
  }

  private verdict(row: ClaimRow, now: number) {
    return judgeHolder(
      this.context.rules,
      {
        host: row.host,
        pid: row.pid,
        pidStartTime: row.pid_start_time,
        heartbeatAt: row.heartbeat_at,
        since: row.claimed_at,
      },
      now,
    );
  }

  private toHolder(row: ClaimRow): ClaimHolder {
    return {
      scope: row.scope,
      name: row.name,
      host: row.host,
      pid: row.pid,
      claimedAt: row.claimed_at,
      heartbeatAt: row.heartbeat_at,
      local: isLocalHost(this.context.rules, row.host),
    };
  }
}
