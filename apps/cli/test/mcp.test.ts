import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isPidAlive as isProcessRunning } from '@bullswarm/connectors/internal';
import { nowEnv, type TestPool, writeTestHome } from '@bullswarm/test-support';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { baseEnv, bullswarm, CLI_PATH, tempDirs } from './support/cli';

/*
 * `bullswarm mcp` end to end: the MCP SDK's own Client over its StdioClientTransport, against the
 * BUILT binary (`node dist/index.js mcp`) on a home of sim pools.
 */

const NOW = Date.parse('2026-11-30T12:00:00Z');
const V = 'bullswarm.workflow.program.v3';
const dirs = tempDirs();
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
  dirs.cleanup();
});

const weekly = (usedPct: number) => [{ kind: 'weekly' as const, usedPct, resetsInMin: 5040 }];

/** A home of sim pools with a work tree, and the environment every process of the test shares. */
function mcpHome(pools: TestPool[]) {
  const root = dirs.make('bullswarm-cli-mcp-');
  const home = join(root, 'home');
  const work = join(root, 'work');
  mkdirSync(work, { recursive: true });
  writeTestHome(home, { now: NOW, pools });
  const env = { ...nowEnv(NOW), BULLSWARM_MCP_PROGRESS_SEC: '0.05' };
  const cli = (args: string[]) => bullswarm(args, { home, env, cwd: work });
  return { root, home, work, env, cli };
}

/** Connects the SDK client to `bullswarm mcp` (stderr collected for the assertions). */
async function connect(h: ReturnType<typeof mcpHome>, extraEnv: Record<string, string> = {}) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI_PATH, 'mcp'],
    env: { ...baseEnv(), ...h.env, BULLSWARM_HOME: h.home, ...extraEnv },
    cwd: h.work,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'bullswarm-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return { client, transport, stderr: () => stderr };
}

const text = (result: CallToolResult, index: number) => (result.content[index] as { text: string }).text;
const json = (result: CallToolResult) => JSON.parse(text(result, result.content.length - 1));

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

interface InflightRow {
  readonly poolId: string;
  readonly workerPid: number | null;
}

/** Polls `bullswarm assignments --json` until `done` holds (bounded: 600 reads, 50 ms apart). */
async function waitForInflight(
  h: ReturnType<typeof mcpHome>,
  done: (rows: InflightRow[]) => boolean,
): Promise<InflightRow[]> {
  for (let i = 0; i < 600; i++) {
    const result = await h.cli(['assignments', '--json']);
    if (result.exitCode === 0) {
      const rows = (JSON.parse(result.stdout) as { inflight: InflightRow[] }).inflight;
      if (done(rows)) return rows;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the in-flight ledger never reached the expected state');
}

describe('bullswarm mcp', () => {
  it('lists every tool with truthful annotations', async () => {
    const h = mcpHome([{ connector: 'sim', account: 'a', windows: weekly(10) }]);
    const { client, stderr } = await connect(h);
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(Object.keys(byName)).toEqual([
      'pools',
      'route',
      'run',
      'workflow_start',
      'workflow_status',
      'workflow_resume',
      'capacity',
      'notify',
      'inbox',
    ]);
    for (const name of ['pools', 'route', 'capacity', 'workflow_status']) {
      expect(byName[name]!.annotations).toMatchObject({
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
      });
    }
    for (const name of ['run', 'workflow_start', 'workflow_resume']) {
      expect(byName[name]!.annotations).toMatchObject({
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: true,
      });
    }
    expect(byName.notify!.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      openWorldHint: false,
    });
    expect(byName.run!.inputSchema.required).toEqual(expect.arrayContaining(['prompt', 'lane']));
    expect(stderr()).toContain('bullswarm mcp: serving on stdio');
  });

  it('writes nothing but JSON-RPC messages on stdout, and exits 0 when stdin closes', async () => {
    const h = mcpHome([{ connector: 'sim', account: 'a', windows: weekly(10) }]);
    const messages = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'pools', arguments: {} } },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'route', arguments: { lane: 'nope' } } },
    ];
    const result = await execa(process.execPath, [CLI_PATH, 'mcp'], {
      env: { ...baseEnv(), ...h.env, BULLSWARM_HOME: h.home },
      extendEnv: false,
      cwd: h.work,
      input: messages.map((m) => JSON.stringify(m)).join('\n') + '\n',
      reject: false,
      timeout: 60_000,
    });
    expect(result.exitCode).toBe(0);
    const lines = String(result.stdout).trim().split('\n');
    const replies = lines.map((line) => JSON.parse(line) as { jsonrpc: string; id?: number });
    expect(replies.every((reply) => reply.jsonrpc === '2.0')).toBe(true);
    expect(
      replies
        .map((reply) => reply.id)
        .filter((id) => id !== undefined)
        .sort(),
    ).toEqual([1, 2, 3]);
    expect(String(result.stderr)).toContain('bullswarm mcp: serving on stdio');
  });

  it('pools and route return the objects of `pools --json` and `run --dry-run --json`; the caller is left out', async () => {
    const h = mcpHome([
      { connector: 'sim', account: 'a', windows: weekly(10) },
      { connector: 'sim', account: 'b', windows: weekly(30), label: 'bee' },
    ]);
    const { client } = await connect(h);
    const pools = await call(client, 'pools');
    expect(pools.isError).toBeFalsy();
    expect(json(pools).pools.map((p: { poolLabel: string }) => p.poolLabel)).toEqual(['sim:a', 'bee']);
    // Read again once the meters are cached, as the CLI's own read now sees them.
    const cli = JSON.parse((await h.cli(['pools', '--json'])).stdout);
    expect(json(await call(client, 'pools'))).toEqual(cli);

    const route = await call(client, 'route', { lane: 'analyze' });
    expect(route.isError).toBeFalsy();
    expect(text(route, 0)).toMatch(/^OK \[sim:a\] most-behind capable pool \(surplus 40\)/);
    expect(json(route)).toEqual(
      JSON.parse((await h.cli(['run', '--lane', 'analyze', '--dry-run', '--json', 'x'])).stdout),
    );
    const pinned = json(await call(client, 'route', { lane: 'analyze', pool: 'bee' }));
    expect(pinned).toMatchObject({ poolId: 'sim:b', poolLabel: 'bee' });
    const filtered = json(await call(client, 'route', { lane: 'analyze', pools: { avoid: ['sim:a'] } }));
    expect(filtered.poolId).toBe('sim:b');

    // Launched by the agent of sim:a (BULLSWARM_POOL, as `run` detects its caller): never its pool.
    const { client: fromA } = await connect(h, { BULLSWARM_POOL: 'sim:a' });
    const routed = json(await call(fromA, 'route', { lane: 'analyze' }));
    expect(routed.poolId).toBe('sim:b');
    expect(routed.rejected).toContainEqual(
      expect.objectContaining({ poolId: 'sim:a', reason: 'the caller' }),
    );
  });

  it('bad arguments are tool errors in the CLI words, and the server keeps serving', async () => {
    const h = mcpHome([{ connector: 'sim', account: 'a', windows: weekly(10) }]);
    const { client } = await connect(h);
    const lane = await call(client, 'route', { lane: 'deploy' });
    expect(lane).toMatchObject({ isError: true });
    expect(text(lane, 0)).toBe('error: lane "deploy" is not a lane: expected one of analyze, build, chore');

    const effort = await call(client, 'run', { lane: 'analyze', effort: 'hgih', prompt: 'x' });
    const cliEffort = await h.cli(['run', '--lane', 'analyze', '--effort', 'hgih', '--dry-run', 'x']);
    expect(cliEffort.exitCode).toBe(2);
    expect(effort.isError).toBe(true);
    expect(`${text(effort, 0)}\n`).toBe(cliEffort.stderr.replace('--effort', 'effort'));

    const pool = await call(client, 'run', { lane: 'analyze', pool: 'nope', prompt: 'x' });
    const cliPool = await h.cli(['run', '--lane', 'analyze', '--worker-pool', 'nope', '--dry-run', 'x']);
    expect(pool.isError).toBe(true);
    expect(`${text(pool, 0)}\n`).toBe(cliPool.stderr);

    const cwd = await call(client, 'run', { lane: 'analyze', prompt: 'x', cwd: 'missing' });
    expect(text(cwd, 0)).toBe(`error: cwd ${join(h.work, 'missing')}: no such directory`);
    const retries = await call(client, 'run', { lane: 'analyze', prompt: 'x', retryAttempts: 11 });
    expect(text(retries, 0)).toBe(
      'error: retryAttempts "11" is not valid: expected a whole number from 0 to 10',
    );
    const provider = await call(client, 'route', { lane: 'analyze', providers: { use: ['nobody'] } });
    expect(text(provider, 0)).toMatch(
      /^error: providers\.use "nobody" is not a provider family: expected one of /,
    );
    // Missing and mistyped arguments: the SDK's schema check, still a tool error.
    const missing = await call(client, 'run', { prompt: 'x' });
    expect(missing.isError).toBe(true);
    expect(text(missing, 0)).toContain('lane');
    const typed = await call(client, 'run', { lane: 'analyze', prompt: 42 });
    expect(typed.isError).toBe(true);
    const status = await call(client, 'workflow_status', { runId: 'nope' });
    expect(text(status, 0)).toBe(
      'error: "nope" is not a run id (expected wf- and letters/digits, as `bullswarm workflow list` shows)',
    );
    expect((await call(client, 'pools')).isError).toBeFalsy();
  });

  it('run answers with the pool, the reason line and the verdict, with progress notifications on the way', async () => {
    const h = mcpHome([
      {
        connector: 'sim',
        account: 'a',
        windows: weekly(10),
        scenario: { default: { scenario: 'slow', ms: 1500, tickMs: 100 } },
      },
    ]);
    const { client } = await connect(h);
    const progress: { progress: number; message?: string }[] = [];
    const result = (await client.callTool(
      { name: 'run', arguments: { lane: 'analyze', prompt: 'Explain the parser' } },
      undefined,
      {
        onprogress: (p) => progress.push(p),
      },
    )) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(text(result, 0)).toBe('sim: done: Explain the parser');
    expect(json(result)).toMatchObject({
      ok: true,
      kind: 'ok',
      poolId: 'sim:a',
      poolLabel: 'sim:a',
      reason: 'most-behind capable pool (surplus 40)',
      answer: 'sim: done: Explain the parser',
    });
    expect(progress[0]?.message).toBe('→ [sim:a] most-behind capable pool (surplus 40)');
    expect(progress.some((p) => /^running on \[sim:a\] for \d+s$/.test(p.message ?? ''))).toBe(true);
    expect(progress.at(-1)?.message).toBe('attempt 1 finished ok');
    expect(progress.map((p) => p.progress)).toEqual(progress.map((_, i) => i + 1));
    expect((await h.cli(['assignments', '--json'])).stdout).toContain('"inflight": []');
    // The run's record, as `bullswarm run` keeps it for the dashboard.
    const record = JSON.parse(readFileSync(join(json(result).runDir, 'run.json'), 'utf8'));
    expect(record).toMatchObject({
      runId: json(result).runId,
      status: 'finished',
      ok: true,
      kind: 'ok',
      poolId: 'sim:a',
    });

    // A failed run is a tool error with the CLI's FAILED line.
    writeFileSync(
      join(h.home, 'sim', 'a', 'scenario.json'),
      JSON.stringify({ default: { scenario: 'crash' } }),
    );
    const failed = await call(client, 'run', { lane: 'analyze', prompt: 'x', retryAttempts: 0 });
    expect(failed.isError).toBe(true);
    expect(text(failed, 0)).toMatch(/^FAILED \[sim:a\] process: /);
    expect(json(failed)).toMatchObject({ ok: false, kind: 'process' });
  });

  it('cancelling a run ends its agent and frees its ledger entry', async () => {
    const h = mcpHome([
      {
        connector: 'sim',
        account: 'a',
        windows: weekly(10),
        scenario: { default: { scenario: 'slow', ms: 120_000 } },
      },
    ]);
    const { client, stderr } = await connect(h);
    const abort = new AbortController();
    const running = client.callTool(
      { name: 'run', arguments: { lane: 'analyze', prompt: 'Take your time' } },
      undefined,
      {
        signal: abort.signal,
      },
    );
    const rows = await waitForInflight(h, (r) => r.length === 1 && r[0]!.workerPid !== null);
    const workerPid = rows[0]!.workerPid!;
    expect(isProcessRunning(workerPid)).toBe(true);
    abort.abort();
    await expect(running).rejects.toThrow();
    await waitForInflight(h, (r) => r.length === 0);
    for (let i = 0; i < 400 && isProcessRunning(workerPid); i++) await new Promise((r) => setTimeout(r, 25));
    expect(isProcessRunning(workerPid)).toBe(false);
    for (let i = 0; i < 400 && !stderr().includes('canceled'); i++)
      await new Promise((r) => setTimeout(r, 25));
    expect(stderr()).toMatch(/bullswarm mcp: run run-\S+ canceled/);
    expect((await call(client, 'pools')).isError).toBeFalsy();
  });

  it('closing the client ends the server and every run it started', async () => {
    const h = mcpHome([
      {
        connector: 'sim',
        account: 'a',
        windows: weekly(10),
        scenario: { default: { scenario: 'slow', ms: 120_000 } },
      },
    ]);
    const { client, transport } = await connect(h);
    const running = client.callTool({
      name: 'run',
      arguments: { lane: 'analyze', prompt: 'Take your time' },
    });
    const rows = await waitForInflight(h, (r) => r.length === 1 && r[0]!.workerPid !== null);
    const serverPid = transport.pid!;
    await client.close();
    await running.catch(() => undefined);
    for (let i = 0; i < 400 && isProcessRunning(serverPid); i++) await new Promise((r) => setTimeout(r, 25));
    expect(isProcessRunning(serverPid)).toBe(false);
    expect(isProcessRunning(rows[0]!.workerPid!)).toBe(false);
    await waitForInflight(h, (r) => r.length === 0);
  });

  it('eight runs at once from one client: all in flight together, each with its own answer', async () => {
    const pools: TestPool[] = ['a', 'b', 'c', 'd'].map((account) => ({
      connector: 'sim',
      account,
      windows: weekly(10),
    }));
    const h = mcpHome(pools);
    const release = join(h.root, 'release');
    for (const account of ['a', 'b', 'c', 'd']) {
      writeFileSync(
        join(h.home, 'sim', account, 'scenario.json'),
        JSON.stringify({ default: { scenario: 'wait', file: release, ms: 110_000 } }),
      );
    }
    const { client } = await connect(h);
    const calls = Array.from(
      { length: 8 },
      (_, i) =>
        client.callTool(
          { name: 'run', arguments: { lane: 'analyze', prompt: `task number ${i}` } },
          undefined,
          {
            timeout: 120_000,
          },
        ) as Promise<CallToolResult>,
    );
    // The sims answer only once the file exists: all eight are in the ledger at the same time.
    const rows = await waitForInflight(h, (r) => r.length === 8 && r.every((row) => row.workerPid !== null));
    expect(new Set(rows.map((row) => row.workerPid)).size).toBe(8);
    expect(
      JSON.parse((await h.cli(['pools', '--json'])).stdout).pools.reduce(
        (n: number, p: { inflight: number }) => n + p.inflight,
        0,
      ),
    ).toBe(8);
    writeFileSync(release, 'go\n');
    const results = await Promise.all(calls);
    results.forEach((result, i) => {
      expect(result.isError).toBeFalsy();
      expect(json(result)).toMatchObject({ ok: true, kind: 'ok', answer: `sim: done: task number ${i}` });
    });
    await waitForInflight(h, (r) => r.length === 0);
  });

  it('workflow_start, workflow_status and workflow_resume drive a program file', async () => {
    const h = mcpHome([
      {
        connector: 'sim',
        account: 'a',
        windows: weekly(10),
        scenario: { sequence: ['crash', 'ok'], default: 'ok' },
      },
    ]);
    const program = join(h.work, 'p.json');
    writeFileSync(
      program,
      JSON.stringify({
        schemaVersion: V,
        name: 'mcp',
        steps: [{ id: 'only', prompt: 'Do it', retryAttempts: 0 }],
      }),
    );
    const { client, stderr } = await connect(h);
    const status = async (runId: string, done: (outcome: string) => boolean) => {
      for (let i = 0; i < 600; i++) {
        const report = json(await call(client, 'workflow_status', { runId }));
        if (done(report.outcome)) return report;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`run ${runId} never finished`);
    };
    const started = await call(client, 'workflow_start', { program: 'p.json' });
    expect(started.isError).toBeFalsy();
    const { runId } = json(started);
    expect(runId).toMatch(/^wf-/);
    // The crash (no retry) fails the step: wait for that end state, not a passing one.
    const first = await status(runId, (outcome) => outcome === 'failed');
    expect(first.outcome).toBe('failed');

    // The server's drive of the run has ended (its claim released) before it is resumed.
    for (let i = 0; i < 600 && !stderr().includes(`workflow ${runId} (start) ended`); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    // Once no process drives it, the tool and `workflow show --json` read the same report.
    const cli = JSON.parse((await h.cli(['workflow', 'show', runId, '--json'])).stdout);
    expect(json(await call(client, 'workflow_status', { runId }))).toEqual(cli);
    expect(cli.outcome).toBe('failed');
    const resumed = await call(client, 'workflow_resume', { runId });
    expect(resumed.isError).toBeFalsy();
    expect(json(resumed).runId).toBe(runId);
    const second = await status(runId, (outcome) => outcome === 'ok');
    expect(second.outcome).toBe('ok');

    const invalid = join(h.root, 'bad.json');
    writeFileSync(
      invalid,
      JSON.stringify({ schemaVersion: V, steps: [{ id: 'x', prompt: 'y', lane: 'deploy' }] }),
    );
    const bad = await call(client, 'workflow_start', { program: invalid });
    expect(bad.isError).toBe(true);
    expect(text(bad, 0)).toContain(
      `${invalid}: $.steps[0].lane: unknown lane "deploy"; expected one of analyze, build, chore`,
    );
    expect(existsSync(join(h.home, 'workflows'))).toBe(true);
  });

  it("capacity gives the caller's own line; notify and inbox pass notices", async () => {
    const h = mcpHome([{ connector: 'sim', account: 'a', windows: weekly(40) }]);
    const { client } = await connect(h, { BULLSWARM_POOL: 'sim:a', BULLSWARM_AGENT: 'lane-a' });
    const capacity = await call(client, 'capacity');
    expect(capacity.isError).toBeFalsy();
    expect(json(capacity)).toMatchObject({ poolId: 'sim:a', verdict: 'ok' });
    expect(text(capacity, 0)).toBe(`${json(capacity).line}\n${json(capacity).reason}`);
    const named = await call(client, 'capacity', { pool: 'nope' });
    expect(named.isError).toBe(true);

    const sent = await call(client, 'notify', { to: 'lane-b', text: 'exact flag name?', ask: true });
    expect(sent.isError).toBeFalsy();
    expect(text(sent, 0)).toMatch(/^notice #\d+ to lane-b$/);
    const inbox = await call(client, 'inbox', { as: 'lane-b' });
    expect(json(inbox)).toMatchObject({
      address: 'lane-b',
      notices: [expect.objectContaining({ from: 'lane-a', kind: 'ask', text: 'exact flag name?' })],
    });
    // Read once.
    expect(text(await call(client, 'inbox', { as: 'lane-b' }), 0)).toBe('no new notices');
    // The CLI sees the same records.
    await call(client, 'notify', { to: 'lane-b', text: 'second' });
    expect((await h.cli(['inbox', '--as', 'lane-b'])).stdout).toMatch(/text from lane-a: second\n$/);
    expect((await call(client, 'inbox', {})).isError).toBeFalsy();
    const noAddress = await call(client, 'notify', { to: 'Bad Address!', text: 'x' });
    expect(noAddress.isError).toBe(true);
  });
});
