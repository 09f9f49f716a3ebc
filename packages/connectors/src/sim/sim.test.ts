import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tempDirs } from '@bullswarm/test-support/temp-dirs';
import { afterAll, describe, expect, it } from 'vitest';
import { loadBuiltinConnectors } from '../loading';
import { connectorManifestSchema } from '../manifest/connector-manifest-schema';
import { createManifestConnector, type ManifestConnector } from '../manifest/create-manifest-connector';
import type { ConnectorV1, ConnectorV1Outcome, ConnectorV1ParsedOutput } from '../spec/v1';
import type { SimMeterReading } from './sim-meter';

const scratchDirs = tempDirs();
afterAll(() => scratchDirs.cleanup());

const NOW_ISO = '2026-11-30T12:00:00.000Z';
const NOW = Date.parse(NOW_ISO);

const builtins = new Map(
  (await loadBuiltinConnectors()).connectors.map((l) => [
    l.connector.connectorId,
    l.connector as ManifestConnector,
  ]),
);
const simClaude = builtins.get('sim') as ManifestConnector;
const echo = builtins.get('echo') as ManifestConnector;
/** The sim connector speaking Codex exec --json instead (same manifest, other format). */
const simCodex = createManifestConnector(
  connectorManifestSchema.parse({
    ...simClaude.manifest,
    id: 'sim-codex',
    invocation: { ...simClaude.manifest.invocation, args: ['--format', 'codex'], outputArgs: [] },
    outputFormat: 'codex-jsonl',
  }),
  { sourcePath: 'test' },
);

type Run = {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  signal: string | null;
  parsed: ConnectorV1ParsedOutput;
  outcome: ConnectorV1Outcome;
};

type RunOptions = {
  env?: Record<string, string>;
  cwd?: string;
  model?: string;
  timeZone?: string;
  stdinPrompt?: boolean;
  /** Kill the process (group) with SIGTERM once stdout has this many bytes. */
  killAfterOutput?: boolean;
  onSpawn?: (pid: number) => void;
};

function runConnector(connector: ConnectorV1, prompt: string, options: RunOptions = {}): Promise<Run> {
  const cwd = options.cwd ?? scratchDirs.make('bullswarm-sim-cwd-');
  const invocation = connector.buildInvocation({
    prompt,
    ...(options.model === undefined ? {} : { model: options.model }),
    cwd,
    addDirs: [],
    accountEnv: {},
    extraEnv: options.env ?? {},
    bullswarmHome: '/nonexistent-bullswarm-home',
  });
  const args = options.stdinPrompt
    ? invocation.args.filter((a, i, all) => a !== '-p' && all[i - 1] !== '-p')
    : invocation.args;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    TZ: 'UTC',
    BULLSWARM_NOW: NOW_ISO,
    ...invocation.env,
  };
  return new Promise((resolve, reject) => {
    const child = spawn(invocation.command, args, {
      cwd: invocation.cwd,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: options.killAfterOutput === true,
    });
    if (child.pid !== undefined) options.onSpawn?.(child.pid);
    const parser = connector.createOutputParser();
    let stdout = '';
    let stderr = '';
    let killed = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      parser.push(chunk);
      if (options.killAfterOutput && !killed && child.pid !== undefined) {
        killed = true;
        process.kill(-child.pid, 'SIGTERM');
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (exitCode, signal) => {
      const parsed = parser.end();
      const outcome = connector.classifyOutcome({
        exitCode,
        signal,
        parsed,
        stderr,
        now: NOW,
        timeZone: options.timeZone ?? 'UTC',
      });
      resolve({ stdout, stderr, exitCode, signal, parsed, outcome });
    });
    child.stdin.end(options.stdinPrompt ? prompt : undefined);
  });
}

/** Alive = exists and is not a zombie waiting to be reaped. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

const simHome = () => scratchDirs.make('bullswarm-sim-home-');
const readMeter = (home: string) =>
  JSON.parse(readFileSync(join(home, 'meter.json'), 'utf8')) as SimMeterReading;

describe.each([
  ['claude', simClaude],
  ['codex', simCodex],
  ['text', echo],
] as const)(
  'bullswarm-sim --format %s, classified by the real parser and classifier',
  (format, connector) => {
    const isEcho = format === 'text';
    const directive = (scenario: string) => `${scenario} please`;

    it('ok / echo: answers', async () => {
      const run = await runConnector(
        connector,
        isEcho ? 'write the release notes' : 'Refactor the parser module [sim:ok]',
      );
      expect(run.exitCode).toBe(0);
      expect(run.outcome.kind).toBe('ok');
      expect(run.parsed.answer).toBe(
        isEcho ? 'write the release notes' : 'sim: done: Refactor the parser module',
      );
    });

    it('PONG probe answers PONG', async () => {
      const run = await runConnector(connector, 'Reply with exactly PONG and nothing else. [sim:ok]');
      expect(run.outcome.kind).toBe('ok');
      expect(run.parsed.answer).toBe('PONG');
    });

    it('usage-limit: the real limit notice with its reset → quota', async () => {
      const home = simHome();
      const run = await runConnector(connector, directive('[sim:usage-limit,resetsInMin=90]'), {
        env: { BULLSWARM_SIM_HOME: home },
      });
      expect(run.exitCode).toBe(1);
      expect(run.outcome.kind).toBe('quota');
      expect(run.outcome.resetsAt).toBe(NOW + 90 * 60_000);
      const meter = readMeter(home);
      expect(meter.rateLimited).toBe(true);
      expect(meter.windows.find((w) => w.kind === 'five_hour')).toEqual({
        kind: 'five_hour',
        usedPct: 100,
        resetsAt: new Date(NOW + 90 * 60_000).toISOString(),
        windowMinutes: 300,
      });
    });

    it('usage-limit on the weekly window, days away', async () => {
      const home = simHome();
      const run = await runConnector(
        connector,
        directive('[sim:usage-limit,window=weekly,resetsInMin=4000]'),
        {
          env: { BULLSWARM_SIM_HOME: home },
        },
      );
      expect(run.outcome.kind).toBe('quota');
      expect(run.outcome.resetsAt).toBe(NOW + 4000 * 60_000);
      expect(readMeter(home).windows.find((w) => w.kind === 'weekly')?.usedPct).toBe(100);
    });

    it('throttle, with and without a named wait', async () => {
      const plain = await runConnector(connector, directive('[sim:throttle]'));
      expect(plain.outcome.kind).toBe('throttle');
      expect(plain.outcome.waitMs).toBeUndefined();
      const named = await runConnector(connector, directive('[sim:throttle,waitSec=30]'));
      expect(named.outcome).toMatchObject({ kind: 'throttle', waitMs: 30_000 });
    });

    it('auth: the real sign-in failure', async () => {
      const run = await runConnector(connector, directive('[sim:auth]'));
      expect(run.exitCode).toBe(1);
      expect(run.outcome.kind).toBe('auth');
    });

    it('empty: exit 0 and no answer', async () => {
      const run = await runConnector(connector, directive('[sim:empty]'));
      expect(run.exitCode).toBe(0);
      expect(run.outcome.kind).toBe('empty');
    });

    it('crash: partial output, stderr line, exit code', async () => {
      const run = await runConnector(connector, directive('[sim:crash,code=3]'));
      expect(run.exitCode).toBe(3);
      expect(run.outcome.kind).toBe('process');
      expect(run.outcome.message).toBe(
        'exited with code 3: Error: bullswarm-sim crashed on purpose (scenario crash, code 3)',
      );
    });

    it('stderr: any scenario writes the given line to stderr first, then plays', async () => {
      const run = await runConnector(connector, directive('[sim:ok,stderr=planted text 42,answer=fine]'));
      expect(run.exitCode).toBe(0);
      expect(run.stderr).toBe('planted text 42\n');
      expect(run.outcome.kind).toBe('ok');
      const crash = await runConnector(connector, directive('[sim:crash,message=disk on fire]'));
      expect(crash.outcome.message).toBe('exited with code 1: Error: disk on fire');
    });

    it('probe-404 and probe-error are process failures naming the provider error', async () => {
      const missing = await runConnector(connector, 'Reply with exactly PONG [sim:probe-404]', {
        model: 'sim/ghost:free',
      });
      expect(missing.outcome.kind).toBe('process');
      expect(missing.outcome.message).toMatch(/404|does not exist/);
      const broken = await runConnector(connector, 'Reply with exactly PONG [sim:probe-error]');
      expect(broken.outcome.kind).toBe('process');
      expect(broken.outcome.message).toMatch(/500/);
    });

    it('json: answers with the JSON object as text', async () => {
      const run = await runConnector(connector, 'give me json', {
        env: {
          BULLSWARM_SIM_SCENARIO: JSON.stringify({ scenario: 'json', value: { files: ['a.ts'], ok: true } }),
        },
      });
      expect(run.outcome.kind).toBe('ok');
      expect(JSON.parse(run.parsed.answer)).toEqual({ files: ['a.ts'], ok: true });
    });

    it('slow: progress events, then the answer', async () => {
      const run = await runConnector(connector, directive('[sim:slow,ms=60,tickMs=20]'));
      expect(run.outcome.kind).toBe('ok');
      if (format === 'claude') expect(run.parsed.events.kinds.assistant).toBe(4);
      if (format === 'codex') expect(run.parsed.events.kinds['item.completed']).toBe(4);
      if (format === 'text') expect(run.stderr.match(/sim: working/g)).toHaveLength(3);
    });

    it('write: files relative to the cwd; read-only-loop changes none', async () => {
      const cwd = scratchDirs.make('bullswarm-sim-write-');
      const run = await runConnector(connector, directive('[sim:write,file=docs/NOTES.md,content=hello]'), {
        cwd,
      });
      expect(run.outcome.kind).toBe('ok');
      expect(readFileSync(join(cwd, 'docs', 'NOTES.md'), 'utf8')).toBe('hello');
      const before = readdirSync(cwd, { recursive: true }).sort();
      const loop = await runConnector(connector, directive('[sim:read-only-loop,ms=40,tickMs=10]'), { cwd });
      expect(loop.outcome.kind).toBe('ok');
      expect(readdirSync(cwd, { recursive: true }).sort()).toEqual(before);
      const slowly = await runConnector(
        connector,
        directive('[sim:write-slowly,path=progress.txt,ms=30,tickMs=10]'),
        { cwd },
      );
      expect(slowly.outcome.kind).toBe('ok');
      expect(readFileSync(join(cwd, 'progress.txt'), 'utf8')).toBe('step 2\n');
    });

    it('stall: first output, then silence until killed → process', async () => {
      const run = await runConnector(connector, directive('[sim:stall]'), { killAfterOutput: true });
      expect(run.signal ?? String(run.exitCode)).toMatch(/SIGTERM|143/);
      expect(run.outcome.kind).toBe('process');
      expect(run.outcome.message).toBe('exited with code 143'); // the sim, like Claude Code, exits 143 on SIGTERM
    });
  },
);

describe('bullswarm-sim behaviour', () => {
  it('stall with child: true spawns a grandchild that a process-group kill ends too', async () => {
    const log = join(simHome(), 'sim.log');
    const invocation = simClaude.buildInvocation({
      prompt: 'hang [sim:stall,child=true]',
      cwd: tmpdir(),
      addDirs: [],
      accountEnv: {},
      bullswarmHome: '/b',
    });
    const child = spawn(invocation.command, invocation.args, {
      env: { PATH: process.env.PATH ?? '', BULLSWARM_SIM_LOG: log },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const grandchild = await new Promise<number>((resolve) => {
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        const match = /grandchild pid (\d+)/.exec(stderr);
        if (match) resolve(Number(match[1]));
      });
    });
    expect(isAlive(grandchild)).toBe(true);
    const closed = new Promise<string | null>((resolve) =>
      child.on('close', (_code, signal) => resolve(signal)),
    );
    process.kill(-(child.pid as number), 'SIGTERM');
    expect(await closed).toBe(null); // the sim handles SIGTERM: logs, then exits 143
    while (isAlive(grandchild)) await new Promise((resolve) => setTimeout(resolve, 20));
    const entry = JSON.parse(readFileSync(log, 'utf8').trim()) as Record<string, unknown>;
    expect(entry).toMatchObject({
      scenario: 'stall',
      signal: 'SIGTERM',
      childPid: grandchild,
      exitCode: null,
    });
  });

  it('scenario.json: the sequence is consumed once per invocation, then the default', async () => {
    const home = simHome();
    writeFileSync(
      join(home, 'scenario.json'),
      JSON.stringify({ default: 'ok', sequence: ['throttle', { scenario: 'auth' }] }),
    );
    const kinds: string[] = [];
    for (let i = 0; i < 4; i += 1)
      kinds.push((await runConnector(simClaude, 'task', { env: { BULLSWARM_SIM_HOME: home } })).outcome.kind);
    expect(kinds).toEqual(['throttle', 'auth', 'ok', 'ok']);
  });

  it('the sequence is safe for concurrent sims: each entry is played exactly once', async () => {
    const home = simHome();
    writeFileSync(
      join(home, 'scenario.json'),
      JSON.stringify({ default: 'empty', sequence: ['throttle', 'auth', 'crash'] }),
    );
    const runs = await Promise.all(
      Array.from({ length: 6 }, () => runConnector(simCodex, 'task', { env: { BULLSWARM_SIM_HOME: home } })),
    );
    expect(runs.map((r) => r.outcome.kind).sort()).toEqual([
      'auth',
      'empty',
      'empty',
      'empty',
      'process',
      'throttle',
    ]);
  });

  it('a prompt directive wins over scenario.json and consumes no sequence entry; env is used last', async () => {
    const home = simHome();
    writeFileSync(join(home, 'scenario.json'), JSON.stringify({ sequence: ['auth'] }));
    const env = { BULLSWARM_SIM_HOME: home, BULLSWARM_SIM_SCENARIO: 'throttle' };
    expect((await runConnector(simClaude, 'x [sim:empty]', { env })).outcome.kind).toBe('empty');
    expect((await runConnector(simClaude, 'x', { env })).outcome.kind).toBe('auth');
    expect((await runConnector(simClaude, 'x', { env })).outcome.kind).toBe('throttle');
    expect((await runConnector(simClaude, 'x', { env: { BULLSWARM_SIM_HOME: home } })).outcome.kind).toBe(
      'ok',
    );
  });

  it('meter: each successful run adds spendPct to every window (atomic meter.json)', async () => {
    const home = simHome();
    writeFileSync(join(home, 'scenario.json'), JSON.stringify({ default: 'ok', spendPct: 1.5 }));
    await runConnector(simClaude, 'a', { env: { BULLSWARM_SIM_HOME: home } });
    await runConnector(simClaude, 'b [sim:ok,spendPct=4]', { env: { BULLSWARM_SIM_HOME: home } });
    await runConnector(simClaude, 'c [sim:throttle]', { env: { BULLSWARM_SIM_HOME: home } });
    const meter = readMeter(home);
    expect(meter).toEqual({
      readAt: NOW_ISO,
      windows: [
        {
          kind: 'five_hour',
          usedPct: 5.5,
          resetsAt: new Date(NOW + 300 * 60_000).toISOString(),
          windowMinutes: 300,
        },
        {
          kind: 'weekly',
          usedPct: 5.5,
          resetsAt: new Date(NOW + 10_080 * 60_000).toISOString(),
          windowMinutes: 10_080,
        },
      ],
    });
    expect(readdirSync(home).filter((name) => name.endsWith('.tmp') || name.endsWith('.lock'))).toEqual([]);
  });

  it('concurrent spends are never lost', async () => {
    const home = simHome();
    await Promise.all(
      Array.from({ length: 6 }, () =>
        runConnector(simClaude, 'x [sim:ok,spendPct=2]', { env: { BULLSWARM_SIM_HOME: home } }),
      ),
    );
    expect(readMeter(home).windows.map((w) => w.usedPct)).toEqual([12, 12]);
  });

  it('a window whose reset passed rolls over before spending', async () => {
    const home = simHome();
    writeFileSync(
      join(home, 'meter.json'),
      JSON.stringify({
        readAt: '2026-11-30T06:00:00.000Z',
        windows: [
          { kind: 'five_hour', usedPct: 100, resetsAt: '2026-11-30T11:00:00.000Z', windowMinutes: 300 },
          { kind: 'weekly', usedPct: 40, resetsAt: '2026-12-03T00:00:00.000Z', windowMinutes: 10_080 },
        ],
        rateLimited: true,
      }),
    );
    await runConnector(simClaude, 'x [sim:ok,spendPct=1]', { env: { BULLSWARM_SIM_HOME: home } });
    expect(readMeter(home)).toEqual({
      readAt: NOW_ISO,
      windows: [
        { kind: 'five_hour', usedPct: 1, resetsAt: '2026-11-30T16:00:00.000Z', windowMinutes: 300 },
        { kind: 'weekly', usedPct: 41, resetsAt: '2026-12-03T00:00:00.000Z', windowMinutes: 10_080 },
      ],
    });
  });

  it('logs one JSON line per invocation to BULLSWARM_SIM_LOG', async () => {
    const log = join(simHome(), 'sim.log');
    const cwd = scratchDirs.make('bullswarm-sim-logcwd-');
    await runConnector(simClaude, 'one', {
      cwd,
      env: { BULLSWARM_SIM_LOG: log, BULLSWARM_POOL: 'sim:acme' },
    });
    await runConnector(simClaude, 'two [sim:throttle]', { cwd, env: { BULLSWARM_SIM_LOG: log } });
    const lines = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      cwd,
      pool: 'sim:acme',
      scenario: 'ok',
      scenarioOrigin: 'fallback',
      exitCode: 0,
      signal: null,
    });
    expect(lines[1]).toMatchObject({
      pool: null,
      scenario: 'throttle',
      scenarioOrigin: 'prompt',
      exitCode: 1,
    });
    expect(lines[0]?.argv).toContain('one');
    expect(typeof lines[0]?.pid).toBe('number');
    expect(Date.parse(String(lines[0]?.endedAt))).toBeGreaterThanOrEqual(
      Date.parse(String(lines[0]?.startedAt)),
    );
  });

  it('reads the prompt from stdin when there is no -p', async () => {
    const run = await runConnector(simClaude, 'from stdin [sim:echo]', { stdinPrompt: true });
    expect(run.parsed.answer).toBe('from stdin');
  });

  it('prints resets in the host zone: Claude names it, Codex does not', async () => {
    const claude = await runConnector(simClaude, '[sim:usage-limit,resetsInMin=600]', {
      env: { TZ: 'America/Anchorage' },
    });
    expect(claude.parsed.notices.find((n) => n.source === 'result-error')?.text).toBe(
      "You've hit your session limit · resets 1pm (America/Anchorage)",
    );
    const codex = await runConnector(simCodex, '[sim:usage-limit,resetsInMin=600]', {
      env: { TZ: 'America/Anchorage' },
      timeZone: 'America/Anchorage',
    });
    expect(codex.parsed.notices[0]?.text).toMatch(/try again at 1:00 PM\.$/);
    expect(codex.outcome.resetsAt).toBe(NOW + 600 * 60_000);
  });

  it.each([
    [['--format', 'xml', '-p', 'x'], '--format "xml" is not valid; expected one of claude, codex, text'],
    [['--colour', 'red'], 'unknown argument "--colour"'],
    [['-p', '[sim:explode]'], 'prompt directive: unknown scenario "explode"; valid: ok, echo, slow'],
    [['-p', 'x [sim:ok,ms=-1]'], 'scenario parameter ms=-1 is not valid; expected a non-negative number'],
    // Checked before anything is written: no init event on stdout, one line on stderr.
    [
      ['-p', 'x [sim:slow,ms=abc]'],
      'scenario parameter ms="abc" is not valid; expected a non-negative number',
    ],
    [['-p', 'x [sim:crash,code=abc]'], 'scenario parameter code="abc" is not valid'],
    [
      ['-p', 'x [sim:usage-limit,window=monthly]'],
      'window="monthly" is not valid; expected five_hour or weekly',
    ],
  ])('bad input %j exits 2 naming the problem, with nothing on stdout', async (argv, message) => {
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        [
          simClaude.buildInvocation({
            prompt: '',
            cwd: '/',
            addDirs: [],
            accountEnv: {},
            bullswarmHome: '/b',
          }).args[0] as string,
          ...argv,
        ],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => {
        stdout += c;
      });
      child.stderr.setEncoding('utf8').on('data', (c: string) => {
        stderr += c;
      });
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stdout).toBe('');
    // One message, no stack trace, no doubled prefix.
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(result.stderr).not.toContain('bullswarm-sim: Error:');
  });

  it('--help prints the usage and exits 0', () => {
    const cli = simClaude.buildInvocation({
      prompt: '',
      cwd: '/',
      addDirs: [],
      accountEnv: {},
      bullswarmHome: '/b',
    }).args[0] as string;
    const result = spawnSync(process.execPath, [cli, '--help'], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^usage: bullswarm-sim \[--format claude\|codex\|text\]/);
    expect(result.stdout).toContain('[sim:<name>,k=v]');
  });

  it('an invalid scenario.json exits 2 naming the file and field', async () => {
    const home = simHome();
    writeFileSync(join(home, 'scenario.json'), JSON.stringify({ sequence: 'throttle' }));
    const run = await runConnector(simClaude, 'x', { env: { BULLSWARM_SIM_HOME: home } });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(`${join(home, 'scenario.json')}: sequence: expected an array of scenarios`);
  });
});
