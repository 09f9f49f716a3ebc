import { afterEach, describe, expect, it } from 'vitest';
import { dispatchTask } from '../dispatch/dispatch-task';
import { closeDispatchFixtures, createDispatchFixture } from '../test-support/dispatch-fixture';
import { dryRunJson, runResultJson } from './decision-json';
import { routeTask } from './route-task';

afterEach(closeDispatchFixtures);

const weekly = (usedPct: number) => [{ kind: 'weekly' as const, usedPct, resetsInMin: 5040 }];

describe('run --json has one shape', () => {
  it('a dry run and a real run of the same task have the same keys, in the same order', async () => {
    const f = await createDispatchFixture([{ account: 'a', windows: weekly(10) }]);
    const task = { lane: 'analyze', tier: 'medium', kind: 'single-run' } as const;
    const dry = dryRunJson((await routeTask(f.runtime, task)).decision, f.runtime, 'medium');
    const result = await dispatchTask(f.runtime, f.request());
    const real = runResultJson(result, f.runtime, { tier: 'medium', runId: 'run-1', runDir: f.out });
    expect(Object.keys(real)).toEqual(Object.keys(dry));
    expect(dry).toMatchObject({ ok: true, dryRun: true, poolId: 'sim:a', runId: null, throttleBackoffs: 0 });
    expect(real).toMatchObject({ ok: true, dryRun: false, poolId: 'sim:a', runId: 'run-1' });
    // Both carry the pick's forecast line.
    expect(dry.forecast).toMatch(/^forecast: /);
    expect(real.forecast).toMatch(/^forecast: /);
  });

  it('a task no pool can take has the same keys too', async () => {
    const f = await createDispatchFixture([{ account: 'a', windows: weekly(10) }], {
      BULLSWARM_POOL: 'sim:a',
    });
    const task = { lane: 'analyze', tier: 'medium', kind: 'single-run' } as const;
    const dry = dryRunJson((await routeTask(f.runtime, task)).decision, f.runtime, 'medium');
    const result = await dispatchTask(f.runtime, f.request());
    const real = runResultJson(result, f.runtime, { tier: 'medium', runId: 'run-1', runDir: f.out });
    expect(Object.keys(real)).toEqual(Object.keys(dry));
    expect(dry).toMatchObject({ ok: false, kind: 'unavailable', forecast: null });
    expect(real).toMatchObject({ ok: false, kind: 'unavailable', forecast: null, runDir: null });
  });
});
