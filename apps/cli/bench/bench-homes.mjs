// Homes and baselines shared by the whole-process benchmarks of the built CLI (run.bench.mjs,
// fan-out.bench.mjs). Everything is created under one temp folder the caller removes.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built bin; BULLSWARM_BENCH_CLI names another build's (an A/B of two builds in one run). */
export const CLI =
  process.env.BULLSWARM_BENCH_CLI ?? fileURLToPath(new URL('../dist/index.js', import.meta.url));

/** The trivial agent: a two-line shell script that answers at once. */
export const AGENT_SCRIPT = '#!/bin/sh\necho "ok: $*"\n';

/**
 * A private home with one pool, `trivial:a`, whose connector (a manifest in the home's
 * providers/ folder) runs the two-line agent script with the prompt as its last argument.
 */
export function trivialHome(root) {
  const home = join(root, 'trivial-home');
  const work = join(root, 'work');
  const agent = join(root, 'agent.sh');
  mkdirSync(join(home, 'providers', 'trivial'), { recursive: true, mode: 0o700 });
  chmodSync(home, 0o700);
  mkdirSync(work, { recursive: true });
  writeFileSync(agent, AGENT_SCRIPT);
  chmodSync(agent, 0o755);
  const model = [{ model: 'trivial', free: true, default: true }];
  writeFileSync(
    join(home, 'providers', 'trivial', 'connector.json'),
    JSON.stringify({
      specificationVersion: 'connector-v1',
      id: 'trivial',
      displayName: 'Trivial (benchmark)',
      providerFamily: 'trivial',
      invocation: {
        command: agent,
        args: [],
        prompt: { mode: 'arg', args: ['{{prompt}}'], position: 'last' },
      },
      outputFormat: 'text',
      lanes: ['analyze', 'build', 'chore'],
      capabilities: [],
      pacingWindow: 'weekly',
      hasFiveHourWindow: false,
      cost: 1,
      modelProfiles: { low: model, medium: model, high: model },
      meter: { type: 'none' },
      probe: false,
    }),
  );
  writeFileSync(
    join(home, 'state.json'),
    JSON.stringify({
      version: 1,
      pools: [
        {
          id: 'trivial:a',
          connector: 'trivial',
          account: 'a',
          enabled: true,
          models: {},
          addedAt: new Date().toISOString(),
        },
      ],
      assignments: {},
      config: { inflightPenaltyPct: 3, connectors: [] },
    }),
  );
  return { home, work, agent };
}

/** A private home of `count` sim pools whose meters are cached (a long TTL keeps reads on the cache). */
export function simPoolsHome(root, count = 20) {
  const home = join(root, 'sim-home');
  mkdirSync(home, { recursive: true, mode: 0o700 });
  chmodSync(home, 0o700);
  const now = Date.now();
  const pools = [];
  for (let i = 0; i < count; i++) {
    const account = `p${String(i).padStart(2, '0')}`;
    pools.push({
      id: `sim:${account}`,
      connector: 'sim',
      account,
      enabled: true,
      models: {},
      addedAt: new Date(now).toISOString(),
    });
    mkdirSync(join(home, 'sim', account), { recursive: true });
    writeFileSync(
      join(home, 'sim', account, 'meter.json'),
      JSON.stringify({
        readAt: new Date(now).toISOString(),
        windows: [
          {
            kind: 'five_hour',
            usedPct: (i * 7) % 90,
            resetsAt: new Date(now + (60 + i) * 60_000).toISOString(),
          },
          {
            kind: 'weekly',
            usedPct: (i * 13) % 95,
            resetsAt: new Date(now + (2000 + i * 200) * 60_000).toISOString(),
          },
        ],
      }),
    );
  }
  writeFileSync(
    join(home, 'state.json'),
    JSON.stringify({
      version: 1,
      pools,
      assignments: {},
      config: { inflightPenaltyPct: 3, connectors: [], meterTtlSec: 86_400 },
    }),
  );
  return { home };
}

export function makeRoot(name) {
  return mkdtempSync(join(tmpdir(), `bullswarm-cli-bench-${name}-`));
}

/**
 * The environment of every child: the caller's, without NODE_EXTRA_CA_CERTS (set on these
 * machines, it adds tens of ms to every Node start and would flatter each ratio; nothing here
 * uses TLS) and with the code cache in `cacheDir`.
 */
export function benchEnv(extra) {
  const env = { ...process.env, ...extra };
  delete env.NODE_EXTRA_CA_CERTS;
  delete env.BULLSWARM_COMPILE_CACHE;
  return env;
}

/** Wall time (ms) of one child process, run to its end; throws on a non-zero exit. */
export function timeProcess(command, args, { env, cwd } = {}) {
  const start = process.hrtime.bigint();
  const result = spawnSync(command, args, {
    env,
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 1 << 28,
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  }
  return { ms, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
}

/**
 * Wall time and peak RSS (MB) of one child process, through GNU time's `%M` (the child's
 * maximum resident set size); RSS is undefined where /usr/bin/time is missing.
 */
export function timeProcessWithRss(command, args, options = {}) {
  const gnuTime = '/usr/bin/time';
  const probe = spawnSync(gnuTime, ['-f', '%M', 'true'], { stdio: 'ignore' });
  if (probe.status !== 0) return { ...timeProcess(command, args, options), rssMb: undefined };
  const run = timeProcess(gnuTime, ['-f', 'maxrss-kb=%M', command, ...args], options);
  const match = /maxrss-kb=(\d+)\s*$/.exec(run.stderr);
  return { ...run, rssMb: match ? Number(match[1]) / 1024 : undefined };
}

/** A bare-spawn baseline in-process: `count` spawns of `command args…` at most `width` at once. */
export async function rawSpawns(command, argsOf, count, width, options = {}) {
  let next = 0;
  const one = () =>
    new Promise((resolve, reject) => {
      const child = spawn(command, argsOf(next++), { stdio: ['ignore', 'pipe', 'pipe'], ...options });
      child.stdout.on('data', () => {});
      child.stderr.on('data', () => {});
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited ${code}`))));
    });
  const lane = async () => {
    while (next < count) await one();
  };
  await Promise.all(Array.from({ length: Math.min(width, count) }, lane));
}

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

export const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
