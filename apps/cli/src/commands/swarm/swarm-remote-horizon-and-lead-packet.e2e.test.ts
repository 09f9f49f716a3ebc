import { join } from 'node:path';
import { git } from '@bullswarm/swarm';
import { nowEnv, type TestPool, writeTestHome } from '@bullswarm/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { bullswarm, tempDirs } from '../../../test/support/cli';
import { createPlanRepo } from '../../../test/support/plan-repo';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const NOW = Date.parse('2026-09-10T12:00:00Z');
const HOUR = 3_600_000;
const weekly = (usedPct: number, resetsInMin = 3 * 1440) => [
  { kind: 'weekly' as const, usedPct, resetsInMin },
];

/** A home with `pools`, and a repository with plans/p1/plan.json (extra plan fields merged in) pushed to a bare origin. */
function setup(pools: readonly TestPool[], planExtra: Record<string, unknown> = {}) {
  const dir = dirs.make('bullswarm-swarm-item7-');
  const home = join(dir, 'home');
  writeTestHome(home, { now: NOW, pools });
  const repo = join(dir, 'repo');
  createPlanRepo(repo, {
    schema: 'bullswarm-plan/v1',
    id: 'p1',
    contract: { goal: 'test' },
    tasks: [{ id: 'api' }, { id: 'cli' }, { id: 'docs', dependsOn: ['api'] }],
    ...planExtra,
  });
  const origin = join(dir, 'origin.git');
  git(dir, ['init', '-q', '--bare', '-b', 'main', origin]);
  git(repo, ['remote', 'add', 'origin', origin]);
  git(repo, ['push', '-q', '-u', 'origin', 'main']);
  const run = (args: readonly string[], env: Record<string, string | undefined> = {}) =>
    bullswarm(args, { home, cwd: repo, env: { ...nowEnv(NOW), ...env } });
  return { dir, repo, origin, run };
}

const TWO: TestPool[] = [
  { connector: 'sim', account: 'work1', label: 'work1', windows: weekly(36) },
  { connector: 'sim', account: 'work2', label: 'work2', windows: weekly(50) },
];

describe('lead fence reads the remote first (built CLI)', () => {
  it('runs the tag when the remote has not moved, refuses a merge once it has (exit 1, nothing ran)', async () => {
    const { dir, repo, origin, run } = setup(TWO);
    expect((await run(['lead', 'claim', '--plan', 'p1', '--as', 'boss'])).exitCode).toBe(0);
    const tagged = await run([
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
      'v1',
    ]);
    expect(tagged.exitCode, tagged.stderr).toBe(0);
    expect(tagged.stderr).toMatch(
      /^remote origin read first: refs\/heads\/main [0-9a-f]{12} \(at HEAD\), refs\/tags\/v1 - \(not on the remote yet\)$/m,
    );

    // Someone pushes to main from another clone.
    const other = join(dir, 'other');
    git(dir, ['clone', '-q', origin, other]);
    git(other, [
      '-c',
      'user.email=o@example.invalid',
      '-c',
      'user.name=o',
      'commit',
      '-q',
      '--allow-empty',
      '-m',
      'theirs',
    ]);
    git(other, ['push', '-q', 'origin', 'main']);
    git(repo, ['branch', 'lane/x']);
    const head = git(repo, ['rev-parse', 'HEAD']).trim();
    const moved = await run([
      'lead',
      'fence',
      '--plan',
      'p1',
      '--epoch',
      '1',
      '--',
      'git',
      'merge',
      '--no-ff',
      '-m',
      'x',
      'lane/x',
    ]);
    expect(moved.exitCode).toBe(1);
    expect(moved.stderr).toMatch(
      /error: origin refs\/heads\/main is at [0-9a-f]{12}: the remote moved past HEAD/,
    );
    expect(git(repo, ['rev-parse', 'HEAD']).trim()).toBe(head);
    const show = await run(['lead', 'show', '--plan', 'p1']);
    expect(show.stdout).toMatch(
      /fence-refused epoch 1 lead boss \(git merge --no-ff -m x lane\/x \(remote: origin refs\/heads\/main is at/,
    );
    // --remote names another remote: one that does not exist cannot be read, so nothing runs.
    const unknown = await run([
      'lead',
      'fence',
      '--plan',
      'p1',
      '--epoch',
      '1',
      '--remote',
      'nowhere',
      '--',
      'git',
      'tag',
      'v2',
    ]);
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toContain('error: the remote nowhere cannot be read');
    expect(git(repo, ['tag']).trim()).toBe('v1');
  });
});

describe('a plan parks when no account resets within its horizon (built CLI)', () => {
  const SPENT: TestPool[] = [
    { connector: 'sim', account: 'work1', label: 'work1', windows: weekly(97, 3 * 1440) },
    { connector: 'sim', account: 'work2', label: 'work2', windows: weekly(95, 120) },
  ];

  it('pick --plan parks it with the soonest reset; plan status says so, also in --json', async () => {
    const { run } = setup(SPENT, { horizon: '1h' });
    expect((await run(['lead', 'claim', '--plan', 'p1', '--as', 'boss'])).exitCode).toBe(0);
    const pick = await run(['pick', 'any', '--owner', 'boss', '--plan', 'p1']);
    expect(pick.exitCode).toBe(1);
    expect(pick.stderr).toContain(
      "the plan is parked (park #1, escalation #1 C7): no declared account of kind any has room and none resets within the plan's horizon 1h: the soonest reset is 2026-09-10T14:00:00.000Z (sim:work2)",
    );
    const status = await run(['plan', 'status', '--plan', 'p1']);
    expect(status.stdout).toContain('horizon 1h');
    expect(status.stdout).toContain('PARKED since 2026-09-10T12:00:00.000Z');
    expect(status.stdout).toContain('soonest reset 2026-09-10T14:00:00.000Z (sim:work2); escalation #1 (C7)');
    const json = JSON.parse((await run(['plan', 'status', '--plan', 'p1', '--json'])).stdout);
    expect(json).toMatchObject({
      horizon: '1h',
      horizonMs: HOUR,
      parked: {
        since: '2026-09-10T12:00:00.000Z',
        by: 'boss',
        soonestReset: { poolId: 'sim:work2', at: '2026-09-10T14:00:00.000Z' },
        horizon: '1h',
        escalation: 1,
      },
      openEscalations: [expect.objectContaining({ id: 1, class: 'C7' })],
    });
    // Asked again: the same park, no second escalation.
    expect((await run(['pick', 'any', '--owner', 'boss', '--plan', 'p1'])).stderr).toContain(
      'park #1, escalation #1',
    );
    expect(
      JSON.parse((await run(['escalation', 'list', '--plan', 'p1', '--json'])).stdout).escalations,
    ).toHaveLength(1);
    // The developer's answer moves the plan again.
    expect((await run(['escalation', 'answer', '1', '--plan', 'p1', 'adding an account'])).exitCode).toBe(0);
    expect(JSON.parse((await run(['plan', 'status', '--plan', 'p1', '--json'])).stdout).parked).toBeNull();
  });

  it('within the horizon (default 24h) the pick says to wait and nothing parks; a malformed horizon is exit 2', async () => {
    const { run } = setup(SPENT);
    await run(['lead', 'claim', '--plan', 'p1', '--as', 'boss']);
    const pick = await run(['pick', 'any', '--owner', 'boss', '--plan', 'p1']);
    expect(pick.exitCode).toBe(1);
    expect(pick.stderr).toContain(
      "wait: sim:work2 resets at 2026-09-10T14:00:00.000Z, within the plan's horizon",
    );
    expect(JSON.parse((await run(['plan', 'status', '--plan', 'p1', '--json'])).stdout)).toMatchObject({
      horizon: '24h',
      parked: null,
    });
    const bad = setup(TWO, { horizon: 'later' });
    const status = await bad.run(['plan', 'status', '--plan', 'p1']);
    expect(status.exitCode).toBe(2);
    expect(status.stderr).toContain('plan.json: horizon: expected a duration such as 5h, 90m, 2d or 1d12h');
  });
});

describe('the lead packet’s lane table, release order and pending merges (built CLI)', () => {
  it('handoff write takes them, and handoff show, handoff accept and lead show print them', async () => {
    const { repo, run } = setup(TWO);
    await run(['lead', 'claim', '--plan', 'p1', '--as', 'boss', '--succession', 'deputy']);
    await run(['task', 'claim', 'api', '--plan', 'p1', '--as', 'lane-a']);
    await run(['task', 'done', 'api', '--plan', 'p1', '--as', 'lane-a']);
    git(repo, ['branch', 'lane/api']);
    const written = await run([
      'handoff',
      'write',
      '--plan',
      'p1',
      '--task',
      'lead',
      '--step',
      'merge',
      '--reason',
      'lead_handover',
      '--release-order',
      'api,cli,docs',
      '--pending-merge',
      'lane/api',
      '--as',
      'boss',
      '--json',
    ]);
    expect(written.exitCode, written.stderr).toBe(0);
    const { path, packet } = JSON.parse(written.stdout);
    const head = git(repo, ['rev-parse', 'lane/api']).trim();
    expect(packet).toMatchObject({
      lanes: [
        { task: 'api', address: 'lane-a', state: 'done' },
        { task: 'cli', address: null, state: 'ready' },
        { task: 'docs', address: null, state: 'ready' },
      ],
      releaseOrder: ['api', 'cli', 'docs'],
      pendingMerges: [{ branch: 'lane/api', into: 'main', head }],
    });
    const shown = await run(['handoff', 'show', path]);
    expect(shown.exitCode, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('lanes (3):\n  api done lane-a\n  cli ready -\n  docs ready -\n');
    expect(shown.stdout).toContain('release order: api → cli → docs');
    expect(shown.stdout).toContain(`pending merges: lane/api → main at ${head.slice(0, 12)}`);
    const lead = await run(['lead', 'show', '--plan', 'p1']);
    expect(lead.stdout).toContain(`lead packet ${path} by boss, accepted by -`);
    expect(lead.stdout).toContain('  release order: api → cli → docs');
    expect(
      JSON.parse((await run(['lead', 'show', '--plan', 'p1', '--json'])).stdout).leadPacket,
    ).toMatchObject({
      path,
      releaseOrder: ['api', 'cli', 'docs'],
      pendingMerges: [{ branch: 'lane/api', head }],
    });
    const accepted = await run(['handoff', 'accept', path, '--as', 'deputy']);
    expect(accepted.exitCode, accepted.stderr).toBe(0);
    expect(accepted.stdout).toContain(`pending merges: lane/api → main at ${head.slice(0, 12)}`);

    // Validated: a task the plan does not have, a branch that does not exist, fields on a lane packet.
    const bad = (extra: string[], task = 'lead', as = 'deputy') =>
      run([
        'handoff',
        'write',
        '--plan',
        'p1',
        '--task',
        task,
        '--step',
        'x',
        '--reason',
        task === 'lead' ? 'lead_handover' : 'capacity_low',
        '--as',
        as,
        ...extra,
      ]);
    await run(['lead', 'handover', 'deputy', '--plan', 'p1', '--as', 'boss']);
    const order = await bad(['--release-order', 'api,nope']);
    expect(order.exitCode).toBe(2);
    expect(order.stderr).toContain(
      'releaseOrder[1] "nope" is not valid: expected a task of the plan (api, cli, docs)',
    );
    const merge = await bad(['--pending-merge', 'lane/gone:main']);
    expect(merge.exitCode).toBe(2);
    expect(merge.stderr).toContain('pendingMerges[0].branch "lane/gone" is not valid');
    await run(['task', 'claim', 'cli', '--plan', 'p1', '--as', 'lane-b']);
    const lane = await bad(['--release-order', 'cli'], 'cli', 'lane-b');
    expect(lane.exitCode).toBe(2);
    expect(lane.stderr).toContain('--release-order');
    expect(lane.stderr).toContain('only a lead packet (task "lead") carries a lane table');
  });
});

describe('asks, long tasks, profiles (built CLI)', () => {
  it('takeover --reason ask_timeout is checked from the notices, not taken on the taker’s word', async () => {
    const { run } = setup(TWO);
    await run(['agent', 'register', 'boss']);
    await run(['agent', 'register', 'deputy']);
    await run(['lead', 'claim', '--plan', 'p1', '--as', 'boss', '--succession', 'deputy']);
    const take = (at: number) =>
      run(['lead', 'takeover', '--plan', 'p1', '--as', 'deputy', '--reason', 'ask_timeout'], nowEnv(at));
    const early = await take(NOW);
    expect(early.exitCode).toBe(1);
    expect(early.stderr).toContain(
      'ask_timeout needs 2 asks to the lead boss (epoch 1) unanswered past their timeout; the notices show 0',
    );
    for (const text of ['base branch?', 'still there?']) {
      const asked = await run([
        'notify',
        'lead',
        '--plan',
        'p1',
        '--as',
        'deputy',
        '--ask',
        '--timeout',
        '60',
        text,
      ]);
      expect(asked.stdout).toMatch(
        /^notice #\d+ to boss \(an ask: times out 2026-09-10T12:01:00\.000Z unless boss replies\)/,
      );
    }
    const inbox = await run(['inbox', '--as', 'boss'], nowEnv(NOW + 30_000));
    expect(inbox.stdout).toContain(
      '(reply before 2026-09-10T12:01:00.000Z: `bullswarm notify deputy --re 2 <answer>`)',
    );
    expect((await take(NOW + 59_000)).stderr).toContain('the notices show 0');
    const late = await take(NOW + 61_000);
    expect(late.exitCode, late.stderr).toBe(0);
    const show = await run(['lead', 'show', '--plan', 'p1'], nowEnv(NOW + 61_000));
    expect(show.stdout).toMatch(
      /takeover epoch 2 lead deputy \(asks to boss unanswered past their timeout: #\d+ from deputy timed out 2026-09-10T12:01:00\.000Z, #\d+ from deputy/,
    );
    const noAsk = await run(['notify', 'lane-a', '--timeout', '60', 'hello']);
    expect(noAsk.exitCode).toBe(2);
    expect(noAsk.stderr).toContain('--timeout is the wait of an ask: add --ask');
  });

  it('pick --long puts accounts of known capacity first; a cap names an account by its profile', async () => {
    const { run } = setup([
      { connector: 'sim', account: 'blind', meter: { type: 'none' } },
      { connector: 'sim', account: 'work1', label: 'w1', windows: weekly(60) },
    ]);
    const order = async (extra: string[]) =>
      JSON.parse((await run(['pick', 'any', '--owner', 'boss', '--json', ...extra])).stdout).ranked.map(
        (r: { poolId: string }) => r.poolId,
      );
    expect(await order([])).toEqual(['sim:blind', 'sim:work1']);
    expect(await order(['--long'])).toEqual(['sim:work1', 'sim:blind']);
    const capped = await run(['capacity', '--pool', 'sim:work1'], { AGENTKIT_CAPACITY_CAP: '@work1=8' });
    expect(capped.stdout).toBe('capacity=critical 8% @w1 decision=hand-off\n');
  });
});
