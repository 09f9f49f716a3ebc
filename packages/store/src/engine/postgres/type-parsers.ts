import type { CustomTypesConfig } from 'pg';

/** The OIDs of `int8` (BIGINT, COUNT(*)) and `numeric` (SUM, AVG of integers). */
const INT8_OID = 20;
const NUMERIC_OID = 1700;

/** `int8` text as a JavaScript number; past 2^53 it is an error, never a silently rounded value. */
export function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(
      `a BIGINT value ${text} is past JavaScript's safe integers (2^53); the store keeps epoch milliseconds and counts, which never are`,
    );
  }
  return value;
}

/**
 * The type parsers of the store's pool: `int8` and `numeric` come back as numbers (epoch-ms
 * columns are BIGINT), everything else as `pg` parses it. Set on the pool, never globally, so
 * another `pg` user in the same process keeps its own.
 */
export function postgresTypes(types: CustomTypesConfig): CustomTypesConfig {
  return {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
      if (oid === INT8_OID) return parseInt8;
      if (oid === NUMERIC_OID) return (text: string) => Number(text);
      return types.getTypeParser(oid, format as 'text');
    }) as CustomTypesConfig['getTypeParser'],
  };
}
