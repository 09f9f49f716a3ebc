import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROVIDERS_ROOT } from '@bullswarm/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatchTask } from '../dispatch/dispatch-task';
import { buildPoolSnapshots } from '../snapshots/build-pool-snapshots';
import { modelReachesCli } from '../snapshots/model-reaches-cli';
import {
  closeDispatchFixtures,
  createDispatchFixture,
  type DispatchFixture,
} from '../test-support/dispatch-fixture';
import { PROBE_PROMPT } from './probe-free-model';

afterEach(closeDispatchFixtures);

/**
 * A third-party connector in the home's providers/: the sim's manifest under another id, without
 * its `probe` field (and, with `takesModel: false`, without a model flag), unmetered.
 */
function addHomeConnector(f: DispatchFixture, id: string, takesModel: boolean): void {
  const sim = JSON.parse(readFileSync(join(PROVIDERS_ROOT, 'sim', 'connector.json'), 'utf8'));
  const { $schema: _schema, probe: _probe, ...rest } = sim;
  const { modelArgs: _modelArgs, ...invocation } = rest.invocation;
  const manifest = {
    ...rest,
    id,
    displayName: `third-party ${id}`,
    meter: { type: 'none' },
    invocation: takesModel ? rest.invocation : invocation,
  };
  mkdirSync(join(f.home, 'providers', id), { recursive: true });
  writeFileSync(join(f.home, 'providers', id, 'connector.json'), JSON.stringify(manifest));
  f.runtime.home.updateState((state) => {
    state.pools.push({
      id: `${id}:x`,
      connector: id,
      account: 'x',
      enabled: true,
      models: {},
      addedAt: new Date(0).toISOString(),
    });
  });
}

// docs/routing.md, "Free-model liveness probe": free models are probed unless a connector opts out, and
// a rung that uses the CLI's own default model is never probed.
describe('which free models are probed', () => {
  it('a third-party connector that says nothing about probing has its free model probed', async () => {
    const f = await createDispatchFixture([]);
    addHomeConnector(f, 'third', true);
    const runtime = await f.openAnother();
    try {
      expect(runtime.connectors.get('third')?.probe).toBe(true);
      const result = await dispatchTask(runtime, f.request({ lane: 'chore' }));
      expect(result).toMatchObject({ ok: true, poolId: 'third:x', model: 'sim/lite:free' });
      expect(f.simLogLines().map((line) => [line.pool, line.argv.includes(PROBE_PROMPT)])).toEqual([
        ['third:x', true],
        ['third:x', false],
      ]);
    } finally {
      await runtime.close();
    }
  });

  it('a rung on a CLI that takes no model runs the CLI default: not explicit, never probed', async () => {
    const f = await createDispatchFixture([]);
    addHomeConnector(f, 'plain', false);
    const runtime = await f.openAnother();
    try {
      const connector = runtime.connectors.get('plain')!;
      expect(connector.probe).toBe(true);
      expect(modelReachesCli(connector)).toBe(false);
      expect(modelReachesCli(runtime.connectors.get('sim')!)).toBe(true);
      const snapshots = await buildPoolSnapshots(runtime);
      expect(snapshots.pools.find((pool) => pool.id === 'plain:x')?.models.low).toEqual({
        model: 'sim/lite:free',
        free: true,
        explicit: false,
      });
      const result = await dispatchTask(runtime, f.request({ lane: 'chore' }));
      expect(result).toMatchObject({ ok: true, poolId: 'plain:x' });
      expect(f.simLogLines().map((line) => [line.pool, line.argv.includes(PROBE_PROMPT)])).toEqual([
        ['plain:x', false],
      ]);
    } finally {
      await runtime.close();
    }
  });
});
