import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git } from '@bullswarm/swarm';
import { nowEnv, type TestPool, writeTestHome } from '@bullswarm/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { bullswarm, tempDirs } from '../../../test/support/cli';
import { createPlanRepo } from '../../../test/support/plan-repo';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const NOW = Date.parse('2026-09-10T12:00:00Z');
const weekly = (usedPct: number, resetsInMin = 3 * 1440) => [
  { kind: 'weekly' as const, usedPct, resetsInMin },
];
const PLAN = {
  schema: 'bullswarm-plan/v1',
  id: 'p1',
  contract: { goal: 'test' },
  tasks: [
    { id: 'cli', steps: ['write', 'verify'] },
    { id: 'docs', dependsOn: ['cli'] },
  ],
};

/** A home with sim pools and a git repository with plans/p1/plan.json (the built CLI runs on it). */
function setup(
  pools: readonly TestPool[] = [
    { connector: 'sim', account: 'work1', label: 'work1', windows: weekly(36) },
    { connector: 'sim', account: 'work2', label: 'work2', windows: weekly(50) },
  ],
) {
  const dir = dirs.make('bullswarm-swarm-audit-');
  const home = join(dir, 'home');
  writeTestHome(home, { now: NOW, pools });
  const repo = join(dir, 'repo');
  const planFile = createPlanRepo(repo, PLAN);
  const run = (args: readonly string[], env: Record<string, string | undefined> = {}) =>
    bullswarm(args, { home, cwd: repo, env: { ...nowEnv(NOW), ...env } });
  return { dir, home, repo, planFile, run };
}

describe('lead succession by default (built CLI)', () => {
  it('claim without --succession: a lane takes over; after a handover a remaining lane takes over', async () => {
    const { run } = setup();
    for (const lane of ['lane-a', 'lane-b', 'lane-c'])
      expect((await run(['agent', 'register', lane])).exitCode).toBe(0);
    expect(
      (await run(['lead', 'claim', '--plan', 'p1', '--lanes', 'lane-a,lane-b,lane-c', '--as', 'boss']))
        .exitCode,
    ).toBe(0);
    const show = await run(['lead', 'show', '--plan', 'p1']);
    expect(show.stdout).toContain('takeover order lane-a (lane), lane-b (lane), lane-c (lane)');
    const json = JSON.parse((await run(['lead', 'show', '--plan', 'p1', '--json'])).stdout);
    expect(json.effectiveSuccession.map((c: { address: string }) => c.address)).toEqual([
      'lane-a',
      'lane-b',
      'lane-c',
    ]);
    // boss never registered: it is unreachable, and the first lane takes over.
    const took = await run(['lead', 'takeover', '--plan', 'p1', '--as', 'lane-a']);
    expect(took.exitCode, took.stderr).toBe(0);
    expect(took.stdout).toBe('lane-a took over repo/p1 at epoch 2\n');
    // lane-a hands over to lane-b and leaves (deregisters): lane-c, still a lane, can take over.
    expect((await run(['lead', 'handover', 'lane-b', '--plan', 'p1', '--as', 'lane-a'])).exitCode).toBe(0);
    expect((await run(['agent', 'deregister', 'lane-b'])).exitCode).toBe(0);
    expect((await run(['agent', 'deregister', 'lane-a'])).exitCode).toBe(0);
    const second = await run(['lead', 'takeover', '--plan', 'p1', '--as', 'lane-c']);
    expect(second.exitCode, second.stderr).toBe(0);
    expect((await run(['lead', 'resolve', '--plan', 'p1'])).stdout).toBe('lane-c\n');
    // Released: nobody takes it over (it is claimed again), and show says so.
    expect((await run(['lead', 'release', '--plan', 'p1', '--as', 'lane-c'])).exitCode).toBe(0);
    const released = await run(['lead', 'show', '--plan', 'p1']);
    expect(released.stdout).toContain('takeover order - (released: claim it again)');
    const releasedJson = JSON.parse((await run(['lead', 'show', '--plan', 'p1', '--json'])).stdout);
    expect(releasedJson.effectiveSuccession).toEqual([]);
  });
});

describe('handoff packets (built CLI)', () => {
  it('a lead packet by anyone but the current lead is refused (exit 1), nothing written or sent', async () => {
    const { run, repo } = setup();
    expect((await run(['lead', 'claim', '--plan', 'p1', '--as', 'boss'])).exitCode).toBe(0);
    const args = [
      'handoff',
      'write',
      '--plan',
      'p1',
      '--task',
      'lead',
      '--step',
      'table',
      '--reason',
      'lead_handover',
    ];
    const refused = await run([...args, '--as', 'lane-a']);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('only the current lead boss (epoch 1)');
    const handoffDir = join(repo, 'plans', 'p1', 'analysis_results', 'handoff');
    expect(existsSync(handoffDir) ? readdirSync(handoffDir) : []).toEqual([]);
    expect(JSON.parse((await run(['inbox', '--as', 'boss', '--json'])).stdout).notices).toEqual([]);
    const byLead = await run([...args, '--as', 'boss']);
    expect(byLead.exitCode, byLead.stderr).toBe(0);
  });

  it('the packet repository carries no password or query string from the origin URL', async () => {
    const { run, repo } = setup();
    git(repo, ['remote', 'add', 'origin', 'https://user:s3cretpw@git.example.com/x.git?private_token=abc']);
    expect((await run(['lead', 'claim', '--plan', 'p1', '--as', 'boss'])).exitCode).toBe(0);
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
      { BULLSWARM_AGENT: 'lane-a' },
    );
    expect(written.exitCode, written.stderr).toBe(0);
    expect(JSON.parse(written.stdout).packet.work.repository).toBe('https://git.example.com/x.git');
    expect(written.stdout).not.toContain('s3cretpw');
  });
});

describe('input validation (built CLI)', () => {
  it('lead claim validates the plan as plan status does: exit 2 naming file and field, nothing written', async () => {
    const { run, repo, planFile } = setup();
    const journal = join(repo, 'plans', 'p1', 'journal.jsonl');
    const cases: [unknown, string][] = [
      ['{ not json', 'plan.json'],
      [{ ...PLAN, tasks: [] }, 'tasks'],
      [{ ...PLAN, tasks: [{ id: 'a', dependsOn: ['nope'] }] }, 'tasks[0].dependsOn[0]: no task "nope"'],
      [{ ...PLAN, tasks: [{ id: 'a', tier: 'ultra' }] }, 'tasks[0].tier: "ultra" is not a tier'],
    ];
    for (const [content, field] of cases) {
      writeFileSync(planFile, typeof content === 'string' ? content : JSON.stringify(content));
      const claim = await run(['lead', 'claim', '--plan', 'p1', '--as', 'boss']);
      expect(claim.exitCode, claim.stderr).toBe(2);
      expect(claim.stderr).toContain(planFile);
      expect(claim.stderr).toContain(field);
      expect(existsSync(journal)).toBe(false);
      expect(JSON.parse((await run(['lead', 'show', '--plan', 'p1', '--json'])).stdout).record).toBeNull();
    }
    const tier = await run(['lead', 'claim', '--plan', 'p1', '--as', 'boss']);
    expect(tier.stderr).toContain('expected one of high, low, medium');
  });

  it('lead claim: a tier every declared pool gave up (<tier>=none) is not runnable', async () => {
    const { run, planFile } = setup([
      { connector: 'sim', account: 'work1', label: 'work1', windows: weekly(36), models: { medium: null } },
      { connector: 'sim', account: 'work2', label: 'work2', windows: weekly(50), models: { medium: null } },
    ]);
    writeFileSync(planFile, JSON.stringify({ ...PLAN, tasks: [{ id: 'a', tier: 'medium' }] }));
    const claim = await run(['lead', 'claim', '--plan', 'p1', '--as', 'boss']);
    expect(claim.exitCode, claim.stderr).toBe(2);
    expect(claim.stderr).toContain('tasks[0].tier: "medium" is not a tier any declared account can run');
    expect(claim.stderr).toContain('expected one of high, low');
    writeFileSync(planFile, JSON.stringify({ ...PLAN, tasks: [{ id: 'a', tier: 'high' }] }));
    expect((await run(['lead', 'claim', '--plan', 'p1', '--as', 'boss'])).exitCode).toBe(0);
  });

  it('escalate --task with a task not in the plan: exit 2 listing the tasks, nothing recorded', async () => {
    const { run } = setup();
    const refused = await run([
      'escalate',
      '--class',
      'C1',
      '--plan',
      'p1',
      '--task',
      'nosuch',
      '--as',
      'lane-a',
      'deploy?',
    ]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(
      '--task "nosuch" is not valid: expected a task of plan repo/p1 (cli, docs)',
    );
    expect(
      JSON.parse((await run(['escalation', 'list', '--plan', 'p1', '--json'])).stdout).escalations,
    ).toEqual([]);
  });

  it('swarm drill --dir naming a file, or empty: exit 2 naming --dir', async () => {
    const { dir } = setup();
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x\n');
    const onFile = await bullswarm(['swarm', 'drill', '--dir', file]);
    expect(onFile.exitCode).toBe(2);
    expect(onFile.stderr).toContain('--dir');
    expect(onFile.stderr).toContain('a new or empty directory');
    expect(onFile.stderr).not.toContain('looks like a bug');
    const empty = await bullswarm(['swarm', 'drill', '--dir', '']);
    expect(empty.exitCode).toBe(2);
    expect(empty.stderr).toContain('--dir "" is not valid');
  });
});

describe('pick with an expiring pool (built CLI)', () => {
  it('ranks the urgent pool and lists the others as not urgent while it is expiring', async () => {
    const { run } = setup([
      { connector: 'sim', account: 'soon', label: 'soon', windows: weekly(40, 600) },
      { connector: 'sim', account: 'work1', label: 'work1', windows: weekly(10) },
      { connector: 'sim', account: 'work2', label: 'work2', windows: weekly(30) },
    ]);
    const pick = await run(['pick', 'any', '--owner', 'boss', '--json']);
    expect(pick.exitCode, pick.stderr).toBe(0);
    const json = JSON.parse(pick.stdout);
    expect(json.ranked.map((r: { poolId: string }) => r.poolId)).toEqual(['sim:soon']);
    expect(json.leftOut).toEqual([
      { poolId: 'sim:work1', reason: 'not urgent while sim:soon is expiring' },
      { poolId: 'sim:work2', reason: 'not urgent while sim:soon is expiring' },
    ]);
    const text = await run(['pick', 'any', '--owner', 'boss']);
    expect(text.stderr).toContain('left out sim:work1: not urgent while sim:soon is expiring');
  });
});

describe('smaller refusals (built CLI)', () => {
  it('an empty address in --succession is exit 2, not a silent wipe', async () => {
    const { run } = setup();
    expect(
      (await run(['lead', 'claim', '--plan', 'p1', '--succession', 'deputy', '--as', 'boss'])).exitCode,
    ).toBe(0);
    for (const value of [',', '']) {
      const wipe = await run(['lead', 'claim', '--plan', 'p1', '--succession', value, '--as', 'boss']);
      expect(wipe.exitCode).toBe(2);
      expect(wipe.stderr).toContain('--succession');
      expect(wipe.stderr).toContain('none of them empty');
    }
    const record = JSON.parse((await run(['lead', 'show', '--plan', 'p1', '--json'])).stdout).record;
    expect(record.succession).toEqual(['deputy']);
  });

  it('lead fence with a missing binary exits 127 and says the command was not found', async () => {
    const { run } = setup();
    expect((await run(['lead', 'claim', '--plan', 'p1', '--as', 'boss'])).exitCode).toBe(0);
    const fenced = await run([
      'lead',
      'fence',
      '--plan',
      'p1',
      '--epoch',
      '1',
      '--as',
      'boss',
      '--',
      'bullswarm-nosuchbinary',
    ]);
    expect(fenced.exitCode).toBe(127);
    expect(fenced.stderr).toContain('bullswarm-nosuchbinary: command not found');
  });

  it('lease release needs --as (exit 2) and leaves the lease held', async () => {
    const { run } = setup();
    expect((await run(['lease', '@work1', '--to', 'lane-a', '--owner', 'boss'])).exitCode).toBe(0);
    const anonymous = await run(['lease', 'release', '@work1']);
    expect(anonymous.exitCode).toBe(2);
    expect(anonymous.stderr).toContain('--as');
    expect(JSON.parse((await run(['lease', 'list', '--json'])).stdout).leases).toHaveLength(1);
    expect((await run(['lease', 'release', '@work1', '--as', 'boss'])).exitCode).toBe(0);
  });

  it('errors never echo a secret: a token as --step or as an unknown --content key is shown redacted', async () => {
    const { run, dir } = setup();
    const token = `gh${'p'}_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5`;
    const lane = { BULLSWARM_AGENT: 'lane-a' };
    const base = ['handoff', 'write', '--plan', 'p1', '--task', 'cli', '--reason', 'usage_limit'];
    const step = await run([...base, '--step', token], lane);
    expect(step.exitCode).toBe(2);
    expect(step.stderr).toContain('--step "[redacted github-token]" is not valid');
    expect(step.stderr).not.toContain(token);
    const content = join(dir, 'content.json');
    writeFileSync(content, JSON.stringify({ [token]: 'x' }));
    const key = await run([...base, '--step', 'write', '--content', content], lane);
    expect(key.exitCode).toBe(2);
    expect(key.stderr).toContain('[redacted github-token]');
    expect(key.stderr).not.toContain(token);
  });
});
