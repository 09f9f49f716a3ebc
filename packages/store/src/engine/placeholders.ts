import { StoreInputError } from '../errors/store-input-error';
import { bindValue, type SqlParams, type SqlValue } from './sql-session';

/** A statement in Postgres's placeholder style, and how to order the caller's parameters for it. */
interface PostgresStatement {
  readonly text: string;
  /** Positional statements: how many `?`; named ones: the names, in `$n` order. */
  readonly positional: number;
  readonly names: readonly string[];
}

const cache = new Map<string, PostgresStatement>();
const CACHE_LIMIT = 2000;

/**
 * Rewrites `?` and `@name` placeholders as `$1…$n` (a name used twice is one `$n`), skipping
 * string literals (`'…'`), quoted names (`"…"`), comments and `::` casts. Results are cached by
 * statement text.
 */
export function toPostgresStatement(sql: string): PostgresStatement {
  const hit = cache.get(sql);
  if (hit !== undefined) return hit;
  let text = '';
  let positional = 0;
  const names: string[] = [];
  let i = 0;
  while (i < sql.length) {
    const char = sql[i] as string;
    if (char === "'" || char === '"') {
      const end = sql.indexOf(char, i + 1);
      const stop = end === -1 ? sql.length : end + 1;
      text += sql.slice(i, stop);
      i = stop;
    } else if (char === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      const stop = end === -1 ? sql.length : end;
      text += sql.slice(i, stop);
      i = stop;
    } else if (char === '?') {
      positional++;
      text += `$${positional}`;
      i++;
    } else if (char === '@' && /[A-Za-z_]/.test(sql[i + 1] ?? '')) {
      let end = i + 1;
      while (end < sql.length && /[A-Za-z0-9_]/.test(sql[end] as string)) end++;
      const name = sql.slice(i + 1, end);
      let index = names.indexOf(name);
      if (index === -1) index = names.push(name) - 1;
      text += `$${index + 1}`;
      i = end;
    } else {
      text += char;
      i++;
    }
  }
  if (positional > 0 && names.length > 0) {
    throw new StoreInputError({
      operation: 'sql',
      field: 'sql',
      expected: 'either ? or @name placeholders in one statement, not both',
      value: sql,
    });
  }
  const statement = { text, positional, names };
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(sql, statement);
  return statement;
}

/** The parameter list of a Postgres statement, from the caller's array or object. */
export function postgresValues(statement: PostgresStatement, sql: string, params?: SqlParams): unknown[] {
  if (params === undefined) return [];
  if (Array.isArray(params)) return (params as readonly SqlValue[]).map(bindValue);
  const named = params as Readonly<Record<string, SqlValue>>;
  return statement.names.map((name) => {
    if (!(name in named)) {
      throw new StoreInputError({
        operation: 'sql',
        field: `@${name}`,
        expected: 'a value for every named placeholder',
        value: sql,
      });
    }
    return bindValue(named[name] as SqlValue);
  });
}

/** Parameters for better-sqlite3: booleans as 1/0, objects and arrays kept as they are. */
export function sqliteValues(params?: SqlParams): unknown[] {
  if (params === undefined) return [];
  if (Array.isArray(params)) return (params as readonly SqlValue[]).map(bindValue);
  const named: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params as Readonly<Record<string, SqlValue>>))
    named[key] = bindValue(value);
  return [named];
}
