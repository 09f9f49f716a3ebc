import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openHome, openHomeStore } from '@bullswarm/store';
import { createSwarm, git, planLocation, readHandoffPacket, readJournal, tryGit } from '@bullswarm/swarm';
import { afterEach, describe, expect, it } from 'vitest';
import { bullswarm, tempDirs } from '../../../test/support/cli';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

/**
 * `bullswarm swarm drill` on the BUILT binary, with standard input closed (no human keystroke).
 * Every fact is read back from the records the drill left — the store, the plan's journal, the
 * packets and git — never from the drill's printed text.
 */
describe('bullswarm swarm drill (built CLI)', () => {
  it('proves the loop end to end', async () => {
    const dir = join(dirs.make('bullswarm-drill-e2e-'), 'scratch');
    const run = await bullswarm(['swarm', 'drill', '--dir', dir]);
    expect(run.exitCode, run.stderr).toBe(0);

    const repo = join(dir, 'repo');
    const plan = planLocation({ repo, id: 'drill' });
    const store = await openHomeStore(openHome({ home: join(dir, 'home'), env: {} }), { env: {} });
    try {
      const swarm = await createSwarm({ store, env: {} });

      // A lead and at least three lanes on sim accounts, each on its own leased account.
      const lanes = (await swarm.leases.events()).filter(
        (e) => e.event === 'acquired' && e.holder.startsWith('lane-'),
      );
      expect(lanes.map((e) => e.holder).sort()).toEqual(['lane-a', 'lane-b', 'lane-c']);
      expect(new Set(lanes.map((e) => e.poolId)).size).toBe(3);
      expect(lanes.every((e) => e.poolId.startsWith('sim:'))).toBe(true);

      // The capped lane wrote a packet; the lead launched a successor (not on the spent account)
      // that accepted it; the successor passed the gate (task done by it, gate passed in the evidence).
      const [lanePacket, leadPacket] = await swarm.handoffs.list(plan);
      expect(lanePacket).toMatchObject({
        task: 'cli',
        reason: 'capacity_critical',
        author: 'lane-b',
        acceptedBy: 'cli-2',
      });
      expect(lanePacket!.successorPool).not.toBe(lanePacket!.authorPool);
      const packet = readHandoffPacket(lanePacket!.packetPath);
      expect(packet.capacity?.line).toMatch(/^capacity=critical 8% @/);
      expect(statSync(lanePacket!.packetPath).mode & 0o777).toBe(0o600);
      expect(await swarm.tasks.get(plan, 'cli')).toMatchObject({
        done: { by: 'cli-2' },
        relinquishedBy: [expect.objectContaining({ address: 'lane-b' })],
      });

      // The capped lead handed over: epoch 2 to the deputy, who finished the plan.
      expect(leadPacket).toMatchObject({
        task: 'lead',
        reason: 'lead_handover',
        author: 'lead-1',
        acceptedBy: 'deputy',
      });
      const epochs = (await swarm.leads.history(plan)).filter(
        (e) => e.kind === 'claim' || e.kind === 'handover',
      );
      expect(epochs.map((e) => [e.epoch, e.lead])).toEqual([
        [1, 'lead-1'],
        [2, 'deputy'],
      ]);
      expect((await swarm.tasks.get(plan, 'release')).done?.by).toBe('deputy');
      expect((await swarm.leads.get(plan))?.releasedAt).toBeDefined();

      // A lane-to-lane ask, answered.
      const notices = await swarm.notices.list();
      const ask = notices.find((n) => n.kind === 'ask');
      expect(ask).toMatchObject({ from: 'lane-c', to: 'lane-a' });
      expect(notices.find((n) => n.kind === 'reply' && n.re === ask!.id)).toMatchObject({
        from: 'lane-a',
        to: 'lane-c',
      });

      // The journal: delegations, observations (verdicts, handoffs, successions).
      const journal = readJournal(plan.journalFile);
      expect(
        journal.filter((e) => e.type === 'delegation' && e.event === 'lane.launched').length,
      ).toBeGreaterThanOrEqual(4);
      expect(
        journal.filter((e) => e.event === 'capacity.checked' && e.verdict === 'critical').map((e) => e.by),
      ).toEqual(['lane-b', 'lead-1']);
      expect(
        journal.some((e) => e.type === 'observation' && e.event === 'lead.handover' && e.epoch === 2),
      ).toBe(true);

      // Git: the lanes merged into main and tagged by the epoch-2 lead; the stale lead's tag refused.
      expect(git(repo, ['rev-parse', 'drill-done^{commit}']).trim()).toBe(
        git(repo, ['rev-parse', 'main']).trim(),
      );
      for (const branch of ['lane/api', 'lane/cli', 'lane/docs']) {
        expect(tryGit(repo, ['merge-base', '--is-ancestor', branch, 'main']).status).toBe(0);
      }
      expect(tryGit(repo, ['rev-parse', '--verify', '--quiet', 'refs/tags/stale-lead']).status).not.toBe(0);
      expect((await swarm.leads.history(plan)).some((e) => e.kind === 'fence-refused' && e.epoch === 1)).toBe(
        true,
      );

      // Evidence in analysis_results: every packet, every epoch, the gates.
      const evidencePath = join(plan.analysisDir, 'drill-evidence.json');
      expect(existsSync(evidencePath)).toBe(true);
      const evidence = JSON.parse(readFileSync(evidencePath, 'utf8'));
      expect(evidence.packets.map((p: { path: string }) => p.path)).toEqual([
        lanePacket!.packetPath,
        leadPacket!.packetPath,
      ]);
      expect(evidence.epochs.filter((e: { kind: string }) => e.kind === 'handover')).toHaveLength(1);
      expect(
        evidence.gates.filter((g: { phase: string; passed: boolean }) => g.phase === 'main' && g.passed),
      ).toHaveLength(4);
      expect(
        evidence.gates.filter(
          (g: { phase: string; passed: boolean }) => g.phase === 'before-work' && g.passed,
        ),
      ).toHaveLength(0);
    } finally {
      await store.close();
    }
  });

  it('refuses a scratch directory that is not empty (exit 2)', async () => {
    const dir = dirs.make('bullswarm-drill-e2e-');
    writeFileSync(join(dir, 'notes.txt'), 'not a scratch directory\n');
    const run = await bullswarm(['swarm', 'drill', '--dir', dir]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('--dir');
    expect(readdirSync(dir)).toEqual(['notes.txt']);
  });
});
