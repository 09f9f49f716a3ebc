import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BullswarmRuntime, openRuntime } from '@bullswarm/dispatch';
import { writeTestHome } from '@bullswarm/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { FencingError } from '../errors/fencing-error';
import { git } from '../git/run-git';
import { acceptHandoffPacket } from '../handoff/accept-handoff-packet';
import { writeHandoffPacket } from '../handoff/write-handoff-packet';
import { readJournal } from '../plans/journal';
import { createSwarm } from '../store/create-swarm';
import { createRepo, tempDirs } from '../test-support/swarm-fixture';
import { prepareSuccessor, startSuccessor, successorBrief } from './launch-successor';

const dirs = tempDirs();
const runtimes: BullswarmRuntime[] = [];
afterEach(async () => {
  for (const runtime of runtimes.splice(0)) await runtime.close();
  await dirs.cleanup();
});

const weekly = (usedPct: number) => [{ kind: 'weekly' as const, usedPct, resetsInMin: 3 * 1440 }];

async function setup() {
  const dir = dirs.make();
  const home = join(dir, 'home');
  writeTestHome(home, {
    now: Date.now(),
    pools: [
      { account: 'lead', windows: weekly(10) },
      { account: 'lane-b', windows: weekly(92) },
      { account: 'spare', windows: weekly(30) },
      { account: 'other', connector: 'sim-codex', windows: weekly(60) },
    ],
  });
  const runtime = await openRuntime({ home, env: {}, createStore: true, userHome: dir });
  runtimes.push(runtime);
  const swarm = await createSwarm({ store: await runtime.requireStore(), env: {}, clock: runtime.clock });
  const { plan } = createRepo(join(dir, 'repo'));
  const checkout = join(dir, 'wt-cli');
  git(plan.repo, ['worktree', 'add', '-q', '-b', 'lane/cli', checkout]);
  await swarm.agents.register({ address: 'boss', poolId: 'sim:lead', pid: process.pid });
  await swarm.leads.claim(plan, { address: 'boss', succession: ['deputy'] });
  await swarm.leases.acquire({ poolId: 'sim:lane-b', holder: 'lane-b', owner: 'boss', plan, task: 'cli' });
  await swarm.tasks.claim(plan, { task: 'cli', address: 'lane-b' });
  writeFileSync(join(checkout, 'cli-part1.txt'), 'part 1\n');
  git(checkout, ['add', '-A']);
  git(checkout, ['commit', '-q', '-m', 'cli part 1']);
  const written = await writeHandoffPacket({
    swarm,
    plan,
    checkout,
    task: 'cli',
    step: 'write',
    reason: 'capacity_critical',
    author: 'lane-b',
    authorPool: 'sim:lane-b',
    content: { next: ['write cli-part2.txt'], notVerified: [{ what: 'cli gate' }] },
    env: {},
  });
  return { dir, runtime, swarm, plan, checkout, written };
}

describe('handoff launch', () => {
  it('picks another account (another vendor first), leases it, starts the successor through dispatch, releases the spent lease once accepted', async () => {
    const { runtime, swarm, plan, checkout, written } = await setup();
    const prepared = await prepareSuccessor(runtime, swarm, {
      packetPath: written.path,
      owner: 'boss',
      env: {},
    });
    // The spent account and the lead's own are left out; another vendor is preferred over sim:spare.
    expect(prepared.poolId).toBe('sim-codex:other');
    expect(prepared.successor).toBe('cli-2');
    expect(prepared.pick.leftOut).toEqual(
      expect.arrayContaining([
        { poolId: 'sim:lane-b', reason: "the spent account of the packet's author lane-b" },
        { poolId: 'sim:lead', reason: "the lead boss's own account" },
      ]),
    );
    expect(await swarm.leases.get('sim-codex:other')).toMatchObject({
      holder: 'cli-2',
      owner: 'boss',
      task: 'cli',
    });
    expect((await swarm.leads.get(plan))?.lanes).toContain('cli-2');
    expect(successorBrief(prepared)).toContain(`bullswarm handoff accept ${written.path}`);

    // The successor accepts first, then its work runs as a real sim process on the leased account.
    await acceptHandoffPacket({ swarm, packetPath: written.path, address: 'cli-2' });
    const started = await startSuccessor(runtime, swarm, prepared, {
      promptExtra: '[sim:write,file=cli-part2.txt,content=part 2 by the successor]',
    });
    expect(started.dispatch).toMatchObject({ ok: true, kind: 'ok', poolId: 'sim-codex:other' });
    expect(readFileSync(join(checkout, 'cli-part2.txt'), 'utf8')).toBe('part 2 by the successor');
    expect(started.accepted).toBe(true);
    expect(started.releasedSpentLease).toBe('sim:lane-b');
    expect(await swarm.leases.get('sim:lane-b')).toBeUndefined();
    expect(await swarm.handoffs.get(written.path)).toMatchObject({
      successor: 'cli-2',
      successorPool: 'sim-codex:other',
      acceptedBy: 'cli-2',
    });
    const attemptFile = started.dispatch.attempts[0]!.outputFile;
    expect(attemptFile.startsWith(join(plan.analysisDir, 'runs', 'cli', 'cli-2'))).toBe(true);
    expect(existsSync(attemptFile)).toBe(true);
    const events = readJournal(plan.journalFile).map((e) => `${e.type}:${e.event}`);
    expect(events).toEqual([
      'observation:lead.claimed',
      'observation:handoff.written',
      'observation:lead.refreshed',
      'observation:handoff.accepted',
      'delegation:lane.launched',
      'delegation:lane.result',
    ]);
  });

  it('only the current lead launches; an accepted packet is not launched twice', async () => {
    const { runtime, swarm, plan, written } = await setup();
    await expect(
      prepareSuccessor(runtime, swarm, { packetPath: written.path, owner: 'lane-c', env: {} }),
    ).rejects.toThrow(FencingError);
    await swarm.leads.handover(plan, { from: 'boss', to: 'deputy' });
    await expect(
      prepareSuccessor(runtime, swarm, { packetPath: written.path, owner: 'boss', env: {} }),
    ).rejects.toThrow(/epoch 1 is older|boss is not the lead/);
    const prepared = await prepareSuccessor(runtime, swarm, {
      packetPath: written.path,
      owner: 'deputy',
      successor: 'cli-new',
      env: {},
    });
    await acceptHandoffPacket({ swarm, packetPath: written.path, address: 'cli-new' });
    await expect(
      prepareSuccessor(runtime, swarm, { packetPath: written.path, owner: 'deputy', env: {} }),
    ).rejects.toThrow(/already accepted by cli-new/);
    expect(prepared.successor).toBe('cli-new');
  });
});
