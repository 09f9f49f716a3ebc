import { spawn } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git } from '@bullswarm/swarm';
import { nowEnv, writeTestHome } from '@bullswarm/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { bullswarm, tempDirs } from '../../../test/support/cli';
import { createPlanRepo } from '../../../test/support/plan-repo';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const NOW = Date.parse('2026-09-10T12:00:00Z');
const weekly = (usedPct: number) => [{ kind: 'weekly' as const, usedPct, resetsInMin: 3 * 1440 }];

/** A home with sim pools labelled by account, and a git repository with plans/p1/plan.json. */
function setup() {
  const dir = dirs.make('bullswarm-swarm-e2e-');
  const home = join(dir, 'home');
  writeTestHome(home, {
    now: NOW,
    pools: [
      { connector: 'sim', account: 'lead', label: 'lead-acct', windows: weekly(20) },
      { connector: 'sim', account: 'work1', label: 'work1', windows: weekly(36) },
      { connector: 'sim', account: 'work2', label: 'work2', windows: weekly(50) },
      { connector: 'sim', account: 'blind', meter: { type: 'none' } },
    ],
  });
  const repo = join(dir, 'repo');
  createPlanRepo(repo, {
    schema: 'bullswarm-plan/v1',
    id: 'p1',
    contract: { goal: 'test' },
    tasks: [
      { id: 'cli', steps: ['write', 'verify'] },
      { id: 'docs', dependsOn: ['cli'] },
    ],
  });
  const run = (args: readonly string[], env: Record<string, string | undefined> = {}) =>
    bullswarm(args, { home, cwd: repo, env: { ...nowEnv(NOW), ...env } });
  return { dir, home, repo, run };
}

describe('bullswarm capacity', () => {
  it('prints the capacity line; a cap lowers it and never raises it; thresholds come from the environment', async () => {
    const { run } = setup();
    expect((await run(['capacity', '--pool', 'work1'])).stdout).toBe(
      'capacity=ok 64% @work1 decision=continue\n',
    );
    const capped = await run(['capacity', '--pool', 'work1'], { BULLSWARM_CAPACITY_CAP: '@work1=8' });
    expect(capped.stdout).toBe('capacity=critical 8% @work1 decision=hand-off\n');
    // The decision is said in the spec's words for a lane and for a lead (stderr).
    expect(capped.stderr).toContain(
      'decision hand-off: a lane reaches the next safe point, writes the packet, notifies the lead, stops; a lead hands over the leadership now',
    );
    expect((await run(['capacity', '--pool', 'work1'], { AGENTKIT_CAPACITY_CAP: '@work1=90' })).stdout).toBe(
      'capacity=ok 64% @work1 decision=continue\n',
    );
    expect((await run(['capacity', '--pool', 'work1'], { BULLSWARM_CAPACITY_LOW: '70' })).stdout).toBe(
      'capacity=low 64% @work1 decision=prepare\n',
    );
    expect(
      (
        await run(['capacity', '--pool', 'work1'], {
          AGENTKIT_CAPACITY_LOW: '80',
          AGENTKIT_CAPACITY_CRITICAL: '70',
        })
      ).stdout,
    ).toBe('capacity=critical 64% @work1 decision=hand-off\n');
    const bad = await run(['capacity', '--pool', 'work1'], { BULLSWARM_CAPACITY_CRITICAL: 'x' });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('BULLSWARM_CAPACITY_CRITICAL "x" is not valid');
  });

  it('is unknown, never ok, outside a launch and without a meter; --self reads BULLSWARM_POOL', async () => {
    const { run } = setup();
    const outside = await run(['capacity', '--self']);
    expect(outside).toMatchObject({ exitCode: 0, stdout: 'capacity=unknown @self decision=continue\n' });
    expect(outside.stderr).toContain('outside a bullswarm launch');
    expect((await run(['capacity', '--self'], { BULLSWARM_POOL: 'sim:blind' })).stdout).toBe(
      'capacity=unknown @sim:blind decision=continue\n',
    );
    expect(
      (await run(['capacity'], { BULLSWARM_POOL: 'sim:work2', BULLSWARM_CAPACITY_CAP: '@work2=20' })).stdout,
    ).toBe('capacity=low 20% @work2 decision=prepare\n');
    const json = JSON.parse((await run(['capacity', '--pool', 'work1', '--json'])).stdout);
    expect(json).toMatchObject({
      verdict: 'ok',
      freePct: 64,
      bindingWindow: 'weekly',
      decision: 'continue',
      line: 'capacity=ok 64% @work1 decision=continue',
      thresholds: { lowPct: 25, criticalPct: 10 },
    });
  });
});

describe('bullswarm lease, pick, agent', () => {
  it('one lane per account; never the lead’s own; pick leaves both out', async () => {
    const { run } = setup();
    expect((await run(['agent', 'register', 'boss', '--pool', 'lead-acct'])).exitCode).toBe(0);
    expect((await run(['lease', '@work1', '--to', 'lane-a', '--owner', 'boss'])).exitCode).toBe(0);
    const second = await run(['lease', '@work1', '--to', 'lane-b', '--owner', 'boss']);
    expect(second.exitCode).toBe(1);
    expect(second.stderr).toContain('is held by lane-a');
    const own = await run(['lease', 'lead-acct', '--to', 'lane-b', '--owner', 'boss']);
    expect(own.exitCode).toBe(1);
    expect(own.stderr).toContain("lead boss's own account");
    const undeclared = await run(['lease', '@nope', '--to', 'lane-b', '--owner', 'boss']);
    expect(undeclared.exitCode).toBe(2);
    expect(undeclared.stderr).toContain('unknown pool "nope"');
    const pick = JSON.parse((await run(['pick', 'any', '--owner', 'boss', '--json'])).stdout);
    expect(pick.best).toBe('sim:work2');
    expect(pick.leftOut).toEqual(
      expect.arrayContaining([
        { poolId: 'sim:lead', reason: "the lead boss's own account" },
        { poolId: 'sim:work1', reason: 'leased to lane-a by boss' },
      ]),
    );
    const list = JSON.parse((await run(['lease', 'list', '--json'])).stdout);
    expect(list.leases.map((l: { poolId: string; holder: string }) => [l.poolId, l.holder])).toEqual([
      ['sim:work1', 'lane-a'],
    ]);
    expect((await run(['lease', 'release', '@work1', '--as', 'lane-b'])).exitCode).toBe(1);
    expect((await run(['lease', 'release', '@work1', '--as', 'boss'])).exitCode).toBe(0);
    expect(JSON.parse((await run(['lease', 'list', '--json'])).stdout).leases).toEqual([]);
  });

  it('a lease held by a killed process is released after expiry and not before (short TTL via env)', async () => {
    const { run } = setup();
    const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const env = { BULLSWARM_LEASE_TTL_SEC: '60' };
    expect((await run(['agent', 'register', 'lane-x', '--pid', String(holder.pid)], env)).exitCode).toBe(0);
    expect((await run(['lease', '@work1', '--to', 'lane-x', '--owner', 'boss'], env)).exitCode).toBe(0);
    holder.kill('SIGKILL');
    await new Promise((resolve) => holder.once('exit', resolve));
    const agents = JSON.parse((await run(['agent', 'list', '--json'])).stdout);
    expect(agents.agents[0]).toMatchObject({ address: 'lane-x', reachable: false });
    const at = (ms: number) => ({ ...env, BULLSWARM_NOW: new Date(NOW + ms).toISOString() });
    // 59 s after the grant: its holder is dead, but the lease stands.
    expect(JSON.parse((await run(['lease', 'list', '--json'], at(59_000))).stdout).leases).toHaveLength(1);
    expect((await run(['lease', '@work1', '--to', 'lane-y', '--owner', 'boss'], at(59_000))).exitCode).toBe(
      1,
    );
    // At 60 s it is released, and the account can be leased again.
    expect(JSON.parse((await run(['lease', 'list', '--json'], at(60_000))).stdout).leases).toEqual([]);
    expect((await run(['lease', '@work1', '--to', 'lane-y', '--owner', 'boss'], at(60_000))).exitCode).toBe(
      0,
    );
  });
});

describe('bullswarm lead, fencing, notices, escalations', () => {
  it('claim, handover (epoch + 1, lanes notified), fenced commands refused at a lower epoch, returning lead steps down', async () => {
    const { run, repo } = setup();
    expect(
      (
        await run([
          'lead',
          'claim',
          '--plan',
          'p1',
          '--succession',
          'deputy',
          '--lanes',
          'lane-a',
          '--as',
          'boss',
        ])
      ).exitCode,
    ).toBe(0);
    expect((await run(['lead', 'resolve', '--plan', 'p1'])).stdout).toBe('boss\n');
    expect(
      (await run(['notify', 'lead', '--plan', 'p1', '--as', 'lane-a', 'done capacity=ok 64% @work1']))
        .exitCode,
    ).toBe(0);
    const badEpoch = await run([
      'lead',
      'handover',
      'deputy',
      '--plan',
      'p1',
      '--as',
      'boss',
      '--epoch',
      'one',
    ]);
    expect(badEpoch.exitCode).toBe(2);
    expect(badEpoch.stderr).toContain('--epoch "one" is not valid: expected a whole number >= 1');
    expect(
      (await run(['lead', 'handover', 'deputy', '--plan', 'p1', '--as', 'boss', '--epoch', '1'])).exitCode,
    ).toBe(0);
    const record = JSON.parse((await run(['lead', 'show', '--plan', 'p1', '--json'])).stdout).record;
    expect(record).toMatchObject({ lead: 'deputy', epoch: 2 });
    const inbox = JSON.parse((await run(['inbox', '--as', 'lane-a', '--json'])).stdout).notices;
    expect(inbox.at(-1)).toMatchObject({ kind: 'lead-change', epoch: 2 });
    expect(JSON.parse((await run(['inbox', '--as', 'lane-a', '--json'])).stdout).notices).toEqual([]);

    const stale = await run([
      'lead',
      'fence',
      '--plan',
      'p1',
      '--epoch',
      '1',
      '--as',
      'boss',
      '--',
      'git',
      'tag',
      'stale',
    ]);
    expect(stale.exitCode).toBe(1);
    expect(stale.stderr).toContain('fencing: git tag stale refused');
    expect(git(repo, ['tag']).trim()).toBe('');
    const current = await run([
      'lead',
      'fence',
      '--plan',
      'p1',
      '--epoch',
      '2',
      '--as',
      'deputy',
      '--',
      'git',
      'tag',
      'v1',
    ]);
    expect(current.exitCode).toBe(0);
    expect(git(repo, ['tag']).trim()).toBe('v1');
    const againRun = await run(['lead', 'fence', '--plan', 'p1', '--epoch', '2', '--', 'git', 'tag', 'v1']);
    expect(againRun.exitCode, againRun.stderr).toBe(128);
    const check = await run(['lead', 'check', '--plan', 'p1', '--epoch', '1', '--as', 'boss']);
    expect(check.exitCode).toBe(1);
    expect(check.stdout).toContain('step down: epoch 2 (lead deputy) is higher than 1');
    expect((await run(['lead', 'release', '--plan', 'p1', '--as', 'boss'])).exitCode).toBe(1);
    expect((await run(['lead', 'release', '--plan', 'p1', '--as', 'deputy', '--epoch', '2'])).exitCode).toBe(
      0,
    );
  });

  it('an escalation without a class is refused (exit 2); with one it blocks its chain', async () => {
    const { run } = setup();
    const refused = await run([
      'escalate',
      '--plan',
      'p1',
      '--task',
      'cli',
      '--as',
      'lane-a',
      'postgres or sqlite?',
    ]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('a decision the agent owes');
    expect(
      JSON.parse((await run(['escalation', 'list', '--plan', 'p1', '--json'])).stdout).escalations,
    ).toEqual([]);
    expect(
      (
        await run([
          'escalate',
          '--class',
          'C1',
          '--plan',
          'p1',
          '--task',
          'cli',
          '--as',
          'lane-a',
          'production deploy needed',
        ])
      ).exitCode,
    ).toBe(0);
    const status = JSON.parse((await run(['plan', 'status', '--plan', 'p1', '--json'])).stdout);
    expect(status.tasks.map((t: { task: string; state: string }) => [t.task, t.state])).toEqual([
      ['cli', 'blocked'],
      ['docs', 'blocked'],
    ]);
  });
});

describe('bullswarm handoff', () => {
  it('write refuses a planted token (nothing written); accept on a moved head records nothing and says what differs', async () => {
    const { run, repo } = setup();
    const lane = { BULLSWARM_AGENT: 'lane-a', BULLSWARM_POOL: 'sim:work1' };
    expect((await run(['lead', 'claim', '--plan', 'p1', '--as', 'boss'])).exitCode).toBe(0);
    expect((await run(['task', 'claim', 'cli', '--plan', 'p1'], lane)).exitCode).toBe(0);
    writeFileSync(join(repo, 'draft.txt'), 'half done\n');
    const token = `gh${'p'}_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5`;
    const secret = await run(
      [
        'handoff',
        'write',
        '--plan',
        'p1',
        '--task',
        'cli',
        '--step',
        'write',
        '--reason',
        'capacity_critical',
        '--next',
        `push with ${token}`,
      ],
      lane,
    );
    expect(secret.exitCode).toBe(1);
    expect(secret.stderr).toContain('next[0] (github-token)');
    expect(secret.stderr).not.toContain(token);
    const handoffDir = join(repo, 'plans', 'p1', 'analysis_results', 'handoff');
    expect(existsSync(handoffDir) ? readdirSync(handoffDir) : []).toEqual([]);
    const credential = await run(
      [
        'handoff',
        'write',
        '--plan',
        'p1',
        '--task',
        'cli',
        '--step',
        'write',
        '--reason',
        'usage_limit',
        '--decision',
        'use hunter2-staging-pw',
      ],
      { ...lane, STAGING_PASSWORD: 'hunter2-staging-pw' },
    );
    expect(credential.exitCode).toBe(1);
    expect(credential.stderr).toContain('decisions[0].decision (env:STAGING_PASSWORD)');

    const written = await run(
      [
        'handoff',
        'write',
        '--plan',
        'p1',
        '--task',
        'cli',
        '--step',
        'write',
        '--reason',
        'capacity_critical',
        '--done',
        'part 1 :: src/a.txt',
        '--not-verified',
        'cli gate',
        '--next',
        'finish draft.txt',
        '--json',
      ],
      lane,
    );
    expect(written.exitCode, written.stderr).toBe(0);
    const { path, packet } = JSON.parse(written.stdout);
    expect(packet).toMatchObject({
      work: { branch: 'main', uncommitted: ['draft.txt'] },
      done: [{ what: 'part 1', evidence: ['src/a.txt'] }],
      author: { address: 'lane-a', pool: 'sim:work1' },
      capacity: { line: 'capacity=ok 64% @work1 decision=continue' },
    });
    // Hysteresis: the author never takes the task again.
    const back = await run(['task', 'claim', 'cli', '--plan', 'p1'], lane);
    expect(back.exitCode).toBe(1);
    expect(back.stderr).toContain('never resumes the task');

    writeFileSync(join(repo, 'draft.txt'), 'finished by someone\n');
    git(repo, ['add', 'draft.txt']);
    git(repo, ['commit', '-q', '-m', 'moved on']);
    const mismatch = await run(['handoff', 'accept', path, '--as', 'cli-2']);
    expect(mismatch.exitCode).toBe(1);
    expect(mismatch.stderr).toContain('head: packet');
    expect(mismatch.stderr).toContain(
      'uncommitted: packet [draft.txt], checkout [] (no longer uncommitted: draft.txt)',
    );
    const status = JSON.parse((await run(['plan', 'status', '--plan', 'p1', '--json'])).stdout);
    expect(status.tasks[0]).toMatchObject({ task: 'cli', holder: null, state: 'ready' });
    expect(existsSync(path.replace(/\.json$/, '.accepted.json'))).toBe(false);
  });

  it('launch picks another account, leases it and runs the successor through dispatch; accept then succeeds', async () => {
    const { run, repo } = setup();
    const lane = { BULLSWARM_AGENT: 'lane-a', BULLSWARM_POOL: 'sim:work1' };
    expect((await run(['agent', 'register', 'boss', '--pool', 'lead-acct'])).exitCode).toBe(0);
    expect((await run(['lead', 'claim', '--plan', 'p1', '--as', 'boss'])).exitCode).toBe(0);
    expect(
      (await run(['lease', '@work1', '--to', 'lane-a', '--owner', 'boss', '--plan', 'p1'])).exitCode,
    ).toBe(0);
    expect((await run(['task', 'claim', 'cli', '--plan', 'p1'], lane)).exitCode).toBe(0);
    const written = await run(
      [
        'handoff',
        'write',
        '--plan',
        'p1',
        '--task',
        'cli',
        '--step',
        'write',
        '--reason',
        'usage_limit',
        '--json',
      ],
      lane,
    );
    expect(written.exitCode, written.stderr).toBe(0);
    const { path } = JSON.parse(written.stdout);
    const inbox = JSON.parse((await run(['inbox', '--as', 'boss', '--json'])).stdout).notices;
    expect(inbox).toEqual([
      expect.objectContaining({ kind: 'handoff', text: expect.stringContaining(path) }),
    ]);

    const launched = await run(['handoff', 'launch', path, '--owner', 'boss', '--to', 'cli-2', '--json']);
    expect(launched.exitCode, launched.stderr).toBe(0);
    // work1 is spent and lead-acct is the lead's own: the successor runs on work2.
    expect(JSON.parse(launched.stdout)).toMatchObject({
      successor: 'cli-2',
      poolId: 'sim:work2',
      ok: true,
      kind: 'ok',
      accepted: false,
    });
    const leases = JSON.parse((await run(['lease', 'list', '--json'])).stdout).leases;
    expect(leases.map((l: { poolId: string; holder: string }) => [l.poolId, l.holder])).toEqual([
      ['sim:work1', 'lane-a'],
      ['sim:work2', 'cli-2'],
    ]);
    const accepted = await run(['handoff', 'accept', path, '--as', 'cli-2', '--json']);
    expect(accepted.exitCode, accepted.stderr).toBe(0);
    expect(JSON.parse(accepted.stdout).record).toMatchObject({
      acceptedBy: 'cli-2',
      successor: 'cli-2',
      successorPool: 'sim:work2',
    });
    const again = await run(['handoff', 'launch', path, '--owner', 'boss']);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain('already accepted by cli-2');
    // The plan's records are the only change in the checkout.
    expect(
      git(repo, [
        'status',
        '--porcelain',
        '--',
        '.',
        ':(exclude)plans/p1/journal.jsonl',
        ':(exclude)plans/p1/analysis_results',
      ]).trim(),
    ).toBe('');
  });
});
