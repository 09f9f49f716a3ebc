// Whole-process benchmark of a workflow fan-out through the built CLI, against raw spawns of the
// same agent from one Node process, both measured from outside in the same run.
//
//   node bench/fan-out.bench.mjs            (sizes: BENCH_FANOUT_SIZES, default 100,1000,10000)
//
// The agent is the two-line shell script of bench-homes.mjs, on one pool. For each size N:
// (a) `node fan-out.bench.mjs raw <agent> N 16`: N spawns of the agent, 16 at once, each read to
//     its end (the floor: what running the agents costs with no bookkeeping at all);
// (b) `bullswarm workflow goal <program> --json`: one fan-out step of N items at concurrency 16
//     (routing, ledger, attempt files, run log, state and events, the report).
// Overhead per item = (b − a) / N, both whole processes (Node's start included on each side).
// Peak RSS is the CLI process's own (GNU time's %M). Goals (issue #14): ≤ 1.5 ms per item at
// 1,000 items, the 10,000-item figure within 1.3× of the 1,000-item one; peak RSS < 100 MB at
// 1,000 and < 150 MB at 10,000.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  benchEnv,
  CLI,
  load,
  makeRoot,
  rawSpawns,
  timeProcess,
  timeProcessWithRss,
  trivialHome,
} from './bench-homes.mjs';

const CONCURRENCY = 16;
const [mode, ...rest] = process.argv.slice(2);

if (mode === 'raw') {
  const [agent, count, width] = rest;
  await rawSpawns(agent, (i) => [`item ${i}`], Number(count), Number(width));
  process.exit(0);
}

const sizes = (process.env.BENCH_FANOUT_SIZES ?? '100,1000,10000').split(',').map(Number);
const self = fileURLToPath(import.meta.url);
const root = makeRoot('fan-out');
const f1 = (x) => x.toFixed(1);
const f2 = (x) => x.toFixed(2);
try {
  const { home, work, agent } = trivialHome(root);
  const env = benchEnv({ BULLSWARM_HOME: home, BULLSWARM_CACHE_DIR: join(root, 'cache') });
  console.log(
    `workflow fan-out through the built CLI vs raw spawns of the same agent, concurrency ${CONCURRENCY} (node ${process.version})`,
  );
  console.log(`  load average at the start ${load()}`);
  // Warm-up: the code cache of `workflow`, the disk caches.
  const warm = join(root, 'warm.json');
  writeFileSync(warm, JSON.stringify(program(8)));
  timeProcess(process.execPath, [CLI, 'workflow', 'goal', warm, '--json'], { env, cwd: work });
  const rows = [];
  for (const n of sizes) {
    const file = join(root, `fan-out-${n}.json`);
    writeFileSync(file, JSON.stringify(program(n)));
    const raw1 = timeProcessWithRss(process.execPath, [self, 'raw', agent, String(n), String(CONCURRENCY)], {
      env,
    });
    const cli = timeProcessWithRss(process.execPath, [CLI, 'workflow', 'goal', file, '--json'], {
      env,
      cwd: work,
    });
    const raw2 = timeProcessWithRss(process.execPath, [self, 'raw', agent, String(n), String(CONCURRENCY)], {
      env,
    });
    const report = JSON.parse(cli.stdout);
    if (report.counts?.ok !== n)
      throw new Error(`expected ${n} ok items, got ${JSON.stringify(report.counts)}`);
    if (cli.stderr.replace(/maxrss-kb=\d+\s*$/, '') !== '') throw new Error(`stderr: ${cli.stderr}`);
    const rawMs = Math.min(raw1.ms, raw2.ms);
    const row = {
      n,
      rawMs,
      cliMs: cli.ms,
      perItem: (cli.ms - rawMs) / n,
      rssMb: cli.rssMb,
      rawRssMb: raw1.rssMb,
    };
    rows.push(row);
    console.log(
      `  ${String(n).padStart(6)} items: raw spawns ${f1(rawMs)} ms (${f2(rawMs / n)} ms/item)  bullswarm ${f1(cli.ms)} ms (${f2(cli.ms / n)} ms/item)  overhead ${f2(row.perItem)} ms/item  peak RSS ${row.rssMb === undefined ? '?' : f1(row.rssMb)} MB (raw ${row.rawRssMb === undefined ? '?' : f1(row.rawRssMb)} MB)  load ${load()}`,
    );
  }
  const at = (n) => rows.find((row) => row.n === n);
  const r1k = at(1000);
  const r10k = at(10000);
  if (r1k) {
    console.log(
      `  goal ≤ 1.5 ms/item at 1,000: ${f2(r1k.perItem)} → ${r1k.perItem <= 1.5 ? 'met' : 'NOT met'}; peak RSS < 100 MB: ${r1k.rssMb === undefined ? '?' : f1(r1k.rssMb)} → ${r1k.rssMb !== undefined && r1k.rssMb < 100 ? 'met' : 'NOT met'}`,
    );
  }
  if (r1k && r10k) {
    const growth = r10k.perItem / r1k.perItem;
    console.log(
      `  goal 10,000-item overhead within 1.3× of the 1,000-item one: ${f2(growth)}× → ${growth <= 1.3 ? 'met' : 'NOT met'}; peak RSS < 150 MB: ${r10k.rssMb === undefined ? '?' : f1(r10k.rssMb)} → ${r10k.rssMb !== undefined && r10k.rssMb < 150 ? 'met' : 'NOT met'}`,
    );
  }
  const first = rows[0];
  const last = rows.at(-1);
  if (first && last && first !== last) {
    console.log(
      `  growth of the overhead per item from ${first.n} to ${last.n} items: ${f2(last.perItem / first.perItem)}×`,
    );
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}

function program(n) {
  return {
    schemaVersion: 'bullswarm.workflow.program.v3',
    name: 'fan-out-bench',
    settings: { concurrency: CONCURRENCY },
    steps: [
      { id: 'each', prompt: 'item {{item}}', forEach: { items: Array.from({ length: n }, (_, i) => i) } },
    ],
  };
}
