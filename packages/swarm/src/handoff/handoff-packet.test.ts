import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FencingError } from '../errors/fencing-error';
import { HandoffMismatchError } from '../errors/handoff-mismatch-error';
import { SecretInPacketError } from '../errors/secret-in-packet-error';
import { TaskClaimError } from '../errors/task-claim-error';
import { git } from '../git/run-git';
import { readJournal } from '../plans/journal';
import { createRepo, openTestSwarm, tempDirs } from '../test-support/swarm-fixture';
import { acceptHandoffPacket } from './accept-handoff-packet';
import { writeHandoffPacket } from './write-handoff-packet';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

/** A repo with a lead, a lane in its own worktree on branch lane/cli, one step committed and one file in flight. */
async function laneAtHandoff() {
  const dir = dirs.make();
  const { repo, plan } = createRepo(join(dir, 'repo'));
  const { swarm } = await openTestSwarm(dir);
  const checkout = join(dir, 'wt-cli');
  git(repo, ['worktree', 'add', '-q', '-b', 'lane/cli', checkout]);
  await swarm.leads.claim(plan, { address: 'boss', succession: ['deputy'], lanes: ['lane-b'] });
  await swarm.tasks.claim(plan, { task: 'cli', address: 'lane-b' });
  writeFileSync(join(checkout, 'cli-part1.txt'), 'part 1\n');
  git(checkout, ['add', 'cli-part1.txt']);
  git(checkout, ['commit', '-q', '-m', 'cli: part 1']);
  writeFileSync(join(checkout, 'cli-part2.txt'), 'half of part 2\n');
  const write = (extra: Partial<Parameters<typeof writeHandoffPacket>[0]> = {}) =>
    writeHandoffPacket({
      swarm,
      plan,
      checkout,
      task: 'cli',
      step: 'write',
      reason: 'capacity_critical',
      author: 'lane-b',
      authorPool: 'sim:lane-b',
      content: {
        done: [{ what: 'part 1 written and committed', evidence: ['cli-part1.txt'] }],
        notVerified: [{ what: 'the cli gate', evidence: [] }],
        next: ['finish cli-part2.txt', 'run the cli gate'],
        decisions: [
          { decision: 'split the cli work in two files', why: 'reviewable steps', reverse: 'merge them' },
        ],
      },
      capacity: { verdict: 'critical', freePct: 8, line: 'capacity=critical 8% @lane-b decision=hand-off' },
      env: {},
      ...extra,
    });
  return { dir, repo, plan, swarm, checkout, write };
}

describe('handoff write', () => {
  it('writes a dwp-handoff/v1 packet (0600) with the work read from git, and the author relinquishes the task', async () => {
    const { plan, swarm, checkout, write } = await laneAtHandoff();
    const written = await write();
    expect(written.path.startsWith(`${plan.handoffDir}/cli-`)).toBe(true);
    expect(statSync(written.path).mode & 0o777).toBe(0o600);
    const onDisk = JSON.parse(readFileSync(written.path, 'utf8'));
    expect(onDisk).toEqual(written.packet);
    expect(written.packet).toMatchObject({
      schema: 'dwp-handoff/v1',
      plan: { id: 'p1', repo: plan.repo },
      task: 'cli',
      step: 'write',
      reason: 'capacity_critical',
      work: {
        checkout,
        branch: 'lane/cli',
        head: git(checkout, ['rev-parse', 'HEAD']).trim(),
        upstream: null,
        pushed: false,
        uncommitted: ['cli-part2.txt'],
      },
      lead: { address: 'boss', epoch: 1 },
      author: { address: 'lane-b', pool: 'sim:lane-b' },
    });
    expect(written.packet.contract.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    // Hysteresis: recorded with the packet; a later claim by the author is refused.
    expect(await swarm.tasks.get(plan, 'cli')).toMatchObject({
      holder: undefined,
      relinquishedBy: [expect.objectContaining({ address: 'lane-b' })],
    });
    let refusal: unknown;
    try {
      await swarm.tasks.claim(plan, { task: 'cli', address: 'lane-b' });
    } catch (error) {
      refusal = error;
    }
    expect(TaskClaimError.isInstance(refusal) && refusal.reason).toBe('relinquished');
    // The lead got `handoff <path>`, and the journal an observation.
    expect((await swarm.notices.readInbox('boss')).at(-1)).toMatchObject({
      kind: 'handoff',
      text: `handoff ${written.path} capacity=critical 8% @lane-b decision=hand-off`,
    });
    expect(readJournal(plan.journalFile).at(-1)).toMatchObject({
      type: 'observation',
      event: 'handoff.written',
      by: 'lane-b',
      packet: written.path,
      epoch: 1,
    });
  });

  it.each([
    [
      'an OpenAI key in next steps',
      { next: [`export OPENAI_API_KEY=sk-${'proj-'}Qw3rTy8UiOp2AsDfGh5JkL9zXcVb`] },
      'next[0]',
      'openai-key',
    ],
    [
      'a GitHub token in a decision',
      { decisions: [{ decision: `use gh${'p'}_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5` }] },
      'decisions[0].decision',
      'github-token',
    ],
    [
      'an AWS key in evidence',
      { done: [{ what: 'x', evidence: [`AK${'IA'}Q3EGRVZ5MNX7TY2K`] }] },
      'done[0].evidence[0]',
      'aws-access-key',
    ],
    [
      'a JWT in an ask',
      {
        openAsks: [
          {
            to: 'lane-a',
            text: `token ey${'J'}hbGciOiJIUzI1NiJ9.ey${'J'}zdWIiOiIxMjM0In0.dozjgNryP4J3jVmNHl0w5N_XgL0`,
          },
        ],
      },
      'openAsks[0].text',
      'jwt',
    ],
  ])('refuses a packet carrying %s and writes nothing', async (_label, content, path, kind) => {
    const { plan, swarm, write } = await laneAtHandoff();
    let error: unknown;
    try {
      await write({ content });
    } catch (caught) {
      error = caught;
    }
    expect(SecretInPacketError.isInstance(error)).toBe(true);
    expect((error as SecretInPacketError).findings).toEqual([{ path, kind }]);
    expect(existsSync(plan.handoffDir) ? readdirSync(plan.handoffDir) : []).toEqual([]);
    expect(await swarm.handoffs.list(plan)).toEqual([]);
    expect((await swarm.tasks.get(plan, 'cli')).holder).toBe('lane-b');
    expect(readJournal(plan.journalFile).some((e) => e.event === 'handoff.written')).toBe(false);
  });

  it('refuses the value of a credential variable of the current environment', async () => {
    const { plan, write } = await laneAtHandoff();
    await expect(
      (async () =>
        await write({
          content: { next: ['use the key s3cr3t-value-123 for the staging api'] },
          env: { STAGING_API_KEY: 's3cr3t-value-123' },
        }))(),
    ).rejects.toThrow(/next\[0\] \(env:STAGING_API_KEY\)/);
    expect(existsSync(plan.handoffDir) ? readdirSync(plan.handoffDir) : []).toEqual([]);
  });

  it('only the executor of a task writes its packet', async () => {
    const { write } = await laneAtHandoff();
    await expect((async () => await write({ author: 'lane-c' }))()).rejects.toThrow(
      /executed by lane-b, not lane-c/,
    );
  });

  it('only the current lead writes a lead packet: anyone else is refused, nothing written or sent', async () => {
    const { plan, swarm, write } = await laneAtHandoff();
    const lead = { task: 'lead', step: 'lane table', reason: 'lead_handover' as const };
    let refusal: unknown;
    try {
      await write({ ...lead, author: 'lane-b' });
    } catch (error) {
      refusal = error;
    }
    expect(FencingError.isInstance(refusal)).toBe(true);
    expect(refusal).toMatchObject({ currentLead: 'boss', currentEpoch: 1, address: 'lane-b' });
    expect((refusal as Error).message).toContain('only the current lead boss (epoch 1)');
    expect(existsSync(plan.handoffDir) ? readdirSync(plan.handoffDir) : []).toEqual([]);
    expect(await swarm.notices.readInbox('boss')).toEqual([]);
    expect(readJournal(plan.journalFile).some((e) => e.event === 'handoff.written')).toBe(false);
    // The lead itself writes it; after a handover the old lead no longer can.
    expect((await write({ ...lead, author: 'boss' })).packet.lead).toEqual({ address: 'boss', epoch: 1 });
    await swarm.leads.handover(plan, { from: 'boss', to: 'deputy' });
    await expect((async () => await write({ ...lead, author: 'boss' }))()).rejects.toThrow(
      /only the current lead deputy \(epoch 2\)/,
    );
  });

  it('the repository is the origin URL without its userinfo or query string', async () => {
    const { checkout, write } = await laneAtHandoff();
    git(checkout, ['remote', 'add', 'origin', 'https://alice:hunter2pw@git.example.com/team/x.git?ref=1#f']);
    const withPassword = await write();
    expect(withPassword.packet.work.repository).toBe('https://git.example.com/team/x.git');
    expect(readFileSync(withPassword.path, 'utf8')).not.toContain('hunter2pw');
    // A token used as the user name no longer blocks the write.
    const token = `gh${'p'}_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5`;
    git(checkout, ['remote', 'set-url', 'origin', `https://${token}@github.com/team/x.git`]);
    expect((await write({ author: 'lane-b', task: 'docs', step: 'write' })).packet.work.repository).toBe(
      'https://github.com/team/x.git',
    );
  });
});

describe('handoff accept', () => {
  it('checks the checkout, records the acceptance, and hands the task to the successor', async () => {
    const { plan, swarm, checkout, write } = await laneAtHandoff();
    const { path } = await write();
    // The author cannot accept its own packet (hysteresis).
    await expect(
      (async () => await acceptHandoffPacket({ swarm, packetPath: path, address: 'lane-b' }))(),
    ).rejects.toThrow(/never resumes the task/);
    const accepted = await acceptHandoffPacket({ swarm, packetPath: path, address: 'lane-b-2', checkout });
    expect(accepted.rerun).toEqual([{ what: 'the cli gate', evidence: [] }]);
    expect(statSync(accepted.acceptancePath).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(accepted.acceptancePath, 'utf8'))).toMatchObject({
      acceptedBy: 'lane-b-2',
      packet: path,
    });
    expect(await swarm.handoffs.get(path)).toMatchObject({ acceptedBy: 'lane-b-2' });
    expect((await swarm.tasks.get(plan, 'cli')).holder).toBe('lane-b-2');
    await expect(
      (async () => await acceptHandoffPacket({ swarm, packetPath: path, address: 'lane-b-3', checkout }))(),
    ).rejects.toThrow(/already accepted by lane-b-2/);
    expect(readJournal(plan.journalFile).at(-1)).toMatchObject({
      event: 'handoff.accepted',
      by: 'lane-b-2',
      task: 'cli',
    });
    expect((await swarm.notices.readInbox('boss')).at(-1)!.text).toContain(`accepted handoff ${path}`);
  });

  it('on a checkout whose head moved, branch changed and uncommitted paths differ: records nothing and lists each difference', async () => {
    const { plan, swarm, checkout, write } = await laneAtHandoff();
    const { path, packet } = await write();
    writeFileSync(join(checkout, 'cli-part2.txt'), 'finished by someone else\n');
    git(checkout, ['add', 'cli-part2.txt']);
    git(checkout, ['commit', '-q', '-m', 'cli: part 2 behind the packet']);
    git(checkout, ['checkout', '-q', '-b', 'lane/cli-other']);
    writeFileSync(join(checkout, 'stray.txt'), 'stray\n');
    const journalBefore = readJournal(plan.journalFile).length;
    let error: unknown;
    try {
      await acceptHandoffPacket({ swarm, packetPath: path, address: 'lane-b-2', checkout });
    } catch (caught) {
      error = caught;
    }
    expect(HandoffMismatchError.isInstance(error)).toBe(true);
    const mismatches = (error as HandoffMismatchError).mismatches;
    expect(mismatches.map((m) => m.field)).toEqual(['branch', 'head', 'uncommitted']);
    expect(mismatches[0]).toEqual({ field: 'branch', packet: 'lane/cli', checkout: 'lane/cli-other' });
    expect(mismatches[1]).toMatchObject({
      packet: packet.work.head,
      checkout: git(checkout, ['rev-parse', 'HEAD']).trim(),
    });
    expect(mismatches[2]!.checkout).toBe(
      '[stray.txt] (no longer uncommitted: cli-part2.txt) (newly uncommitted: stray.txt)',
    );
    expect((error as Error).message).toContain('head: packet');
    // Nothing recorded anywhere.
    expect((await swarm.handoffs.get(path))?.acceptedBy).toBeUndefined();
    expect((await swarm.tasks.get(plan, 'cli')).holder).toBeUndefined();
    expect(existsSync(path.replace(/\.json$/, '.accepted.json'))).toBe(false);
    expect(readJournal(plan.journalFile)).toHaveLength(journalBefore);
  });

  it('a changed contract is a mismatch', async () => {
    const { plan, swarm, checkout, write } = await laneAtHandoff();
    const { path } = await write();
    const planFile = join(checkout, 'plans', plan.id, 'plan.json');
    const doc = JSON.parse(readFileSync(planFile, 'utf8'));
    doc.contract.goal = 'a different goal';
    writeFileSync(planFile, JSON.stringify(doc));
    let error: unknown;
    try {
      await acceptHandoffPacket({ swarm, packetPath: path, address: 'lane-b-2', checkout });
    } catch (caught) {
      error = caught;
    }
    expect((error as HandoffMismatchError).mismatches.map((m) => m.field)).toEqual([
      'contract',
      'uncommitted',
    ]);
  });
});
