import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HandoffMismatchError } from '../errors/handoff-mismatch-error';
import { PlanFileError } from '../errors/plan-file-error';
import { SwarmInputError } from '../errors/swarm-input-error';
import { git } from '../git/run-git';
import { createRepo, openTestSwarm, tempDirs } from '../test-support/swarm-fixture';
import { acceptHandoffPacket } from './accept-handoff-packet';
import type { HandoffContent } from './handoff-packet-schema';
import { readHandoffPacket } from './read-handoff-packet';
import { writeHandoffPacket } from './write-handoff-packet';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

/**
 * boss leads p1: lane-a finished api (on sim:a), lane-b handed cli off with a packet, docs is
 * ready and nobody took it; lane/api holds api's work, not merged yet.
 */
async function leadAtHandover() {
  const dir = dirs.make();
  const { repo, plan } = createRepo(join(dir, 'repo'));
  const { swarm } = await openTestSwarm(dir);
  await swarm.leads.claim(plan, { address: 'boss', succession: ['deputy'], lanes: ['lane-a', 'lane-b'] });
  await swarm.leases.acquire({ poolId: 'sim:a', holder: 'lane-a', owner: 'boss', plan, task: 'api' });
  await swarm.agents.register({ address: 'lane-b', poolId: 'sim:b' });
  await swarm.tasks.claim(plan, { task: 'api', address: 'lane-a' });
  await swarm.tasks.complete(plan, { task: 'api', address: 'lane-a', evidence: ['src/api.txt'] });
  git(repo, ['checkout', '-q', '-b', 'lane/api']);
  writeFileSync(join(repo, 'api.txt'), 'api\n');
  git(repo, ['add', 'api.txt']);
  git(repo, ['commit', '-q', '-m', 'api']);
  git(repo, ['checkout', '-q', 'main']);
  await swarm.tasks.claim(plan, { task: 'cli', address: 'lane-b' });
  const lanePacket = await writeHandoffPacket({
    swarm,
    plan,
    checkout: repo,
    task: 'cli',
    step: 'write',
    reason: 'capacity_critical',
    author: 'lane-b',
    env: {},
    notify: false,
  });
  const writeLead = (content: HandoffContent) =>
    writeHandoffPacket({
      swarm,
      plan,
      checkout: repo,
      task: 'lead',
      step: 'merge',
      reason: 'lead_handover',
      author: 'boss',
      content,
      env: {},
      notify: false,
    });
  const refusal = async (content: HandoffContent) => {
    try {
      await writeLead(content);
    } catch (error) {
      if (SwarmInputError.isInstance(error)) return error;
      throw error;
    }
    throw new Error('not refused');
  };
  return { repo, plan, swarm, lanePacket, writeLead, refusal };
}

describe('a lead packet carries the lane table, the release order and the pending merges as fields', () => {
  it('reads the lane table from the records and each pending merge head from git', async () => {
    const { repo, lanePacket, writeLead } = await leadAtHandover();
    const written = await writeLead({
      releaseOrder: ['api', 'cli', 'docs'],
      pendingMerges: [{ branch: 'lane/api', into: 'main', task: 'api' }],
    });
    const packet = readHandoffPacket(written.path);
    expect(packet.lanes).toEqual([
      { task: 'api', address: 'lane-a', pool: 'sim:a', state: 'done' },
      { task: 'cli', address: 'lane-b', pool: 'sim:b', state: 'handed-off', packet: lanePacket.path },
      { task: 'docs', address: null, pool: null, state: 'ready' },
    ]);
    expect(packet.releaseOrder).toEqual(['api', 'cli', 'docs']);
    expect(packet.pendingMerges).toEqual([
      { branch: 'lane/api', into: 'main', task: 'api', head: git(repo, ['rev-parse', 'lane/api']).trim() },
    ]);
    // The lane's own packet carries none of them, and a packet from before these fields still reads.
    expect(readHandoffPacket(lanePacket.path)).not.toHaveProperty('lanes');
    const old = JSON.parse(readFileSync(written.path, 'utf8'));
    delete old.lanes;
    delete old.releaseOrder;
    delete old.pendingMerges;
    writeFileSync(written.path, JSON.stringify(old));
    expect(readHandoffPacket(written.path).task).toBe('lead');
  });

  it('validates them: tasks of the plan, each once, branches that exist, heads git shows; lead packets only', async () => {
    const { repo, plan, swarm, lanePacket, refusal } = await leadAtHandover();
    expect(await refusal({ releaseOrder: ['api', 'nope'] })).toMatchObject({
      field: 'releaseOrder[1]',
      received: 'nope',
    });
    expect(await refusal({ releaseOrder: ['api', 'api'] })).toMatchObject({
      field: 'releaseOrder[1]',
      expected: 'each task once',
    });
    expect(await refusal({ pendingMerges: [{ branch: 'lane/gone', into: 'main' }] })).toMatchObject({
      field: 'pendingMerges[0].branch',
    });
    expect(await refusal({ pendingMerges: [{ branch: 'lane/api', into: 'trunk' }] })).toMatchObject({
      field: 'pendingMerges[0].into',
    });
    expect(
      await refusal({ pendingMerges: [{ branch: 'lane/api', into: 'main', head: 'a'.repeat(40) }] }),
    ).toMatchObject({
      field: 'pendingMerges[0].head',
    });
    expect(
      await refusal({ lanes: [{ task: 'ghost', address: 'x', pool: null, state: 'running' }] }),
    ).toMatchObject({ field: 'lanes[0].task' });
    await swarm.tasks.claim(plan, { task: 'docs', address: 'lane-c' });
    await expect(
      (async () =>
        await writeHandoffPacket({
          swarm,
          plan,
          checkout: repo,
          task: 'docs',
          step: 'write',
          reason: 'capacity_low',
          author: 'lane-c',
          content: { releaseOrder: ['docs'] },
          env: {},
        }))(),
    ).rejects.toThrow(/^releaseOrder .* only a lead packet \(task "lead"\) carries a lane table/);
    // A lane packet edited to carry a lane table does not read as dwp-handoff/v1.
    const edited = JSON.parse(readFileSync(lanePacket.path, 'utf8'));
    edited.lanes = [];
    writeFileSync(lanePacket.path, JSON.stringify(edited));
    await expect((async () => readHandoffPacket(lanePacket.path))()).rejects.toThrow(PlanFileError);
    await expect((async () => readHandoffPacket(lanePacket.path))()).rejects.toThrow(
      /lanes.*only a lead packet/,
    );
  });

  it('accept lists a pending merge whose branch moved since the packet was written', async () => {
    const { repo, swarm, writeLead } = await leadAtHandover();
    const written = await writeLead({ pendingMerges: [{ branch: 'lane/api', into: 'main' }] });
    const recorded = git(repo, ['rev-parse', 'lane/api']).trim();
    git(repo, ['branch', '-f', 'lane/api', 'main']);
    let error: unknown;
    try {
      await acceptHandoffPacket({ swarm, packetPath: written.path, address: 'deputy' });
    } catch (caught) {
      error = caught;
    }
    expect(HandoffMismatchError.isInstance(error)).toBe(true);
    expect((error as HandoffMismatchError).mismatches).toEqual([
      {
        field: 'pendingMerges[0]',
        packet: `lane/api at ${recorded}`,
        checkout: `lane/api at ${git(repo, ['rev-parse', 'main']).trim()}`,
      },
    ]);
    git(repo, ['branch', '-f', 'lane/api', recorded]);
    expect(
      (await acceptHandoffPacket({ swarm, packetPath: written.path, address: 'deputy' })).record.acceptedBy,
    ).toBe('deputy');
  });
});
