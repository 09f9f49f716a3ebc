import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startWorker } from '../test-support/run-worker';
import { createRepo, openTestSwarm, tempDirs } from '../test-support/swarm-fixture';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

type Outcome = { won: boolean; epoch?: number; lead?: string; error?: string; reason?: string };

/**
 * Two real processes on one store take over the same plan at the same epoch, released together
 * by a barrier file. Even rounds: two panes of the same deputy (only the compare-and-set on the
 * epoch tells them apart). Odd rounds: the first and second succession entries, both reachable
 * (ties go to the earlier position). On Postgres (`takeover-race.postgres.test.ts`) the two
 * racers are on two hosts (`host-a`, `host-b`) sharing the database.
 */
describe('takeover races (real processes, one store)', () => {
  it('20 races of two processes at the same epoch: exactly one wins each time', async () => {
    const dir = dirs.make();
    const { plan } = createRepo(join(dir, 'repo'));
    const { swarm, storeUrl } = await openTestSwarm(dir, { clock: Date.now });
    await swarm.agents.register({ address: 'deputy-a', pid: process.pid });
    await swarm.agents.register({ address: 'deputy-b', pid: process.pid });
    const history: { round: number; winners: Outcome[]; losers: Outcome[] }[] = [];
    for (let round = 0; round < 20; round++) {
      // Each round starts from a lead that has gone (never registered: "has no agent").
      const gone = `gone-${round}`;
      if (round === 0) await swarm.leads.claim(plan, { address: gone, succession: ['deputy-a', 'deputy-b'] });
      else {
        const current = (await swarm.leads.get(plan))!;
        await swarm.leads.handover(plan, { from: current.lead, to: gone, epoch: current.epoch });
        await swarm.leads.claim(plan, { address: gone, succession: ['deputy-a', 'deputy-b'] });
      }
      const epoch = (await swarm.leads.get(plan))!.epoch;
      const barrier = join(dir, `barrier-${round}`);
      const sameDeputy = round % 2 === 0;
      const racers = (sameDeputy ? ['deputy-a', 'deputy-a'] : ['deputy-b', 'deputy-a']).map((address, i) =>
        startWorker('takeover', {
          ...(storeUrl === undefined
            ? { dbPath: join(dir, 'bullswarm.db') }
            : { storeUrl, hostId: i === 0 ? 'host-a' : 'host-b' }),
          repo: plan.repo,
          id: plan.id,
          address,
          epoch,
          barrier,
        }),
      );
      for (const racer of racers) expect(await racer.nextLine()).toBe('ready');
      writeFileSync(barrier, 'go');
      const outcomes = (await Promise.all(racers.map((r) => r.nextLine()))).map(
        (line) => JSON.parse(line) as Outcome,
      );
      await Promise.all(racers.map((r) => r.exited));
      const winners = outcomes.filter((o) => o.won);
      const losers = outcomes.filter((o) => !o.won);
      history.push({ round, winners, losers });
      expect(winners, `round ${round}: ${JSON.stringify(outcomes)}`).toHaveLength(1);
      expect(winners[0]!.epoch).toBe(epoch + 1);
      const record = (await swarm.leads.get(plan))!;
      expect(record.epoch).toBe(epoch + 1);
      expect(record.lead).toBe('deputy-a');
      if (sameDeputy) {
        // The loser read epoch N and found N + 1: a fencing error, not a second epoch.
        expect(losers[0]).toMatchObject({ error: 'FencingError' });
      } else {
        // deputy-b loses whatever the timing: deputy-a is earlier and reachable, or already took it.
        expect(['LeadRecordError', 'FencingError']).toContain(losers[0]!.error);
      }
    }
    // Every epoch has exactly one holder in the record's history.
    const epochs = (await swarm.leads.history(plan)).filter((e) => e.kind === 'takeover').map((e) => e.epoch);
    expect(epochs).toHaveLength(20);
    expect(new Set(epochs).size).toBe(20);
    expect(history).toHaveLength(20);
  });
});
