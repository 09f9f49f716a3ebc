import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isPidAlive } from '@bullswarm/connectors/internal';
import { afterEach, describe, expect, it } from 'vitest';
import { closeDispatchFixtures, createDispatchFixture } from '../test-support/dispatch-fixture';
import { dispatchTask } from './dispatch-task';

afterEach(closeDispatchFixtures);

const weekly = (usedPct: number) => [{ kind: 'weekly' as const, usedPct, resetsInMin: 5040 }];

describe('the silence clock', () => {
  it.each([
    ['sim', 'sim-codex'],
    ['sim-codex', 'sim'],
  ])(
    'a silent %s worker is stopped with its whole tree; its output stays; the retry writes attempt 2',
    async (connector, other) => {
      const f = await createDispatchFixture(
        [
          {
            account: 'a',
            connector,
            windows: weekly(10),
            scenario: { default: { scenario: 'stall', child: true } },
          },
          { account: 'b', connector: other, windows: weekly(30) },
        ],
        { BULLSWARM_WORKER_SILENCE_SEC: '2' },
      );
      const result = await dispatchTask(f.runtime, f.request(), { killGraceMs: 1_000 });

      expect(result).toMatchObject({ ok: true, poolId: `${other}:b` });
      expect(result.reason).toBe(
        `fallback from ${connector}:a after stall 2s · most-behind capable pool (surplus 20)`,
      );
      const [stalled, retry] = result.attempts;
      expect(stalled).toMatchObject({
        attempt: 1,
        poolId: `${connector}:a`,
        kind: 'stalled',
        why: 'stalled: no output for 2s',
        stalled: true,
        partialOutput: true,
        willRetry: true,
      });
      expect(stalled?.silentSec).toBeGreaterThanOrEqual(2);
      expect(retry).toMatchObject({ attempt: 2, poolId: `${other}:b`, kind: 'ok' });
      expect(retry?.outputFile).toBe(join(f.out, 'out-run-attempt-2'));

      // What the stalled worker wrote stays in attempt 1's file; the retry did not touch it.
      const partial = readFileSync(join(f.out, 'out-run-attempt-1'), 'utf8');
      expect(partial.length).toBeGreaterThan(0);
      expect(partial).not.toContain('sim: done');
      expect(readFileSync(join(f.out, 'out-run-attempt-2'), 'utf8')).toContain('sim: done');

      // No process of the stalled tree survives: the sim and its grandchild.
      const simLine = f.simLogLines().find((line) => line.pool === `${connector}:a`);
      expect(simLine?.signal).toBe('SIGTERM');
      const grandchild = Number(
        /grandchild pid (\d+)/.exec(readFileSync(join(f.out, 'out-run-attempt-1.stderr'), 'utf8'))?.[1],
      );
      expect(grandchild).toBeGreaterThan(0);
      expect(simLine?.childPid).toBe(grandchild);
      for (const pid of [simLine!.pid, grandchild]) expect(isPidAlive(pid)).toBe(false);

      const run = (await f.store.runs.list({ poolId: `${connector}:a` }))[0];
      expect(run).toMatchObject({ stalled: true, outcome: 'stalled', failureKind: 'stalled' });
      expect(await f.store.ledger.list()).toEqual([]);
      const finished = f.events.filter((e) => e.type === 'attempt.finished');
      expect(finished[0]).toMatchObject({
        stalled: true,
        partialOutput: true,
        willRetry: true,
        kind: 'stalled',
      });
    },
  );

  it('output restarts the silence clock: a slow worker that keeps talking is not stopped', async () => {
    const f = await createDispatchFixture(
      [
        {
          account: 'a',
          windows: weekly(10),
          scenario: { default: { scenario: 'slow', ms: 4_500, tickMs: 300 } },
        },
      ],
      // Longer than any tick gap, shorter than the run: only restarts keep it alive.
      { BULLSWARM_WORKER_SILENCE_SEC: '3' },
    );
    const result = await dispatchTask(f.runtime, f.request());
    expect(result).toMatchObject({ ok: true, kind: 'ok' });
    expect(result.attempts).toHaveLength(1);
  });
});

describe('the no-progress clock (build and chore lanes)', () => {
  it('a build worker that reads but changes no file is stopped as stalled', async () => {
    const f = await createDispatchFixture(
      [
        {
          account: 'a',
          windows: weekly(10),
          scenario: { default: { scenario: 'read-only-loop', tickMs: 200 } },
        },
        { account: 'b', windows: weekly(30) },
      ],
      { BULLSWARM_WORKER_NO_PROGRESS_SEC: '2' },
    );
    const result = await dispatchTask(f.runtime, f.request({ lane: 'build' }));
    expect(result).toMatchObject({ ok: true, poolId: 'sim:b' });
    expect(result.attempts[0]).toMatchObject({
      poolId: 'sim:a',
      kind: 'stalled',
      why: 'stalled: no file change for 2 s',
      stalled: true,
    });
    // It kept talking, so it was not the silence clock.
    expect(result.attempts[0]?.silentSec).toBeLessThan(2);
    expect(result.reason).toBe('fallback from sim:a after stall 2s · most-behind capable pool (surplus 20)');
  });

  it('a worker that keeps changing a file is not stopped by it', async () => {
    const f = await createDispatchFixture(
      [
        {
          account: 'a',
          windows: weekly(10),
          scenario: { default: { scenario: 'write-slowly', path: 'notes.txt', ms: 4_000, tickMs: 300 } },
        },
      ],
      { BULLSWARM_WORKER_NO_PROGRESS_SEC: '2' },
    );
    const result = await dispatchTask(f.runtime, f.request({ lane: 'chore', tier: 'medium' }));
    expect(result).toMatchObject({ ok: true, kind: 'ok' });
    expect(result.attempts).toHaveLength(1);
    expect(readFileSync(join(f.work, 'notes.txt'), 'utf8')).toMatch(/^step \d+/);
  });

  it('added directories are watched too', async () => {
    const f = await createDispatchFixture([{ account: 'a', windows: weekly(10) }], {
      BULLSWARM_WORKER_NO_PROGRESS_SEC: '2',
    });
    const docs = join(f.out, '..', 'docs');
    mkdirSync(docs, { recursive: true });
    const result = await dispatchTask(
      f.runtime,
      f.request({
        lane: 'build',
        addDirs: [docs],
        retryAttempts: 0,
        prompt: `[sim:write-slowly,path=${join(docs, 'guide.md')},ms=4000,tickMs=300] write the guide`,
      }),
    );
    expect(result).toMatchObject({ ok: true, kind: 'ok' });
    expect(readFileSync(join(docs, 'guide.md'), 'utf8')).toMatch(/^step \d+/);
  });

  it('changes in node_modules, .git or the attempt files do not count as progress', async () => {
    const f = await createDispatchFixture(
      [
        {
          account: 'a',
          windows: weekly(10),
          scenario: {
            default: {
              scenario: 'write-slowly',
              path: 'node_modules/pkg/cache.txt',
              ms: 60_000,
              tickMs: 200,
            },
          },
        },
      ],
      { BULLSWARM_WORKER_NO_PROGRESS_SEC: '2' },
    );
    // The attempt files go inside the work tree here: their growth must not count either.
    const result = await dispatchTask(
      f.runtime,
      f.request({ lane: 'build', outputDir: join(f.work, '.bullswarm-out'), retryAttempts: 0 }),
    );
    expect(result).toMatchObject({ ok: false, kind: 'stalled', why: 'stalled: no file change for 2 s' });
  });

  it('an analyze worker has no no-progress clock', async () => {
    const f = await createDispatchFixture(
      [
        {
          account: 'a',
          windows: weekly(10),
          scenario: { default: { scenario: 'read-only-loop', ms: 3_000, tickMs: 200 } },
        },
      ],
      { BULLSWARM_WORKER_NO_PROGRESS_SEC: '1' },
    );
    const result = await dispatchTask(f.runtime, f.request({ lane: 'analyze' }));
    expect(result).toMatchObject({ ok: true, kind: 'ok' });
  });
});

describe('attempt files', () => {
  it('are never overwritten: an existing out-run-attempt-1 makes the next dispatch write attempt 2', async () => {
    const f = await createDispatchFixture([{ account: 'a', windows: weekly(10) }]);
    mkdirSync(f.out, { recursive: true });
    writeFileSync(join(f.out, 'out-run-attempt-1'), 'an earlier attempt\n');
    const result = await dispatchTask(f.runtime, f.request());
    expect(result.attempts[0]?.attempt).toBe(2);
    expect(result.attempts[0]?.outputFile).toBe(join(f.out, 'out-run-attempt-2'));
    expect(readFileSync(join(f.out, 'out-run-attempt-1'), 'utf8')).toBe('an earlier attempt\n');
    expect(readFileSync(join(f.out, 'out-run-attempt-2'), 'utf8')).toContain('sim: done');
  });

  it('previousAttempts starts the numbering after earlier attempts (a restart)', async () => {
    const f = await createDispatchFixture([{ account: 'a', windows: weekly(10) }]);
    const result = await dispatchTask(f.runtime, f.request({ action: 'step-1', previousAttempts: 3 }));
    expect(result.attempts[0]?.outputFile).toBe(join(f.out, 'out-step-1-attempt-4'));
  });
});

describe('timeouts and cancellation', () => {
  it('timeoutSec ends the attempt; a timeout is not retried', async () => {
    const f = await createDispatchFixture([
      { account: 'a', windows: weekly(10), scenario: { default: 'stall' } },
      { account: 'b', windows: weekly(30) },
    ]);
    const result = await dispatchTask(f.runtime, f.request({ timeoutSec: 1 }), { killGraceMs: 500 });
    expect(result).toMatchObject({ ok: false, kind: 'timeout', why: 'timed out after 1s', poolId: 'sim:a' });
    expect(result.attempts).toHaveLength(1);
  });

  it("the caller's abort ends the worker group and the task (canceled), and releases the ledger", async () => {
    const f = await createDispatchFixture([
      { account: 'a', windows: weekly(10), scenario: { default: 'stall' } },
    ]);
    const controller = new AbortController();
    const request = f.request({ signal: controller.signal });
    const result = await dispatchTask(f.runtime, {
      ...request,
      onEvent: (event) => {
        request.onEvent?.(event);
        if (event.type === 'attempt.started') setTimeout(() => controller.abort(), 200);
      },
    });
    expect(result).toMatchObject({ ok: false, kind: 'canceled', why: 'canceled' });
    const started = f.events.find((e) => e.type === 'attempt.started');
    expect(started?.type === 'attempt.started' && started.pid).toBeGreaterThan(0);
    if (started?.type === 'attempt.started') expect(isPidAlive(started.pid!)).toBe(false);
    expect(await f.store.ledger.list()).toEqual([]);
    expect((await f.store.runs.list())[0]).toMatchObject({ outcome: 'canceled' });
  });
});
