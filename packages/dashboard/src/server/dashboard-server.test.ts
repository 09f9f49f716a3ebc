import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildPoolSnapshots, buildPoolViews, openRuntime } from '@bullswarm/dispatch/routing';
import { openStore } from '@bullswarm/store';
import { writeTestHome } from '@bullswarm/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_LIVE_CLIENTS } from './live-changes';
import { type RunningDashboard, startDashboard } from './start-dashboard';

const NOW = Date.parse('2026-11-28T12:00:00Z');
const env = { BULLSWARM_NOW: new Date(NOW).toISOString(), SIM_API_TOKEN: 'hunter2-credential-value' };

let home: string;
let dashboard: RunningDashboard;

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'bullswarm-dashboard-'));
  writeTestHome(home, {
    now: NOW,
    pools: [
      {
        account: 'a',
        label: 'alpha',
        meter: { type: 'file' },
        windows: [
          { kind: 'five_hour', usedPct: 10, resetsInMin: 120 },
          { kind: 'weekly', usedPct: 30, resetsInMin: 3 * 1440 },
        ],
      },
      {
        account: 'b',
        meter: { type: 'file' },
        windows: [
          { kind: 'five_hour', usedPct: 100, resetsInMin: 40 },
          { kind: 'weekly', usedPct: 50, resetsInMin: 2 * 1440 },
        ],
      },
    ],
  });
  dashboard = await startDashboard({ home, env, port: 0, livePollMs: 50 });
});

afterEach(async () => {
  await dashboard.close();
  rmSync(home, { recursive: true, force: true });
});

/** A raw HTTP request (fetch would not let a test set the Host header). */
function get(
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: dashboard.port, path, method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const auth = () => ({ 'x-bullswarm-token': dashboard.token });

describe('the dashboard server', () => {
  it('prints a loopback URL with a long random token and binds 127.0.0.1 by default', () => {
    expect(dashboard.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}$/);
    expect(dashboard.loopback).toBe(true);
  });

  it('refuses a request without the token, or with a wrong one', async () => {
    expect((await get('/api/pools')).status).toBe(401);
    expect((await get('/')).body).toMatch(/no valid token/);
    expect((await get('/api/pools', { 'x-bullswarm-token': 'nope' })).status).toBe(401);
    expect((await get('/api/pools?token=nope')).status).toBe(401);
    expect((await get('/api/pools', { cookie: 'bullswarm_dashboard=nope' })).status).toBe(401);
  });

  it('trades the token in the URL for an HttpOnly SameSite cookie and drops it from the address', async () => {
    const first = await get(`/?token=${dashboard.token}`);
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/');
    const cookie = String(first.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const page = await get('/', { cookie: cookie.split(';')[0]! });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>bullswarm dashboard</title>');
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self'/);
  });

  it('refuses a Host header that is not localhost or an IP address (DNS rebinding)', async () => {
    const rebound = await get('/api/pools', { ...auth(), host: `evil.example:${dashboard.port}` });
    expect(rebound.status).toBe(403);
    expect(rebound.body).toMatch(/Host header/);
    expect((await get('/api/pools', { ...auth(), host: `localhost:${dashboard.port}` })).status).toBe(200);
  });

  it('refuses a POST that carries the token only in the cookie or the URL', async () => {
    const run = 'wf-20261128-120000-abcdef';
    const byCookie = await get(
      `/api/workflows/${run}/resume`,
      { cookie: `bullswarm_dashboard=${dashboard.token}` },
      'POST',
    );
    expect(byCookie.status).toBe(403);
    const byQuery = await get(`/api/workflows/${run}/resume?token=${dashboard.token}`, {}, 'POST');
    expect(byQuery.status).toBe(403);
  });

  it('answers /api/pools with the rows of `bullswarm pools --json` (labels and ids)', async () => {
    const response = await get('/api/pools', auth());
    expect(response.status).toBe(200);
    const body = JSON.parse(response.body);
    const runtime = await openRuntime({ home, env });
    try {
      const expected = buildPoolViews(await buildPoolSnapshots(runtime));
      // The same rows; only the meter's source differs (this second read is served from the cache).
      const sameSource = (pools: { meter: { status: string } }[]) =>
        pools.map((pool) => ({ ...pool, meter: { ...pool.meter, status: 'read' } }));
      expect(sameSource(body.pools)).toEqual(sameSource(JSON.parse(JSON.stringify(expected))));
    } finally {
      runtime.close();
    }
    expect(
      body.pools.map((p: { id: string; poolLabel: string; state: string }) => [p.id, p.poolLabel, p.state]),
    ).toEqual([
      ['sim:a', 'alpha', 'ready'],
      ['sim:b', 'sim:b', 'burst-gated'],
    ]);
  });

  it('answers the dry-run decision of a lane and effort, and names a bad lane', async () => {
    const why = JSON.parse((await get('/api/why?lane=analyze&effort=low', auth())).body);
    expect(why).toMatchObject({ ok: true, dryRun: true, poolId: 'sim:a', poolLabel: 'alpha', tier: 'low' });
    expect(why.candidates.map((c: { poolLabel: string }) => c.poolLabel)).toEqual(['alpha']);
    expect(why.rejected).toEqual([expect.objectContaining({ poolId: 'sim:b', kind: 'spent' })]);
    const bad = await get('/api/why?lane=paint', auth());
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({ parameter: 'lane' });
  });

  it('pushes a change on the event stream when another process records a run', async () => {
    const events: string[] = [];
    const received = new Promise<void>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: dashboard.port, path: '/api/events', headers: auth() },
        (res) => {
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            events.push(chunk);
            const text = events.join('');
            if (text.includes('event: ready') && !text.includes('event: change')) {
              // The baseline is taken: now another connection records an attempt.
              const store = openStore({ dbPath: join(home, 'bullswarm.db') });
              store.runs.append({
                id: 'r1',
                poolId: 'sim:a',
                tier: 'low',
                lane: 'analyze',
                action: 'run',
                startedAt: NOW - 60_000,
                endedAt: NOW,
                stalled: false,
                outcome: 'ok',
                workerMinutes: 1,
              });
              store.close();
            }
            if (text.includes('event: change')) {
              req.destroy();
              resolve();
            }
          });
        },
      );
      req.on('error', (error) => {
        if (!events.join('').includes('event: change')) reject(error);
      });
      req.end();
    });
    await received;
    const change = events.join('').split('event: change')[1]!;
    expect(change).toMatch(/"runs"/);
  });

  it('redacts secrets in a run record and its transcript (token shapes and credential variables)', async () => {
    const runId = 'run-20261128-120000-a1b2c3';
    const runDir = join(home, 'runs', runId);
    mkdirSync(runDir, { recursive: true });
    const key = `sk-ant-${'a1B2c3D4e5'.repeat(3)}`;
    writeFileSync(join(runDir, 'out-run-attempt-1'), `the key is ${key} and hunter2-credential-value\n`);
    writeFileSync(
      join(runDir, 'run.json'),
      JSON.stringify({
        runId,
        status: 'finished',
        lane: 'analyze',
        tier: 'low',
        startedAt: '2026-11-28T12:00:00Z',
        endedAt: '2026-11-28T12:01:00Z',
        ok: false,
        kind: 'process',
        poolId: 'sim:a',
        poolLabel: 'alpha',
        model: null,
        reason: 'surplus: alpha',
        why: `exit code 1: ${key}`,
        backAt: null,
        attempts: [{ attempt: 1, outputFile: join(runDir, 'out-run-attempt-1') }],
        runDir,
        candidates: [],
        rejected: [],
      }),
    );
    const list = await get('/api/runs', auth());
    expect(list.body).not.toContain(key);
    expect(JSON.parse(list.body).runs[0].why).toBe('exit code 1: [redacted anthropic-key]');
    const detail = await get(`/api/runs/${runId}`, auth());
    expect(detail.body).not.toContain(key);
    expect(detail.body).not.toContain('hunter2-credential-value');
    expect(JSON.parse(detail.body).transcripts[0].stdout).toBe(
      'the key is [redacted anthropic-key] and [redacted env:SIM_API_TOKEN]\n',
    );
    expect((await get('/api/runs/run-20261128-120000-ffffff', auth())).status).toBe(404);
    expect((await get('/api/runs/..%2F..%2Fetc', auth())).status).toBe(404);
  });

  it(`refuses event stream ${MAX_LIVE_CLIENTS + 1} while ${MAX_LIVE_CLIENTS} pages listen`, async () => {
    const open: ReturnType<typeof request>[] = [];
    try {
      for (let i = 0; i < MAX_LIVE_CLIENTS; i += 1) {
        await new Promise<void>((resolve, reject) => {
          const req = request(
            { host: '127.0.0.1', port: dashboard.port, path: '/api/events', headers: auth() },
            (res) => {
              res.once('data', () => resolve());
            },
          );
          req.on('error', reject);
          req.end();
          open.push(req);
        });
      }
      const refused = await get('/api/events', auth());
      expect(refused.status).toBe(503);
      expect(refused.body).toMatch(/pages already listen/);
    } finally {
      for (const req of open) req.destroy();
    }
  });
});
