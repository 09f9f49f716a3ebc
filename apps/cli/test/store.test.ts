import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestDatabase, nowEnv, type TestDatabase, writeTestHome } from '@bullswarm/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { bullswarm, startBullswarm, tempDirs } from './support/cli';
import { testPostgresUrl } from './support/postgres';

const NOW = Date.parse('2026-11-30T12:00:00Z');
const dirs = tempDirs();
const databases: TestDatabase[] = [];
afterEach(async () => {
  dirs.cleanup();
  for (const db of databases.splice(0)) await db.drop();
});

const weekly = (usedPct: number) => [{ kind: 'weekly' as const, usedPct, resetsInMin: 5040 }];

interface StatusJson {
  engine: string;
  location: string;
  source: string;
  hostId: string | null;
  exists: boolean;
  namespaces: { namespace: string; applied: number; known?: number; pending: number }[];
  pending: number;
}

describe('bullswarm store on the local file', () => {
  it('status creates nothing, migrate creates and applies once, then status is up to date', async () => {
    const home = dirs.make();
    const before = await bullswarm(['store', 'status'], { home });
    expect(before.exitCode).toBe(0);
    expect(before.stdout).toContain(join(home, 'bullswarm.db'));
    expect(before.stdout).toContain('the local file: no BULLSWARM_STORE_URL');
    expect(before.stdout).toMatch(/host id\s+none yet/);
    expect(before.stdout).toMatch(/schema\s+none yet/);
    expect(existsSync(join(home, 'bullswarm.db'))).toBe(false);

    const migrate = await bullswarm(['store', 'migrate', '--json'], { home });
    expect(migrate.exitCode).toBe(0);
    const applied = JSON.parse(migrate.stdout) as { hostId: string; applied: { namespace: string }[] };
    expect(applied.applied.some((step) => step.namespace === 'workflow')).toBe(true);
    // The host id it recorded is the one kept in the home, and what status shows from now on.
    expect(readFileSync(join(home, 'host-id'), 'utf8').trim()).toBe(applied.hostId);

    const again = await bullswarm(['store', 'migrate'], { home });
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toContain('is up to date');
    expect(again.stdout).toContain('nothing to apply');

    const status = await bullswarm(['store', 'status', '--json'], { home });
    const json = JSON.parse(status.stdout) as StatusJson;
    expect(json).toMatchObject({ engine: 'sqlite', source: 'default', exists: true, pending: 0 });
    expect(json.hostId).toBe(applied.hostId);
    expect(json.namespaces.map((ns) => ns.namespace)).toEqual(['store', 'workflow']);
  });

  it('store with no subcommand and an unknown option are usage errors (exit 2)', async () => {
    const home = dirs.make();
    const unknown = await bullswarm(['store', 'status', '--jsn'], { home });
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('--jsn');
  });
});

const pgUrl = testPostgresUrl();

describe.skipIf(pgUrl === '')('bullswarm store on a shared Postgres, two hosts', () => {
  async function twoHosts(usedPct: readonly [number, number] = [10, 60]) {
    const db = await createTestDatabase(pgUrl);
    databases.push(db);
    const homes = ['laptop', 'buildbox'].map((host) => {
      const home = dirs.make(`bullswarm-cli-${host}-`);
      writeTestHome(home, {
        now: NOW,
        pools: [
          { connector: 'sim', account: 'a', windows: weekly(usedPct[0]) },
          { connector: 'sim', account: 'b', windows: weekly(usedPct[1]) },
        ],
      });
      return {
        home,
        env: { ...nowEnv(NOW), BULLSWARM_STORE_URL: db.url, BULLSWARM_HOST_ID: host },
      };
    });
    return { db, laptop: homes[0]!, buildbox: homes[1]! };
  }

  it('status names the server without its password; two hosts migrating at once apply each step once', async () => {
    const { db, laptop, buildbox } = await twoHosts();
    const withPassword = new URL(db.url);
    withPassword.username = 'bullswarm';
    withPassword.password = 'hunter2-secret';
    const shown = await bullswarm(['store', 'status'], {
      home: laptop.home,
      env: { ...laptop.env, BULLSWARM_STORE_URL: withPassword.toString() },
    });
    // The server trusts local connections: the URL's password is never printed, whatever the outcome.
    expect(`${shown.stdout}${shown.stderr}`).not.toContain('hunter2-secret');

    const status = await bullswarm(['store', 'status', '--json'], laptop);
    expect(status.exitCode).toBe(0);
    const before = JSON.parse(status.stdout) as StatusJson;
    expect(before).toMatchObject({ engine: 'postgres', source: 'BULLSWARM_STORE_URL', hostId: 'laptop' });

    const [a, b] = await Promise.all([
      bullswarm(['store', 'migrate', '--json'], laptop),
      bullswarm(['store', 'migrate', '--json'], buildbox),
    ]);
    expect([a.exitCode, b.exitCode, a.stderr, b.stderr]).toEqual([0, 0, '', '']);
    const steps = [a, b].flatMap(
      (result) =>
        (JSON.parse(result.stdout) as { applied: { namespace: string; version: number }[] }).applied,
    );
    const keys = steps.map((step) => `${step.namespace} ${step.version}`);
    // Every step applied by exactly one of the two hosts.
    expect(new Set(keys).size).toBe(keys.length);
    const after = JSON.parse((await bullswarm(['store', 'status', '--json'], buildbox)).stdout) as StatusJson;
    expect(after).toMatchObject({ exists: true, pending: 0, hostId: 'buildbox' });
    for (const ns of after.namespaces) expect(keys).toContain(`${ns.namespace} ${ns.applied}`);
  });

  it("one host sees the other's work in flight, with its host id, in assignments and pools, and it shifts the pick", async () => {
    // sim:a is 2 points further behind than sim:b: the pick until one in-flight charge (3 points) lands on it.
    const { laptop, buildbox } = await twoHosts([10, 12]);
    const dryPick = async () =>
      (
        JSON.parse(
          (await bullswarm(['run', '--lane', 'analyze', '--dry-run', '--json', 'hi'], buildbox)).stdout,
        ) as {
          poolId: string;
        }
      ).poolId;
    expect(await dryPick()).toBe('sim:a');
    const running = startBullswarm(
      ['run', '--lane', 'analyze', '--worker-pool', 'sim:a', '[sim:slow,ms=8000,tickMs=200] map the parser'],
      laptop,
    );
    try {
      let seen: { poolId: string; host: string }[] = [];
      for (let i = 0; i < 150 && seen.length === 0; i++) {
        const listed = await bullswarm(['assignments', '--json'], buildbox);
        if (listed.exitCode === 0) seen = (JSON.parse(listed.stdout) as { inflight: typeof seen }).inflight;
        if (seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(seen).toEqual([expect.objectContaining({ poolId: 'sim:a', host: 'laptop' })]);
      const pools = JSON.parse((await bullswarm(['pools', '--json'], buildbox)).stdout) as {
        pools: { id: string; inflight: number }[];
      };
      expect(pools.pools.find((pool) => pool.id === 'sim:a')?.inflight).toBe(1);
      expect(await dryPick()).toBe('sim:b');
    } finally {
      const ended = await running;
      expect(ended.exitCode).toBe(0);
    }
    const listed = await bullswarm(['assignments', '--json'], buildbox);
    expect((JSON.parse(listed.stdout) as { inflight: unknown[] }).inflight).toEqual([]);
  });

  it('an unreachable server is exit 1 naming the URL without its password, never the local file', async () => {
    const home = dirs.make();
    const result = await bullswarm(['store', 'status'], {
      home,
      env: { BULLSWARM_STORE_URL: 'postgres://bullswarm:hunter2-secret@127.0.0.1:1/bullswarm' },
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('postgres://bullswarm@127.0.0.1:1/bullswarm');
    expect(result.stderr).toContain('never falls back to the local bullswarm.db');
    expect(result.stderr).not.toContain('hunter2-secret');
    expect(existsSync(join(home, 'bullswarm.db'))).toBe(false);
  });
});
