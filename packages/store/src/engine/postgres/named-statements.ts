import { createHash } from 'node:crypto';
import { errorCode } from './pg-errors';

/** Distinct statement texts one engine names (beyond them, statements are sent unnamed). */
export const NAMED_STATEMENT_LIMIT = 500;

/** A statement as `pg` takes it: named (parsed once per connection) or unnamed. */
export interface PgQuery {
  readonly name?: string;
  readonly text: string;
  readonly values: unknown[];
}

/**
 * Which statements a Postgres engine sends as named prepared statements: `pg` parses a named
 * statement once per connection and afterwards sends only Bind/Execute, so the server skips
 * parsing and planning it on every call (with commits not waiting on the disk, one process's ledger
 * record+release ran about 1.5× as fast: docs/benchmarks.md, the store section).
 *
 * - Only statements with parameters are named: one without stays on the simple protocol, which
 *   also runs several statements in one text.
 * - The name is a hash of the text (`bswm_<24 hex>`), never a counter: a pooler that hands one
 *   server connection to several clients can only ever find the same text under a name.
 * - At most {@link NAMED_STATEMENT_LIMIT} texts are named (statements built with varying text
 *   would otherwise fill every connection's memory on the server).
 * - A statement the server refuses because of its name is sent again unnamed: a plan whose result
 *   columns changed (another host's migration added a column to a `SELECT *`: `0A000`) makes that
 *   text unnamed from then on; a prepared statement the server does not have (`26000`) or already
 *   has (`42P05`) — a pooler that does not keep them per client — stops naming altogether. Such
 *   an error is raised before the statement runs, so sending it again is always safe.
 */
export class NamedStatements {
  private readonly names = new Map<string, string>();
  private readonly unnamed = new Set<string>();
  private enabled = true;

  /** The query for `text` (already in `$n` form) with its values. */
  query(text: string, values: unknown[]): PgQuery {
    const name = values.length === 0 ? undefined : this.nameOf(text);
    return name === undefined ? { text, values } : { name, text, values };
  }

  /**
   * Whether `error` came from `query` being named; if so, that text (or every text) is sent
   * unnamed from now on and the caller may send it again.
   */
  forget(error: unknown, query: PgQuery): boolean {
    if (query.name === undefined) return false;
    const code = errorCode(error);
    if (code === '26000' || code === '42P05') {
      this.enabled = false;
      this.names.clear();
      return true;
    }
    if (
      code === '0A000' &&
      /cached plan must not change result type/.test(String((error as Error).message))
    ) {
      this.names.delete(query.text);
      this.unnamed.add(query.text);
      return true;
    }
    return false;
  }

  private nameOf(text: string): string | undefined {
    if (!this.enabled) return undefined;
    let name = this.names.get(text);
    if (name === undefined) {
      if (this.names.size >= NAMED_STATEMENT_LIMIT || this.unnamed.has(text)) return undefined;
      name = `bswm_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
      this.names.set(text, name);
    }
    return name;
  }
}
