import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createTestDatabase, nowEnv, type TestDatabase, writeTestHome } from '@bullswarm/test-support';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { baseEnv, bullswarm, CLI_PATH, startBullswarm, tempDirs } from '../../../test/support/cli';
import { createPlanRepo } from '../../../test/support/plan-repo';
import { testPostgresUrl } from '../../../test/support/postgres';

const dirs = tempDirs();
const databases: TestDatabase[] = [];
afterEach(async () => {
  dirs.cleanup();
  for (const db of databases.splice(0)) await db.drop();
});

const NOW = Date.parse('2026-09-10T12:00:00Z');
/** Later than every heartbeat of NOW by more than the agents' staleness (900 s): the lead is unreachable. */
const LATER = NOW + 2 * 3600_000;
const weekly = (usedPct: number) => [{ kind: 'weekly' as const, usedPct, resetsInMin: 3 * 1440 }];
const pgUrl = testPostgresUrl();

/**
 * Two machines on one Postgres store: two homes, each with its own `BULLSWARM_HOST_ID`, the same
 * `BULLSWARM_STORE_URL` and the same pools. Host A works in a git repository with plans/p1/plan.json;
 * host B runs outside any repository and names the plan by id (found through the shared lead record).
 */
async function twoHosts() {
  const db = await createTestDatabase(pgUrl);
  databases.push(db);
  const dir = dirs.make('bullswarm-swarm-pg-e2e-');
  const repo = join(dir, 'repo');
  createPlanRepo(repo, {
    schema: 'bullswarm-plan/v1',
    id: 'p1',
    contract: { goal: 'test' },
    tasks: [{ id: 'cli' }, { id: 'docs', dependsOn: ['cli'] }],
  });
  const host = (id: string, cwd: string) => {
    const home = join(dir, `home-${id}`);
    writeTestHome(home, {
      now: NOW,
      pools: [
        { connector: 'sim', account: 'lead', label: 'lead-acct', windows: weekly(20) },
        { connector: 'sim', account: 'work1', label: 'work1', windows: weekly(36) },
        { connector: 'sim', account: 'work2', label: 'work2', windows: weekly(50) },
      ],
    });
    mkdirSync(cwd, { recursive: true });
    const env = { ...nowEnv(NOW), BULLSWARM_STORE_URL: db.url, BULLSWARM_HOST_ID: id };
    const run = (args: readonly string[], at = NOW) =>
      bullswarm(args, { home, cwd, env: { ...env, ...nowEnv(at) } });
    return Object.assign(run, { home, cwd, env });
  };
  return { repo, a: host('host-a', repo), b: host('host-b', join(dir, 'elsewhere')) };
}

/** Starts `bullswarm dashboard` of a host; its base URL and token once it listens. */
async function startDashboard(host: Awaited<ReturnType<typeof twoHosts>>['b']) {
  const server = startBullswarm(['dashboard', '--port', '0'], {
    home: host.home,
    cwd: host.cwd,
    env: host.env,
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    server.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /bullswarm dashboard: (http:\/\/\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    server.once('exit', () => reject(new Error(`bullswarm dashboard ended before it listened: ${out}`)));
  });
  const at = url.indexOf('/?token=');
  return { server, base: url.slice(0, at), token: url.slice(at + '/?token='.length) };
}

describe.skipIf(pgUrl === '')('swarm commands on a shared Postgres store, two hosts (built CLI)', () => {
  it('a lead claimed, a lease taken and a notice sent on one host are seen on the other', async () => {
    const { repo, a, b } = await twoHosts();
    expect((await a(['agent', 'register', 'boss', '--pool', 'lead-acct'])).exitCode).toBe(0);
    const claim = await a(['lead', 'claim', '--plan', 'p1', '--as', 'boss', '--succession', 'deputy']);
    expect(claim.exitCode, claim.stderr).toBe(0);

    // Host B, outside the repository, finds the plan through the shared lead record.
    const resolved = await b(['lead', 'resolve', '--plan', 'p1']);
    expect(resolved, resolved.stderr).toMatchObject({ exitCode: 0, stdout: 'boss\n' });
    const show = await b(['lead', 'show', '--plan', 'p1', '--json']);
    expect(show.exitCode, show.stderr).toBe(0);
    const shown = JSON.parse(show.stdout);
    expect(shown.record).toMatchObject({ lead: 'boss', epoch: 1, plan: { repo, id: 'p1' } });
    expect(shown.history.map((e: { kind: string }) => e.kind)).toEqual(['claim']);
    const status = JSON.parse((await b(['plan', 'status', '--plan', 'p1', '--json'])).stdout);
    expect(status.lead).toMatchObject({ lead: 'boss', epoch: 1 });
    const agents = JSON.parse((await b(['agent', 'list', '--json'])).stdout).agents;
    expect(agents.map((x: { address: string; host: string }) => [x.address, x.host])).toEqual([
      ['boss', 'host-a'],
    ]);

    // A lease taken on host A holds the account for host B too; the lead's own account neither.
    const lease = await a(['lease', '@work1', '--to', 'lane-a', '--owner', 'boss']);
    expect(lease.exitCode, lease.stderr).toBe(0);
    const refused = await b(['lease', '@work1', '--to', 'lane-b', '--owner', 'boss']);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('is held by lane-a');
    expect((await b(['lease', 'lead-acct', '--to', 'lane-b', '--owner', 'boss'])).stderr).toContain(
      "lead boss's own account",
    );
    const leases = JSON.parse((await b(['lease', 'list', '--json'])).stdout).leases;
    expect(leases.map((l: { poolId: string; holder: string }) => [l.poolId, l.holder])).toEqual([
      ['sim:work1', 'lane-a'],
    ]);
    // Two hosts racing for one free account: exactly one gets it.
    const race = await Promise.all([
      a(['lease', '@work2', '--to', 'lane-c', '--owner', 'boss']),
      b(['lease', '@work2', '--to', 'lane-d', '--owner', 'boss']),
    ]);
    expect(race.map((r) => r.exitCode).sort()).toEqual([0, 1]);
    const loser = race.find((r) => r.exitCode === 1)!;
    expect(loser.stderr).toMatch(/is held by lane-[cd]/);

    // A notice sent on host A is in the inbox on host B, read once across both.
    const sent = await a(['notify', 'lane-b', '--as', 'boss', '--plan', 'p1', 'merge lane/api first']);
    expect(sent.exitCode, sent.stderr).toBe(0);
    const inbox = await b(['inbox', '--as', 'lane-b', '--json']);
    expect(inbox.exitCode, inbox.stderr).toBe(0);
    expect(JSON.parse(inbox.stdout).notices).toEqual([
      expect.objectContaining({ from: 'boss', to: 'lane-b', text: 'merge lane/api first', epoch: 1 }),
    ]);
    expect((await a(['inbox', '--as', 'lane-b'])).stdout).toBe('no new notices\n');
  });

  it('two takeovers at the same epoch on the two hosts: exactly one wins, the other is fenced', async () => {
    const { a, b } = await twoHosts();
    expect((await a(['agent', 'register', 'boss', '--pool', 'lead-acct'])).exitCode).toBe(0);
    expect((await a(['agent', 'register', 'deputy-a'])).exitCode).toBe(0);
    expect((await b(['agent', 'register', 'deputy-b'])).exitCode).toBe(0);
    const claim = await a([
      'lead',
      'claim',
      '--plan',
      'p1',
      '--as',
      'boss',
      '--succession',
      'deputy-a,deputy-b',
    ]);
    expect(claim.exitCode, claim.stderr).toBe(0);
    // While the lead heartbeats, neither host takes over.
    const early = await b(['lead', 'takeover', '--plan', 'p1', '--as', 'deputy-b', '--epoch', '1']);
    expect(early.exitCode).toBe(1);
    expect(early.stderr).toContain('is reachable');

    // Two hours on nobody has heartbeat (the lead is unreachable, and so is deputy-a before
    // deputy-b): both may take over at epoch 1, and they race, one process on each host.
    const [onA, onB] = await Promise.all([
      a(['lead', 'takeover', '--plan', 'p1', '--as', 'deputy-a', '--epoch', '1', '--json'], LATER),
      b(['lead', 'takeover', '--plan', 'p1', '--as', 'deputy-b', '--epoch', '1', '--json'], LATER),
    ]);
    expect([onA.exitCode, onB.exitCode].sort(), `${onA.stderr}${onB.stderr}`).toEqual([0, 1]);
    const [winner, loser, winnerAddress] =
      onA.exitCode === 0 ? [onA, onB, 'deputy-a'] : [onB, onA, 'deputy-b'];
    expect(JSON.parse(winner.stdout)).toMatchObject({ lead: winnerAddress, epoch: 2 });
    expect(loser.stdout).toBe('');
    expect(loser.stderr).toContain('fencing: lead takeover refused for plan repo/p1');
    expect(loser.stderr).toContain(`(current epoch 2, lead ${winnerAddress})`);

    // Both hosts see the one winner and one takeover in the history.
    for (const run of [a, b]) {
      const show = JSON.parse((await run(['lead', 'show', '--plan', 'p1', '--json'], LATER)).stdout);
      expect(show.record).toMatchObject({ lead: winnerAddress, epoch: 2 });
      expect(show.history.map((e: { kind: string; epoch: number }) => [e.kind, e.epoch])).toEqual([
        ['claim', 1],
        ['takeover', 2],
      ]);
    }
    // The old lead, returning at epoch 1, steps down.
    const check = await a(['lead', 'check', '--plan', 'p1', '--as', 'boss', '--epoch', '1'], LATER);
    expect(check.exitCode).toBe(1);
    expect(check.stdout).toContain('step down:');
  });

  it("the dashboard's Swarm page and the MCP swarm tools of one host show and reach the other's records", async () => {
    const { a, b } = await twoHosts();
    expect((await a(['agent', 'register', 'boss', '--pool', 'lead-acct'])).exitCode).toBe(0);
    expect((await a(['lead', 'claim', '--plan', 'p1', '--as', 'boss'])).exitCode).toBe(0);
    expect((await a(['lease', '@work1', '--to', 'lane-a', '--owner', 'boss'])).exitCode).toBe(0);
    expect((await a(['notify', 'lane-b', '--as', 'boss', 'merge lane/api first'])).exitCode).toBe(0);

    // Host B's MCP server: its inbox holds host A's notice; `lead` resolves to host A's lead.
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI_PATH, 'mcp'],
      env: { ...baseEnv(), ...b.env, BULLSWARM_HOME: b.home },
      cwd: b.cwd,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'bullswarm-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const call = async (name: string, args: Record<string, unknown>) => {
        const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
        const blocks = result.content as { text: string }[];
        expect(result.isError, blocks.map((block) => block.text).join('\n')).toBeFalsy();
        return JSON.parse(blocks.at(-1)!.text);
      };
      expect((await call('inbox', { as: 'lane-b' })).notices).toEqual([
        expect.objectContaining({ from: 'boss', text: 'merge lane/api first' }),
      ]);
      expect(await call('notify', { to: 'lead', plan: 'p1', as: 'lane-b', text: 'done' })).toMatchObject({
        to: 'boss',
        epoch: 1,
      });
    } finally {
      await client.close();
    }
    const inbox = JSON.parse((await a(['inbox', '--as', 'boss', '--json'])).stdout);
    expect(inbox.notices).toEqual([expect.objectContaining({ from: 'lane-b', text: 'done' })]);

    // Host B's dashboard: host A's plan, lease, agent and notices on its Swarm page.
    const dashboard = await startDashboard(b);
    try {
      const response = await fetch(`${dashboard.base}/api/swarm`, {
        headers: { 'x-bullswarm-token': dashboard.token },
      });
      expect(response.status).toBe(200);
      const swarm = (await response.json()) as {
        plans: { plan: string; lead: { lead: string; epoch: number }; tasks: { task: string }[] }[];
        leases: { poolId: string; holder: string; poolLabel: string }[];
        agents: { address: string; host: string }[];
        notices: { from: string; to: string }[];
      };
      expect(swarm.plans.map((p) => [p.plan, p.lead.lead, p.lead.epoch])).toEqual([['repo/p1', 'boss', 1]]);
      expect(swarm.plans[0]!.tasks.map((t) => t.task)).toEqual(['cli', 'docs']);
      expect(swarm.leases.map((l) => [l.poolId, l.holder, l.poolLabel])).toEqual([
        ['sim:work1', 'lane-a', 'work1'],
      ]);
      expect(swarm.agents.map((x) => [x.address, x.host])).toEqual([['boss', 'host-a']]);
      expect(swarm.notices.map((n) => [n.from, n.to])).toEqual([
        ['lane-b', 'boss'],
        ['boss', 'lane-b'],
      ]);
    } finally {
      dashboard.server.kill('SIGTERM');
      await dashboard.server;
    }
  });
});
