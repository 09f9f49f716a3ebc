import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTestHome } from '@bullswarm/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningDashboard, startDashboard } from './start-dashboard';

const NOW = Date.parse('2026-11-28T12:00:00Z');
// Planted values are assembled at run time so this file carries no token-shaped literal.
const GITHUB = `gh${'p'}_${'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5'}`;
const ANTHROPIC = `sk-ant-${'api03-'}${'Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2'}`;
const AWS = `AK${'IA'}${'Q3EGRVZ5MNX7TY2K'}`;
const PROCESS_SECRET = 'process-secret-value-77';
const POOL_SECRET = 'pool-secret-value-zz9';
const SECRETS = [GITHUB, ANTHROPIC, AWS, PROCESS_SECRET, POOL_SECRET];
const LEAK = `leak ${SECRETS.join(' ')}`;

let home: string | undefined;
let dashboard: RunningDashboard | undefined;
afterEach(async () => {
  await dashboard?.close();
  if (home !== undefined) rmSync(home, { recursive: true, force: true });
});

function get(path: string, token: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: dashboard?.port, path, headers: { 'x-bullswarm-token': token } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve(body));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('the dashboard lets no secret out', () => {
  it("every shape, the process's and a pool's credential values are redacted in runs, transcripts and workflows", async () => {
    home = mkdtempSync(join(tmpdir(), 'bullswarm-dashboard-'));
    writeTestHome(home, {
      now: NOW,
      pools: [{ account: 'a', env: { ACME_API_KEY: POOL_SECRET }, meter: { type: 'none' } }],
    });
    // Files of an older bullswarm, written before redaction: the dashboard is the last gate.
    const runId = 'run-20261128-120000-a1b2c3';
    const runDir = join(home, 'runs', runId);
    mkdirSync(runDir, { recursive: true });
    writeFileSync(join(runDir, 'out-run-attempt-1'), `${LEAK}\n`);
    writeFileSync(join(runDir, 'out-run-attempt-1.stderr'), `${LEAK}\n`);
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
        poolLabel: 'sim:a',
        model: null,
        reason: 'surplus',
        why: `exit code 1: ${LEAK}`,
        backAt: null,
        attempts: [{ attempt: 1, outputFile: join(runDir, 'out-run-attempt-1'), why: LEAK }],
        runDir,
        candidates: [],
        rejected: [],
      }),
    );
    dashboard = await startDashboard({
      home,
      env: { BULLSWARM_NOW: new Date(NOW).toISOString(), MY_DEPLOY_TOKEN: PROCESS_SECRET },
      port: 0,
    });
    const bodies = [
      await get('/api/pools', dashboard.token),
      await get('/api/runs', dashboard.token),
      await get(`/api/runs/${runId}`, dashboard.token),
      await get('/api/workflows', dashboard.token),
      await get('/api/swarm', dashboard.token),
    ];
    const detail = bodies[2] as string;
    expect(detail).toContain(
      'leak [redacted github-token] [redacted anthropic-key] [redacted aws-access-key] [redacted env:MY_DEPLOY_TOKEN] [redacted env:ACME_API_KEY]',
    );
    for (const body of bodies) for (const secret of SECRETS) expect(body, secret).not.toContain(secret);
  });
});
