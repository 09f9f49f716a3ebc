// Benchmark of the built dashboard over a big home: 50 sim pools with cached meters, two weeks of
// meter history each, and 1,000 recorded runs (run log rows and runs/<runId>/run.json records).
// Targets (issue "bullswarm dashboard"): GET /api/pools under 50 ms (median), and the Pools page
// interactive (drawn, charts included) under 1 s in headless Chromium (skipped without
// /usr/bin/chromium). Run after a build: `pnpm --filter @bullswarm/dashboard bench`.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '@bullswarm/store';
import { startDashboard } from '../dist/index.js';

const POOLS = 50;
const RUNS = 1000;
const N = Number(process.env.BENCH_N ?? 30);
const PAGE_LOADS = Number(process.env.BENCH_PAGE_LOADS ?? 5);
const MIN = 60_000;
const now = Date.now();

const home = mkdtempSync(join(tmpdir(), 'bullswarm-dashboard-bench-'));
const pools = [];
for (let i = 0; i < POOLS; i++) {
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
        { kind: 'five_hour', usedPct: (i * 7) % 90, resetsAt: new Date(now + (60 + i) * MIN).toISOString() },
        {
          kind: 'weekly',
          usedPct: (i * 13) % 95,
          resetsAt: new Date(now + (2000 + i * 100) * MIN).toISOString(),
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

const store = openStore({ dbPath: join(home, 'bullswarm.db') });
const week = 7 * 1440 * MIN;
for (let i = 0; i < POOLS; i++) {
  const resetsAt = now + (2000 + i * 100) * MIN;
  const rows = [];
  // A reading every 2 hours over the current window so far: up to 84 per pool.
  for (let t = resetsAt - week; t < now; t += 120 * MIN) {
    rows.push({
      poolId: pools[i].id,
      window: 'weekly',
      usedPct: Math.min(95, ((t - (resetsAt - week)) / week) * ((i * 13) % 95) * 1.4),
      resetsAt,
      windowMinutes: week / MIN,
      readAt: t,
      source: 'file',
    });
  }
  store.meters.appendReadings(rows);
}
const runsDir = join(home, 'runs');
for (let r = 0; r < RUNS; r++) {
  const pool = pools[r % POOLS];
  const startedAt = now - (RUNS - r) * 5 * MIN;
  const endedAt = startedAt + 3 * MIN;
  store.runs.append({
    id: `bench-${r}`,
    poolId: pool.id,
    tier: 'medium',
    lane: 'analyze',
    action: 'run',
    startedAt,
    endedAt,
    stalled: false,
    outcome: r % 10 === 0 ? 'failed' : 'ok',
    workerMinutes: 3,
  });
  const stamp = new Date(startedAt).toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  const runId = `run-${stamp}-${r.toString(16).padStart(6, '0')}`;
  const runDir = join(runsDir, runId);
  mkdirSync(runDir, { recursive: true });
  writeFileSync(
    join(runDir, 'run.json'),
    JSON.stringify({
      runId,
      status: 'finished',
      lane: 'analyze',
      tier: 'medium',
      startedAt: new Date(startedAt).toISOString(),
      endedAt: new Date(endedAt).toISOString(),
      ok: true,
      kind: 'ok',
      poolId: pool.id,
      poolLabel: pool.id,
      model: null,
      reason: `surplus: ${pool.id} (surplus 12.0)`,
      why: null,
      backAt: null,
      attempts: [],
      runDir,
      candidates: [],
      rejected: [],
    }),
  );
}
store.close();

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];

console.log(
  `load average before: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
const dashboard = await startDashboard({ home, port: 0 });
const base = dashboard.url.slice(0, dashboard.url.indexOf('/?token='));
const headers = { 'x-bullswarm-token': dashboard.token };

async function timeEndpoint(path) {
  const first = performance.now();
  let response = await fetch(`${base}${path}`, { headers });
  await response.arrayBuffer();
  const cold = performance.now() - first;
  const times = [];
  for (let i = 0; i < N; i++) {
    const start = performance.now();
    response = await fetch(`${base}${path}`, { headers });
    await response.arrayBuffer();
    times.push(performance.now() - start);
    if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  }
  return { path, cold, median: median(times), p95: p95(times) };
}

try {
  const rows = [];
  for (const path of ['/api/pools', '/api/pools/history', '/api/runs', '/api/why?lane=analyze'])
    rows.push(await timeEndpoint(path));
  console.log(
    `dashboard over ${POOLS} pools and ${RUNS} runs (N=${N} requests each, after a first cold one):`,
  );
  for (const row of rows) {
    console.log(
      `  GET ${row.path.padEnd(22)} median ${row.median.toFixed(1)} ms · p95 ${row.p95.toFixed(1)} ms · first ${row.cold.toFixed(1)} ms`,
    );
  }
  const pools = rows[0];
  console.log(`  target: GET /api/pools median under 50 ms: ${pools.median < 50 ? 'met' : 'MISSED'}`);

  let playwright;
  try {
    playwright = await import('playwright-core');
  } catch {
    playwright = undefined;
  }
  const chromiumPath = process.env.BULLSWARM_CHROMIUM || '/usr/bin/chromium';
  const { existsSync } = await import('node:fs');
  if (playwright === undefined || !existsSync(chromiumPath)) {
    console.log('  page interactive: skipped (no playwright-core or no /usr/bin/chromium)');
  } else {
    const userDataDir = mkdtempSync(join(tmpdir(), 'bullswarm-bench-chromium-'));
    const context = await playwright.chromium.launchPersistentContext(userDataDir, {
      executablePath: chromiumPath,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
      viewport: { width: 1280, height: 900 },
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      // The first visit trades the token for the cookie; the timed loads below are plain visits.
      await page.goto(dashboard.url);
      await page.waitForFunction(
        () => document.getElementById('main')?.getAttribute('aria-busy') === 'false',
      );
      const drawn = [];
      const charts = [];
      for (let i = 0; i < PAGE_LOADS; i++) {
        const start = performance.now();
        await page.goto(`${base}/?load=${i}#/pools`);
        // Interactive: every pool card drawn with its numbers and countdowns, the links usable.
        await page.waitForFunction(
          (n) =>
            document.getElementById('main')?.getAttribute('aria-busy') === 'false' &&
            document.querySelectorAll('section.pool').length >= n,
          POOLS,
          { polling: 'raf' },
        );
        drawn.push(performance.now() - start);
        await page.waitForFunction((n) => document.querySelectorAll('.chart canvas').length >= n, POOLS, {
          polling: 'raf',
        });
        charts.push(performance.now() - start);
      }
      const timing = await page.evaluate(() => ({
        domReady: performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd,
        resources: performance
          .getEntriesByType('resource')
          .map(
            (e) =>
              `${e.name.replace(/^.*\/\/[^/]+/, '')} ${Math.round(e.startTime)}→${Math.round(e.responseEnd)}`,
          ),
      }));
      console.log(
        `  last load: DOM ready at ${Math.round(timing.domReady)} ms; ${timing.resources.join(', ')} (ms after navigation start)`,
      );
      console.log(
        `  Pools page interactive (${POOLS} pool cards drawn; ${PAGE_LOADS} loads): median ${median(drawn).toFixed(0)} ms · max ${Math.max(...drawn).toFixed(0)} ms`,
      );
      console.log(
        `  … and all ${POOLS} charts drawn: median ${median(charts).toFixed(0)} ms · max ${Math.max(...charts).toFixed(0)} ms`,
      );
      console.log(`  target: page interactive under 1 s: ${median(drawn) < 1000 ? 'met' : 'MISSED'}`);
    } finally {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    }
  }
} finally {
  await dashboard.close();
  rmSync(home, { recursive: true, force: true });
  console.log(
    `load average after: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
}
