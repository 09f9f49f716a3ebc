import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openAsyncStore, openHome } from '@bullswarm/store';
import { afterEach, describe, expect, it } from 'vitest';
import { SwarmInputError } from '../errors/swarm-input-error';
import { git, tryGit } from '../git/run-git';
import { readHandoffPacket } from '../handoff/read-handoff-packet';
import { readJournal } from '../plans/journal';
import { planLocation } from '../plans/plan-location';
import { createSwarm } from '../store/create-swarm';
import { tempDirs } from '../test-support/swarm-fixture';
import { runDrill } from './run-drill';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

describe('runDrill (library)', () => {
  it('proves the loop; every fact is read back from the store, the journal, the packets and git', async () => {
    const dir = dirs.make();
    const report = await runDrill({ dir, env: { PATH: process.env.PATH } });
    const repo = join(dir, 'repo');
    const plan = planLocation({ repo, id: 'drill' });
    // The home is private (0700) and holds the drill's seven accounts, labelled by account name.
    expect(statSync(join(dir, 'home')).mode & 0o777).toBe(0o700);
    const drillHome = openHome({ home: join(dir, 'home') });
    expect(drillHome.readState().pools.map((p) => p.id)).toHaveLength(7);
    expect(drillHome.resolvePoolRef('spare-2')).toBe('sim-codex:spare-2');
    const store = await openAsyncStore({
      target: { engine: 'sqlite', dbPath: join(dir, 'home', 'bullswarm.db') },
    });
    try {
      const swarm = await createSwarm({ store, env: {} });
      // Epochs: claimed by lead-1 at 1, handed over to the deputy at 2, the old lead refused and stepped down.
      const history = await swarm.leads.history(plan);
      expect(
        history
          .filter((e) => ['claim', 'handover', 'takeover'].includes(e.kind))
          .map((e) => [e.kind, e.epoch, e.lead]),
      ).toEqual([
        ['claim', 1, 'lead-1'],
        ['handover', 2, 'deputy'],
      ]);
      expect(history).toContainEqual(
        expect.objectContaining({ kind: 'fence-refused', epoch: 1, actor: 'lead-1' }),
      );
      expect(history).toContainEqual(
        expect.objectContaining({ kind: 'step-down', epoch: 1, actor: 'lead-1' }),
      );
      expect(await swarm.leads.get(plan)).toMatchObject({
        lead: 'deputy',
        epoch: 2,
        releasedAt: expect.any(Number),
      });

      // Packets: the capped lane's, accepted by a successor on another vendor's account; the lead's, accepted by the deputy.
      const packets = await swarm.handoffs.list(plan);
      expect(packets.map((p) => [p.task, p.reason, p.author, p.acceptedBy])).toEqual([
        ['cli', 'capacity_critical', 'lane-b', 'cli-2'],
        ['lead', 'lead_handover', 'lead-1', 'deputy'],
      ]);
      expect(packets[0]).toMatchObject({
        authorPool: 'sim:lane-b',
        successor: 'cli-2',
        successorPool: 'sim-codex:spare-2',
      });
      for (const record of packets) {
        expect(statSync(record.packetPath).mode & 0o777).toBe(0o600);
        expect(record.packetPath.startsWith(plan.handoffDir)).toBe(true);
        expect(existsSync(record.packetPath.replace(/\.json$/, '.accepted.json'))).toBe(true);
      }
      const lanePacket = readHandoffPacket(packets[0]!.packetPath);
      expect(lanePacket).toMatchObject({
        lead: { address: 'lead-1', epoch: 1 },
        work: { branch: 'lane/cli', uncommitted: ['src/cli-part2.txt'] },
      });
      expect(lanePacket.capacity?.line).toBe('capacity=critical 8% @lane-b decision=hand-off');
      expect(tryGit(repo, ['merge-base', '--is-ancestor', lanePacket.work.head, 'main']).status).toBe(0);
      // The lead packet carries the lane table, the release order and the pending merges as fields.
      const leadPacket = readHandoffPacket(packets[1]!.packetPath);
      expect(leadPacket.lanes).toEqual([
        { task: 'api', address: 'lane-a', pool: 'sim:lane-a', branch: 'lane/api', state: 'done' },
        { task: 'cli', address: 'cli-2', pool: 'sim-codex:spare-2', branch: 'lane/cli', state: 'done' },
        { task: 'docs', address: 'lane-c', pool: 'sim:lane-c', branch: 'lane/docs', state: 'done' },
        { task: 'release', address: null, pool: null, state: 'ready' },
      ]);
      expect(leadPacket.releaseOrder).toEqual(['api', 'cli', 'docs', 'release']);
      expect(leadPacket.pendingMerges?.map((m) => [m.branch, m.into, m.task])).toEqual([
        ['lane/api', 'main', 'api'],
        ['lane/cli', 'main', 'cli'],
        ['lane/docs', 'main', 'docs'],
      ]);
      for (const merge of leadPacket.pendingMerges ?? []) {
        expect(merge.head).toBe(git(repo, ['rev-parse', merge.branch]).trim());
      }
      expect(JSON.stringify(leadPacket.done)).not.toContain('lane table');

      // Tasks, hysteresis, leases.
      expect(Object.fromEntries((await swarm.tasks.list(plan)).map((t) => [t.task, t.done?.by]))).toEqual({
        api: 'lane-a',
        cli: 'cli-2',
        docs: 'lane-c',
        lead: undefined,
        release: 'deputy',
      });
      expect((await swarm.tasks.get(plan, 'cli')).relinquishedBy.map((r) => r.address)).toEqual(['lane-b']);
      expect(await swarm.leases.list()).toEqual([]);
      expect((await swarm.leases.events('sim:lane-b')).map((e) => [e.event, e.holder])).toEqual([
        ['acquired', 'lane-b'],
        ['released', 'lane-b'],
      ]);
      expect((await swarm.leases.events('sim-codex:spare-2'))[0]).toMatchObject({
        event: 'acquired',
        holder: 'cli-2',
        owner: 'lead-1',
      });

      // The lane-to-lane ask and its reply.
      const ask = (await swarm.notices.list({ to: 'lane-a' })).find((n) => n.kind === 'ask');
      expect(ask).toMatchObject({ from: 'lane-c' });
      expect((await swarm.notices.list({ to: 'lane-c' })).find((n) => n.kind === 'reply')).toMatchObject({
        from: 'lane-a',
        re: ask!.id,
        text: '--format',
      });

      // Journal: launches and results as delegations, verdicts/handoffs/successions as observations.
      const journal = readJournal(plan.journalFile);
      const count = (type: string, event: string) =>
        journal.filter((e) => e.type === type && e.event === event).length;
      expect(count('delegation', 'lane.launched')).toBe(5);
      expect(count('delegation', 'lane.result')).toBe(5);
      expect(count('observation', 'handoff.written')).toBe(2);
      expect(count('observation', 'handoff.accepted')).toBe(2);
      expect(count('observation', 'lead.handover')).toBe(1);
      expect(count('observation', 'lead.stepped-down')).toBe(1);
      expect(
        journal
          .filter((e) => e.event === 'capacity.checked' && e.verdict === 'critical')
          .map((e) => [e.by, e.line]),
      ).toEqual([
        ['lane-b', 'capacity=critical 8% @lane-b decision=hand-off'],
        ['lead-1', 'capacity=critical 8% @lead decision=hand-off'],
      ]);

      // Git: every lane merged into main, tagged by the epoch-2 lead; no tag from the stale lead.
      expect(git(repo, ['rev-parse', 'drill-done^{commit}']).trim()).toBe(
        git(repo, ['rev-parse', 'main']).trim(),
      );
      for (const branch of ['lane/api', 'lane/cli', 'lane/docs']) {
        expect(tryGit(repo, ['merge-base', '--is-ancestor', branch, 'main']).status).toBe(0);
      }
      expect(tryGit(repo, ['rev-parse', '--verify', '--quiet', 'refs/tags/stale-lead']).status).not.toBe(0);
      // The remote (a bare repository) got main and the tag through fenced pushes, each read first.
      const origin = join(dir, 'origin.git');
      expect(git(origin, ['rev-parse', 'main']).trim()).toBe(git(repo, ['rev-parse', 'main']).trim());
      expect(git(origin, ['rev-parse', 'drill-done']).trim()).toBe(
        git(repo, ['rev-parse', 'drill-done']).trim(),
      );
      expect(report.remote.checks.every((c) => c.checked)).toBe(true);
      expect(report.remote.checks).toHaveLength(6);
      expect(git(repo, ['show', 'main:src/cli-part2.txt'])).toContain('cli part 2 final');

      // Evidence in analysis_results: gates failed before the work and passed on main.
      const evidence = JSON.parse(readFileSync(join(plan.analysisDir, 'drill-evidence.json'), 'utf8'));
      expect(evidence.humanKeystrokes).toBe(0);
      const gates = evidence.gates as { task: string; phase: string; passed: boolean }[];
      expect(gates.filter((g) => g.phase === 'before-work').every((g) => !g.passed)).toBe(true);
      expect(gates.filter((g) => g.phase === 'main').map((g) => [g.task, g.passed])).toEqual([
        ['api', true],
        ['cli', true],
        ['docs', true],
        ['release', true],
      ]);
      expect(gates.find((g) => g.phase === 'rerun')).toMatchObject({ task: 'cli', passed: false });
      expect(report.packets).toHaveLength(2);
    } finally {
      await store.close();
    }
  });

  it('refuses a scratch directory that is not empty', async () => {
    const dir = dirs.make();
    writeFileSync(join(dir, 'something.txt'), 'keep me\n');
    await expect(runDrill({ dir })).rejects.toThrow(SwarmInputError);
    expect(readFileSync(join(dir, 'something.txt'), 'utf8')).toBe('keep me\n');
  });

  it('refuses a file, a path under a file and an empty dir, naming dir', async () => {
    const dir = dirs.make();
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x\n');
    await expect(runDrill({ dir: file })).rejects.toThrow(/^dir ".*a-file" is not valid: .*it is a file/);
    await expect(runDrill({ dir: join(file, 'sub') })).rejects.toThrow(
      /^dir .*cannot be created \(ENOTDIR\)/,
    );
    await expect(runDrill({ dir: '' })).rejects.toThrow(
      /^dir "" is not valid: expected a new or empty directory/,
    );
    expect(readFileSync(file, 'utf8')).toBe('x\n');
  });
});
