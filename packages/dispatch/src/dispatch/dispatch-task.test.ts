import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SIM_CLI_PATH } from '@bullswarm/connectors';
import { simHomeOf, type TestPool, type TestWindow, writePoolMeter } from '@bullswarm/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { DispatchError } from '../errors/dispatch-error';
import { noPoolKind } from '../route/no-pool-kind';
import { routeTask } from '../route/route-task';
import {
  closeDispatchFixtures,
  createDispatchFixture,
  type DispatchFixture,
  TEST_NOW,
} from '../test-support/dispatch-fixture';
import { dispatchTask } from './dispatch-task';
import type { DispatchEvent, DispatchRequest } from './dispatch-types';

afterEach(closeDispatchFixtures);

const MIN = 60_000;
/** A weekly window half elapsed: pace = 50 − used. */
const weekly = (usedPct: number) => [{ kind: 'weekly' as const, usedPct, resetsInMin: 5040 }];
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

function meterFile(f: DispatchFixture, pool: TestPool): { windows: { kind: string; usedPct: number }[] } {
  return JSON.parse(readFileSync(join(simHomeOf(f.home, pool), 'meter.json'), 'utf8'));
}

/** Rewrites a sim pool's meter file (what its provider would show now). */
function setMeter(f: DispatchFixture, pool: TestPool, windows: readonly TestWindow[]): void {
  writePoolMeter(f.home, { ...pool, windows }, TEST_NOW);
}

/** A workflow-step request during whose attempt the provider's meter of `pool` moves to `windows`. */
function meterMovesDuringAttempt(
  f: DispatchFixture,
  pool: TestPool,
  windows: Parameters<typeof setMeter>[2],
): DispatchRequest {
  const request = f.request({ kind: 'workflow-step' });
  return {
    ...request,
    onEvent: (event) => {
      if (event.type === 'attempt.started') setMeter(f, pool, windows);
      request.onEvent?.(event);
    },
  };
}

const types = (events: readonly DispatchEvent[]) => events.map((event) => event.type);

const SHAPES = [
  { shape: 'Claude (sim)', connector: 'sim', other: 'sim-codex', first: '{"type":"system"' },
  { shape: 'Codex (sim-codex)', connector: 'sim-codex', other: 'sim', first: '{"type":"thread.started"' },
] as const;

describe.each(SHAPES)('dispatchTask end to end, $shape output', ({ connector, other, first }) => {
  const main = (scenario?: unknown, extra: Partial<TestPool> = {}): TestPool => ({
    account: 'a',
    connector,
    windows: weekly(10), // surplus 40: picked first
    ...(scenario === undefined ? {} : { scenario: { default: scenario } }),
    ...extra,
  });
  const spare = (extra: Partial<TestPool> = {}): TestPool => ({
    account: 'b',
    connector: other,
    windows: weekly(30), // surplus 20
    ...extra,
  });
  const mainId = `${connector}:a`;
  const spareId = `${other}:b`;

  it('ok: the answer, the attempt file, a run record, and an empty ledger after', async () => {
    const f = await createDispatchFixture([main('ok'), spare()]);
    const extra = join(f.out, '..', 'docs');
    mkdirSync(extra, { recursive: true });
    const result = await dispatchTask(
      f.runtime,
      f.request({ prompt: 'Explain the parser', addDirs: [extra] }),
    );
    expect(result).toMatchObject({
      ok: true,
      kind: 'ok',
      poolId: mainId,
      model: 'sim/standard',
      answer: 'sim: done: Explain the parser',
      reason: 'most-behind capable pool (surplus 40)',
      throttleBackoffs: 0,
    });
    expect(result.why).toBeUndefined();
    expect(result.attempts).toHaveLength(1);
    const [attempt] = result.attempts;
    expect(attempt).toMatchObject({
      attempt: 1,
      poolId: mainId,
      kind: 'ok',
      willRetry: false,
      stalled: false,
    });
    expect(attempt?.outputFile).toBe(join(f.out, 'out-run-attempt-1'));
    const raw = readFileSync(join(f.out, 'out-run-attempt-1'), 'utf8');
    expect(raw.startsWith(first)).toBe(true);
    expect(raw).toContain('sim: done: Explain the parser');
    expect(existsSync(join(f.out, 'out-run-attempt-1.stderr'))).toBe(true);

    const store = f.store;
    expect(await store.ledger.list()).toEqual([]);
    const runs = await store.runs.list({ poolId: mainId });
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      poolId: mainId,
      tier: 'medium',
      lane: 'analyze',
      action: 'run',
      outcome: 'ok',
      stalled: false,
      model: 'sim/standard',
      startedAt: TEST_NOW,
    });
    expect(runs[0]?.failureKind).toBeUndefined();
    expect(runs[0]?.workerMinutes).toBeGreaterThan(0);

    // The agent ran in the work tree, with the model and BULLSWARM_POOL of its pool.
    const [invocation] = f.simLogLines();
    expect(invocation).toMatchObject({ pool: mainId, cwd: f.work, exitCode: 0, scenario: 'ok' });
    expect(invocation?.argv).toEqual(
      expect.arrayContaining([
        '--model',
        'sim/standard',
        '--cwd',
        f.work,
        '--add-dir',
        extra,
        '-p',
        'Explain the parser',
      ]),
    );
    expect(types(f.events)).toEqual(['route.decided', 'attempt.started', 'attempt.finished']);
    const started = f.events[1] as Extract<DispatchEvent, { type: 'attempt.started' }>;
    expect(started.pid).toBe(invocation?.pid);
  });

  it('usage limit: ends at once, no retry or move; the forced re-read keeps the pool out of the next pick', async () => {
    const f = await createDispatchFixture([main({ scenario: 'usage-limit', resetsInMin: 60 }), spare()]);
    const result = await dispatchTask(f.runtime, f.request({ kind: 'workflow-step' }));
    const reset = TEST_NOW + 60 * MIN;
    expect(result).toMatchObject({ ok: false, kind: 'quota', poolId: mainId, backAt: reset });
    expect(result.why).toMatch(/^usage limit: /);
    expect(result.attempts.map((a) => [a.poolId, a.kind, a.willRetry, a.resetsAt])).toEqual([
      [mainId, 'quota', false, reset],
    ]);
    expect(f.simLogLines()).toHaveLength(1); // nothing retried, nothing moved

    // The sim wrote its window full; the forced re-read put that reading in the cache at once.
    expect(meterFile(f, main()).windows.find((w) => w.kind === 'five_hour')?.usedPct).toBe(100);
    const cache = await f.store.meters.getCache(mainId);
    expect(cache?.source).toBe('file');
    expect(cache?.forceReread).toBeFalsy();
    expect(cache?.windows.find((w) => w.kind === 'five_hour')?.usedPct).toBe(100);

    const next = await routeTask(f.runtime, { lane: 'analyze', tier: 'medium', kind: 'single-run' });
    expect(next.decision.poolId).toBe(spareId);
    expect(next.decision.rejected.find((r) => r.poolId === mainId)?.reason).toBe(
      `at its 5-hour limit until ${iso(reset)}`,
    );
  });

  it('throttle in a single run: recorded, not retried', async () => {
    const f = await createDispatchFixture([main('throttle'), spare()]);
    const result = await dispatchTask(f.runtime, f.request({ kind: 'single-run' }));
    expect(result).toMatchObject({ ok: false, kind: 'throttle', poolId: mainId, throttleBackoffs: 0 });
    expect(result.why).toMatch(/^rate limited: .* · recorded; a single run does not retry a throttle$/);
    // The CLI's own retry delay (Claude's api_retry retry_delay_ms) is not a wait the provider
    // named: no back-at, and the why quotes the final result, not the retry line.
    expect(result.backAt).toBeUndefined();
    expect(result.why).not.toContain('API retry');
    expect(result.attempts).toHaveLength(1);
    expect(f.simLogLines()).toHaveLength(1);
    expect((await f.store.runs.list())[0]).toMatchObject({
      outcome: 'throttle',
      failureKind: 'throttle',
    });
  });

  it('throttle in a workflow step: two back-offs on the same pool, then it comes back', async () => {
    const f = await createDispatchFixture([main('throttle'), spare()], {
      BULLSWARM_THROTTLE_BACKOFF_SEC: '0.2,0.4',
    });
    const result = await dispatchTask(f.runtime, f.request({ kind: 'workflow-step' }));
    expect(result).toMatchObject({ ok: false, kind: 'throttle', poolId: mainId, throttleBackoffs: 2 });
    expect(result.why).toMatch(/ · came back after 2 back-offs on .*:a$/);
    expect(result.attempts.map((a) => [a.attempt, a.poolId, a.kind, a.willRetry])).toEqual([
      [1, mainId, 'throttle', true],
      [2, mainId, 'throttle', true],
      [3, mainId, 'throttle', false],
    ]);
    const backoffs = f.events.filter((e) => e.type === 'throttle.backoff');
    expect(backoffs.map((e) => [e.poolId, e.waitMs, e.backoff])).toEqual([
      [mainId, 200, 1],
      [mainId, 400, 2],
    ]);
    expect(result.attempts[1]?.reason).toBe(
      `back-off 1 of 2 on ${mainId} after throttle (waited 0.2s) · most-behind capable pool (surplus 40)`,
    );
    // It never moved: the spare pool was never run.
    expect(f.simLogLines().map((line) => line.pool)).toEqual([mainId, mainId, mainId]);
  });

  it('throttle naming a wait over 2 minutes comes back at once with back at the end of the wait', async () => {
    const f = await createDispatchFixture([main({ scenario: 'throttle', waitSec: 300 }), spare()]);
    const result = await dispatchTask(f.runtime, f.request({ kind: 'workflow-step' }));
    expect(result).toMatchObject({ kind: 'throttle', throttleBackoffs: 0, backAt: TEST_NOW + 300_000 });
    expect(result.why).toContain(
      `the provider named a wait of 5 min (over 2 min): back at ${iso(TEST_NOW + 300_000)}`,
    );
    expect(result.attempts).toHaveLength(1);
    expect(f.events.some((e) => e.type === 'throttle.backoff')).toBe(false);
  });

  it('a throttle on a pool that became nearly spent comes back instead of backing off or moving', async () => {
    const f = await createDispatchFixture([main('throttle'), spare()], {
      BULLSWARM_THROTTLE_BACKOFF_SEC: '0.1',
    });
    // While the attempt runs, the provider's meter moves to 97% of the week at 50% elapsed.
    const result = await dispatchTask(
      f.runtime,
      meterMovesDuringAttempt(f, main(), [{ kind: 'weekly', usedPct: 97, resetsInMin: 5040 }]),
    );
    expect(result).toMatchObject({ kind: 'throttle', throttleBackoffs: 0, backAt: TEST_NOW + 5040 * MIN });
    expect(result.why).toContain(`${mainId} is no longer free for a back-off: nearly spent (forecast`);
    expect(f.simLogLines()).toHaveLength(1);
  });

  it('sign-in failure: the retry goes outside the credential group, which is skipped for this task only', async () => {
    // A third connector shares the sim's credential (credentialGroup "sim" for sim and its twin).
    const f = await createDispatchFixture([
      main('auth'),
      spare(),
      ...(connector === 'sim' ? [{ account: 'a', connector: 'sim-twin' }] : []),
    ]);
    if (connector === 'sim') await installSimTwin(f);
    const result = await dispatchTask(f.runtime, f.request());
    expect(result).toMatchObject({ ok: true, kind: 'ok', poolId: spareId });
    // The twin reads the same sim home (same credential, same meter): tied at surplus 40, the
    // smaller id goes first.
    const firstId = connector === 'sim' ? 'sim-twin:a' : mainId;
    expect(result.attempts.map((a) => [a.attempt, a.poolId, a.kind, a.willRetry])).toEqual([
      [1, firstId, 'auth', true],
      [2, spareId, 'ok', false],
    ]);
    const group = `${connector}:a`;
    const skipped = (connector === 'sim' ? ['sim-twin:a', mainId] : [mainId])
      .map((id) => `${id} sign-in failed in credential group ${group}`)
      .join('; ');
    expect(result.reason).toBe(
      `fallback from ${firstId} after sign-in failure · most-behind capable pool (surplus 20) · excluded: ${skipped}`,
    );
    // Nothing is stored beyond the task: the next pick may take the pool again.
    const next = await routeTask(f.runtime, { lane: 'analyze', tier: 'medium', kind: 'single-run' });
    expect(next.decision.poolId).toBe(firstId);
  });

  it('crash: the one retry goes to another pool, its reason prefixed with where it came from', async () => {
    const f = await createDispatchFixture([main('crash', { label: 'main' }), spare()]);
    const result = await dispatchTask(f.runtime, f.request());
    expect(result).toMatchObject({ ok: true, poolId: spareId, answer: 'sim: done: Explain the parser' });
    expect(result.reason).toBe(
      'fallback from main after crash (exit 1) · most-behind capable pool (surplus 20)',
    );
    expect(result.attempts.map((a) => [a.attempt, a.poolLabel, a.kind, a.exitCode, a.partialOutput])).toEqual(
      [
        [1, 'main', 'process', 1, true],
        [2, spareId, 'ok', 0, false],
      ],
    );
    expect(readFileSync(join(f.out, 'out-run-attempt-1.stderr'), 'utf8')).toContain('crashed on purpose');
    expect(readFileSync(join(f.out, 'out-run-attempt-2'), 'utf8')).toContain('sim: done');
    expect(types(f.events)).toEqual([
      'route.decided',
      'attempt.started',
      'attempt.finished',
      'route.decided',
      'attempt.started',
      'attempt.finished',
    ]);
    expect((await f.store.runs.list({ poolId: mainId }))[0]).toMatchObject({
      outcome: 'failed',
      failureKind: 'process',
    });
  });

  it('empty answer: the retry says so', async () => {
    const f = await createDispatchFixture([main('empty'), spare()]);
    const result = await dispatchTask(f.runtime, f.request());
    expect(result).toMatchObject({ ok: true, poolId: spareId });
    expect(result.reason).toBe(
      `fallback from ${mainId} after empty answer · most-behind capable pool (surplus 20)`,
    );
    expect(result.attempts[0]).toMatchObject({ kind: 'empty', willRetry: true });
  });

  it('a crash with no other eligible pool retries on the same pool; retryAttempts 0 does not retry', async () => {
    const f = await createDispatchFixture([main({ scenario: 'crash', code: 3 })]);
    const result = await dispatchTask(f.runtime, f.request());
    expect(result).toMatchObject({ ok: false, kind: 'process', poolId: mainId });
    expect(result.attempts.map((a) => [a.attempt, a.poolId, a.exitCode, a.willRetry])).toEqual([
      [1, mainId, 3, true],
      [2, mainId, 3, false],
    ]);
    expect(result.reason).toBe(
      `fallback from ${mainId} after crash (exit 3) · most-behind capable pool (surplus 40)`,
    );

    const none = await dispatchTask(f.runtime, f.request({ action: 'again', retryAttempts: 0 }));
    expect(none.attempts).toHaveLength(1);
    expect(none.why).toMatch(/^exited with code 3/);
  });

  it('a failure while the meter shows the window full is a usage limit: no retry', async () => {
    const f = await createDispatchFixture([main('crash'), spare()]);
    const result = await dispatchTask(
      f.runtime,
      meterMovesDuringAttempt(f, main(), [
        { kind: 'five_hour', usedPct: 100, resetsInMin: 45 },
        { kind: 'weekly', usedPct: 40, resetsInMin: 5040 },
      ]),
    );
    expect(result).toMatchObject({ kind: 'quota', poolId: mainId, backAt: TEST_NOW + 45 * MIN });
    expect(result.why).toMatch(
      new RegExp(
        `^usage limit: ${mainId} meter shows its 5-hour window at 100% until ${iso(TEST_NOW + 45 * MIN)}`,
      ),
    );
    expect(result.attempts).toHaveLength(1);
  });

  it('no free pool at the first pick: quota, each pool with its reason, back at the earliest return', async () => {
    const f = await createDispatchFixture([
      main('ok', { windows: [{ kind: 'five_hour', usedPct: 100, resetsInMin: 30 }, ...weekly(10)] }),
      spare({ windows: [{ kind: 'weekly', usedPct: 100, resetsInMin: 600 }] }),
    ]);
    const result = await dispatchTask(f.runtime, f.request());
    const entries = [
      [mainId, `${mainId} at its 5-hour limit until ${iso(TEST_NOW + 30 * MIN)}`],
      [spareId, `${spareId} at its weekly limit until ${iso(TEST_NOW + 600 * MIN)}`],
    ]
      .sort(([a], [b]) => ((a as string) < (b as string) ? -1 : 1))
      .map(([, entry]) => entry);
    expect(result).toMatchObject({
      ok: false,
      kind: 'quota',
      poolId: null,
      backAt: TEST_NOW + 30 * MIN,
      why: `no pool with quota to spare: ${entries.join('; ')}`,
    });
    expect(result.attempts).toEqual([]);
    expect(f.simLogLines()).toEqual([]);
    expect(types(f.events)).toEqual(['route.decided']);
  });

  it('a crash whose retry finds no free pool (the pool itself now nearly spent) keeps kind process', async () => {
    const f = await createDispatchFixture([
      main('crash'),
      spare({ windows: [{ kind: 'weekly', usedPct: 100, resetsInMin: 600 }] }),
    ]);
    const result = await dispatchTask(
      f.runtime,
      meterMovesDuringAttempt(f, main(), [{ kind: 'weekly', usedPct: 97, resetsInMin: 5040 }]),
    );
    expect(result).toMatchObject({ ok: false, kind: 'process', poolId: mainId });
    expect(result.attempts).toHaveLength(1);
    expect(result.why).toMatch(/^exited with code 1: .* · no retry: /);
    expect(result.why).toContain(`${mainId} nearly spent (forecast 97`);
    expect(result.why).toContain(`${spareId} at its weekly limit until ${iso(TEST_NOW + 600 * MIN)}`);
  });

  it('nothing benches a pool: after a crash, the next task picks it again', async () => {
    const f = await createDispatchFixture([main({ scenario: 'crash' }, {}), spare()]);
    writeFileSync(
      join(simHomeOf(f.home, main()), 'scenario.json'),
      JSON.stringify({ sequence: ['crash'], default: 'ok' }),
    );
    const first = await dispatchTask(f.runtime, f.request());
    expect(first.attempts.map((a) => [a.poolId, a.kind])).toEqual([
      [mainId, 'process'],
      [spareId, 'ok'],
    ]);
    const second = await dispatchTask(f.runtime, f.request({ action: 'next' }));
    expect(second).toMatchObject({
      ok: true,
      poolId: mainId,
      reason: 'most-behind capable pool (surplus 40)',
    });
  });

  it('a promised retry that finds no free pool keeps its own failure and says why', async () => {
    const f = await createDispatchFixture([
      main('auth'),
      spare({ windows: [{ kind: 'weekly', usedPct: 100, resetsInMin: 600 }] }),
    ]);
    const result = await dispatchTask(f.runtime, f.request());
    expect(result).toMatchObject({ ok: false, kind: 'auth', poolId: mainId });
    const entries = [
      `${mainId} sign-in failed in credential group ${connector}:a`,
      `${spareId} at its weekly limit until ${iso(TEST_NOW + 600 * MIN)}`,
    ].sort();
    expect(result.why).toMatch(/^sign-in failure: /);
    expect(result.why?.endsWith(` · no retry: ${entries.join('; ')}`)).toBe(true);
    expect(result.attempts[0]?.why).toBe(result.why);
    expect(result.attempts.map((a) => [a.kind, a.willRetry])).toEqual([['auth', false]]);
    expect(f.events.filter((e) => e.type === 'attempt.finished').map((e) => e.willRetry)).toEqual([false]);
  });
});

/** Installs `sim-twin` in the home: the sim's manifest sharing its credential group and sim homes. */
async function installSimTwin(f: DispatchFixture): Promise<void> {
  const manifest = JSON.parse(
    readFileSync(new URL('../../../../providers/sim/connector.json', import.meta.url), 'utf8'),
  ) as Record<string, unknown>;
  mkdirSync(join(f.home, 'providers', 'sim-twin'), { recursive: true });
  const { $schema: _schema, ...rest } = manifest;
  writeFileSync(
    join(f.home, 'providers', 'sim-twin', 'connector.json'),
    JSON.stringify({ ...rest, id: 'sim-twin', credentialGroup: 'sim' }),
  );
  // Reopen the runtime so the home connector is loaded.
  const reopened = await f.openAnother();
  await f.runtime.close();
  Object.assign(f, { runtime: reopened });
}

describe('dispatchTask: retries beyond the first', () => {
  it('never go back to a pool that already failed in this task while another eligible pool remains', async () => {
    const crash = { default: 'crash' };
    const f = await createDispatchFixture([
      { account: 'a', windows: weekly(10), scenario: crash }, // surplus 40
      { account: 'b', windows: weekly(20), scenario: crash }, // surplus 30
      { account: 'c', windows: weekly(30) }, // surplus 20
    ]);
    const result = await dispatchTask(f.runtime, f.request({ retryAttempts: 3 }));
    expect(result).toMatchObject({ ok: true, poolId: 'sim:c' });
    expect(result.attempts.map((a) => [a.poolId, a.kind])).toEqual([
      ['sim:a', 'process'],
      ['sim:b', 'process'],
      ['sim:c', 'ok'],
    ]);
  });

  it('when every pool has failed, the retry avoids the last one', async () => {
    const crash = { default: 'crash' };
    const f = await createDispatchFixture([
      { account: 'a', windows: weekly(10), scenario: crash },
      { account: 'b', windows: weekly(20), scenario: crash },
    ]);
    const result = await dispatchTask(f.runtime, f.request({ retryAttempts: 3 }));
    expect(result).toMatchObject({ ok: false, kind: 'process' });
    expect(result.attempts.map((a) => a.poolId)).toEqual(['sim:a', 'sim:b', 'sim:a', 'sim:b']);
  });
});

describe('dispatchTask: picks that find no pool, dry runs and misuse', () => {
  it('a route that leaves no pool is no-eligible-pool', async () => {
    const f = await createDispatchFixture([{ account: 'a', windows: weekly(10) }]);
    const result = await dispatchTask(f.runtime, f.request({ route: { pools: { use: ['sim:zzz'] } } }));
    expect(result).toMatchObject({ ok: false, kind: 'no-eligible-pool', poolId: null });
    expect(result.why).toMatch(/^no eligible pool: sim:a /);
  });

  it('a pool kept out only by this moment (the caller) is unavailable', async () => {
    const f = await createDispatchFixture([{ account: 'a', windows: weekly(10) }], {
      BULLSWARM_POOL: 'sim:a',
    });
    const result = await dispatchTask(f.runtime, f.request());
    expect(result).toMatchObject({
      ok: false,
      kind: 'unavailable',
      why: 'no eligible pool: sim:a the caller',
    });
  });

  it('a pin names a pool by id or label; an unknown one is a DispatchError naming the field', async () => {
    const f = await createDispatchFixture([
      { account: 'a', windows: weekly(10) },
      { account: 'b', windows: weekly(40), label: 'bee' },
    ]);
    const pinned = await dispatchTask(
      f.runtime,
      f.request({ pin: { poolId: 'bee', source: 'operator', shownAs: '--worker-pool' } }),
    );
    expect(pinned).toMatchObject({ ok: true, poolId: 'sim:b' });
    expect(pinned.reason).toBe('pinned to bee (--worker-pool) · surplus 10');
    const error = await dispatchTask(
      f.runtime,
      f.request({ pin: { poolId: 'nope', source: 'operator', shownAs: '--worker-pool' } }),
    ).catch((e: unknown) => e);
    expect(DispatchError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'unknown-pool', field: 'request.pin.poolId', received: 'nope' });
    expect((error as Error).message).toContain('a pool id or label: sim:a, sim:b');
  });

  it('a pin to a pool whose connector is not installed is unavailable, naming it; nothing is spawned', async () => {
    const f = await createDispatchFixture([
      { account: 'a', windows: weekly(10) },
      { account: 'b', connector: 'gone' },
    ]);
    const pin = { poolId: 'gone:b', source: 'operator', shownAs: '--worker-pool' } as const;
    const result = await dispatchTask(f.runtime, f.request({ pin }));
    expect(result).toMatchObject({
      ok: false,
      kind: 'unavailable',
      poolId: null,
      attempts: [],
      why: 'pinned to gone:b (--worker-pool): connector gone is not installed',
    });
    const rejected = [
      { poolId: 'gone:b', kind: 'excluded', reason: 'connector gone is not installed' },
      { poolId: 'sim:a', kind: 'route', reason: 'not the pinned pool' },
    ];
    expect(result.decision.rejected).toEqual(rejected);
    // The dry run (routeTask alone) decides the same.
    const dry = (await routeTask(f.runtime, { lane: 'analyze', tier: 'medium', kind: 'single-run', pin }))
      .decision;
    expect(dry).toMatchObject({ poolId: null, reason: result.reason, rejected });
    expect(noPoolKind(dry)).toBe('unavailable');
    expect(f.simLogLines()).toEqual([]);
    expect(existsSync(join(f.out, 'out-run-attempt-1'))).toBe(false);
    expect(await f.store.ledger.list()).toEqual([]);
  });

  it("a pool's own command (pools add --command) runs instead of the connector's; a missing one is unavailable, naming it", async () => {
    const f = await createDispatchFixture([{ account: 'a', windows: weekly(10) }]);
    const marker = join(f.out, '..', 'wrapper-ran');
    const wrapper = join(f.out, '..', 'my-agent.sh');
    writeFileSync(
      wrapper,
      `#!/bin/sh\necho "$@" > ${JSON.stringify(marker)}\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(SIM_CLI_PATH)} "$@"\n`,
      { mode: 0o755 },
    );
    const withCommand = async (command: string) => {
      f.runtime.home.updateState((draft) => {
        draft.pools[0]!.command = command;
      });
      const runtime = await f.openAnother();
      try {
        return await dispatchTask(runtime, f.request({ retryAttempts: 0 }));
      } finally {
        await runtime.close();
      }
    };
    const ok = await withCommand(wrapper);
    expect(ok).toMatchObject({ ok: true, poolId: 'sim:a', answer: 'sim: done: Explain the parser' });
    // The wrapper got the connector's arguments (without the bundled script path).
    expect(readFileSync(marker, 'utf8')).toMatch(/^--format claude -p Explain the parser /);

    const missing = join(f.out, '..', 'no-such-agent');
    const failed = await withCommand(missing);
    // Never spawned (issue 10): a pool whose CLI is not there is unavailable, not a crash to retry.
    expect(failed).toMatchObject({ ok: false, kind: 'unavailable', poolId: null, attempts: [] });
    expect(failed.why).toBe(`no eligible pool: sim:a ${missing} does not exist`);
  });

  it.each([
    [{ action: '../x' }, 'request.action'],
    [{ prompt: '  ' }, 'request.prompt'],
    [{ lane: 'review' }, 'request.lane'],
    [{ cwd: 'relative/dir' }, 'request.cwd'],
    [{ cwd: '/nonexistent/bullswarm/dir' }, 'request.cwd'],
    [{ outputDir: 'out' }, 'request.outputDir'],
    [{ retryAttempts: -1 }, 'request.retryAttempts'],
    [{ throttlePolicy: 'wait' }, 'request.throttlePolicy'],
    [{ timeoutSec: 0 }, 'request.timeoutSec'],
    [{ kind: 'batch' }, 'request.kind'],
  ])('a malformed request %j is a DispatchError naming %s', async (overrides, field) => {
    const f = await createDispatchFixture([{ account: 'a', windows: weekly(10) }]);
    const error = await dispatchTask(f.runtime, f.request(overrides as never)).catch((e: unknown) => e);
    expect(DispatchError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'invalid-request', field });
    expect((error as Error).message).toContain(field);
    expect(f.simLogLines()).toEqual([]);
  });
});

describe('an error between the pick and the attempt', () => {
  it('an onEvent callback that throws on route.decided leaves no in-flight entry behind', async () => {
    const f = await createDispatchFixture([
      { account: 'a', windows: [{ kind: 'weekly', usedPct: 10, resetsInMin: 5040 }] },
    ]);
    const boom = new Error('consumer failed');
    const request: DispatchRequest = {
      ...f.request(),
      onEvent: (event: DispatchEvent) => {
        if (event.type === 'route.decided') throw boom;
      },
    };
    await expect(dispatchTask(f.runtime, request)).rejects.toBe(boom);
    expect(await f.store.ledger.list()).toEqual([]);
    // Nothing was spawned.
    expect(f.simLogLines()).toEqual([]);
  });
});
