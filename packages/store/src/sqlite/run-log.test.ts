import { join } from 'node:path';
import type { RunSample } from '@bullswarm/pacing';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { StoreInputError } from '../errors/store-input-error';
import type { RunRecord } from '../store-types';
import { useTempDirs } from '../test-support/temp-dir';
import { type EmbeddedBullswarmStore, openStore } from './open-store';
import { RUN_OUTCOMES } from './validate-input';

const tempDir = useTempDirs();
let store: EmbeddedBullswarmStore | undefined;
afterEach(() => store?.close());

function run(
  id: string,
  poolId: string,
  tier: string,
  startedAt: number,
  extra: Partial<RunRecord> = {},
): RunRecord {
  return {
    id,
    poolId,
    tier,
    lane: 'build',
    action: `action-${id}`,
    startedAt,
    endedAt: startedAt + 60_000,
    stalled: false,
    outcome: 'ok',
    workerMinutes: 1,
    ...extra,
  };
}

describe('run log', () => {
  it('lists newest first with pool, tier, since and limit filters', () => {
    store = openStore({ dbPath: join(tempDir(), 'bullswarm.db') });
    const runs = [
      run('a', 'codex', 'high', 100),
      run('b', 'codex', 'medium', 300),
      run('c', 'grok', 'high', 200),
      run('d', 'codex', 'high', 400, {
        stalled: true,
        outcome: 'stalled',
        model: 'gpt-5',
        failureKind: 'stall',
      }),
      run('e', 'codex', 'high', 400),
    ];
    for (const r of runs) store.runs.append(r);
    const ids = (filter?: Parameters<EmbeddedBullswarmStore['runs']['list']>[0]) =>
      store?.runs.list(filter).map((r) => r.id);
    // equal start times: the later append first
    expect(ids()).toEqual(['e', 'd', 'b', 'c', 'a']);
    expect(ids({ poolId: 'codex' })).toEqual(['e', 'd', 'b', 'a']);
    expect(ids({ poolId: 'codex', tier: 'high' })).toEqual(['e', 'd', 'a']);
    expect(ids({ tier: 'high', since: 200 })).toEqual(['e', 'd', 'c']);
    expect(ids({ poolId: 'codex', tier: 'high', limit: 2 })).toEqual(['e', 'd']);
    expect(store.runs.list({ poolId: 'codex', tier: 'high', since: 400 })[1]).toEqual(runs[3]);
    expect(store.runs.list({ poolId: 'nobody' })).toEqual([]);
  });

  it('replaces a run appended twice with the same id', () => {
    store = openStore({ dbPath: join(tempDir(), 'bullswarm.db') });
    store.runs.append(run('a', 'codex', 'high', 100, { outcome: 'failed' }));
    store.runs.append(run('a', 'codex', 'high', 100, { outcome: 'ok' }));
    expect(store.runs.list()).toEqual([run('a', 'codex', 'high', 100, { outcome: 'ok' })]);
  });

  it("accepts exactly the outcomes of pacing's RunSample", () => {
    expectTypeOf<(typeof RUN_OUTCOMES)[number]>().toEqualTypeOf<RunSample['outcome']>();
    const opened = openStore({ dbPath: join(tempDir(), 'bullswarm.db') });
    store = opened;
    for (const [i, outcome] of RUN_OUTCOMES.entries()) {
      opened.runs.append(run(`r${i}`, 'codex', 'high', i, { outcome }));
    }
    expect(opened.runs.list().map((r) => r.outcome)).toEqual([...RUN_OUTCOMES].reverse());
  });

  it('refuses malformed runs and filters, naming the field', () => {
    store = openStore({ dbPath: join(tempDir(), 'bullswarm.db') });
    const s = store;
    const fieldOf = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return StoreInputError.isInstance(error) ? error.field : 'not a StoreInputError';
      }
      return 'no error';
    };
    expect(fieldOf(() => s.runs.append({ ...run('a', 'codex', 'high', 1), outcome: 'great' as never }))).toBe(
      'outcome',
    );
    expect(
      fieldOf(() => s.runs.append({ ...run('a', 'codex', 'high', 1), endedAt: Number.POSITIVE_INFINITY })),
    ).toBe('endedAt');
    expect(fieldOf(() => s.runs.append({ ...run('a', 'codex', 'high', 1), stalled: 'no' as never }))).toBe(
      'stalled',
    );
    expect(fieldOf(() => s.runs.list({ limit: 0 }))).toBe('limit');
    expect(s.runs.list()).toEqual([]);
  });

  it('answers filtered queries from an index', () => {
    const opened = openStore({ dbPath: join(tempDir(), 'bullswarm.db') });
    store = opened;
    const plan = (sql: string) =>
      (opened.database.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[])
        .map((r) => r.detail)
        .join(' | ');
    expect(
      plan(
        "SELECT * FROM runs WHERE pool = 'a' AND tier = 'b' AND started_at >= 0 ORDER BY started_at DESC, rowid DESC",
      ),
    ).toMatch(/USING INDEX runs_pool_tier_started/);
    expect(plan("SELECT * FROM runs WHERE pool = 'a' ORDER BY started_at DESC, rowid DESC")).toMatch(
      /USING INDEX runs_pool_started/,
    );
  });
});
