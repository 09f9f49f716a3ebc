import { existsSync, readFileSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidEnvironmentError } from '../errors/invalid-environment-error';
import { StoreInputError } from '../errors/store-input-error';
import { catchError } from '../test-support/catch-error';
import { spawnNode } from '../test-support/spawn-node';
import { useTempDirs } from '../test-support/temp-dir';
import { resolveHeartbeatSettings } from './heartbeat-settings';
import { HOST_ID_FILE, HOST_ID_PATTERN, legacyHostId, resolveHostId } from './host-id';

const tempDir = useTempDirs();

describe('resolveHostId', () => {
  it('BULLSWARM_HOST_ID wins; a malformed one names the variable', () => {
    const home = tempDir();
    expect(resolveHostId({ home, env: { BULLSWARM_HOST_ID: 'laptop-1' } })).toBe('laptop-1');
    expect(existsSync(join(home, HOST_ID_FILE))).toBe(false);
    const error = catchError(() => resolveHostId({ home, env: { BULLSWARM_HOST_ID: 'has space' } }));
    expect(InvalidEnvironmentError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('BULLSWARM_HOST_ID');
  });

  it('is generated once per home (hostname and a random part, file mode 0600) and kept', () => {
    const home = join(tempDir(), 'home');
    const id = resolveHostId({ home, env: {} });
    expect(id).toMatch(HOST_ID_PATTERN);
    expect(id.startsWith(`${legacyHostId().slice(0, 80)}-`)).toBe(true);
    expect(readFileSync(join(home, HOST_ID_FILE), 'utf8')).toBe(`${id}\n`);
    expect(statSync(join(home, HOST_ID_FILE)).mode & 0o777).toBe(0o600);
    expect(resolveHostId({ home, env: {} })).toBe(id);
    expect(resolveHostId({ home: tempDir(), env: {} })).not.toBe(id);
  });

  it('a read-only caller (create: false) writes nothing and falls back to the hostname', () => {
    const home = tempDir();
    expect(resolveHostId({ home, env: {}, create: false })).toBe(legacyHostId());
    expect(existsSync(join(home, HOST_ID_FILE))).toBe(false);
    expect(legacyHostId()).toBe(
      hostname()
        .replace(/[^A-Za-z0-9._:@-]/g, '-')
        .replace(/^[^A-Za-z0-9]+/, '') || 'localhost',
    );
  });

  it('processes creating it at once agree on one id', async () => {
    const home = join(tempDir(), 'home');
    const script = `
      const { resolveHostId } = await import(${JSON.stringify(new URL('../../test-results/worker-dist/index.js', import.meta.url).href)});
      while (Date.now() < ${Date.now() + 1500}) {}
      process.stdout.write(resolveHostId({ home: ${JSON.stringify(home)}, env: {} }));`;
    const runs = Array.from({ length: 6 }, () => spawnNode('--input-type=module', ['-e', script]));
    const ids = (await Promise.all(runs.map((run) => run.done))).map((result) => {
      expect(result.stderr).toBe('');
      return result.stdout;
    });
    expect(new Set(ids).size).toBe(1);
    expect(readFileSync(join(home, HOST_ID_FILE), 'utf8').trim()).toBe(ids[0]);
  }, 60_000);
});

describe('resolveHeartbeatSettings', () => {
  it('defaults to 30 s renewals and a 120 s TTL; the environment and options override', () => {
    expect(resolveHeartbeatSettings({})).toEqual({ intervalMs: 30_000, ttlMs: 120_000 });
    expect(
      resolveHeartbeatSettings({ BULLSWARM_STORE_HEARTBEAT_SEC: '5', BULLSWARM_STORE_TTL_SEC: '20' }),
    ).toEqual({
      intervalMs: 5000,
      ttlMs: 20_000,
    });
    expect(resolveHeartbeatSettings({ BULLSWARM_STORE_TTL_SEC: '20' }, { intervalMs: 100 })).toEqual({
      intervalMs: 100,
      ttlMs: 20_000,
    });
  });

  it('refuses an unusable variable (naming it) and a TTL under twice the interval', () => {
    const bad = catchError(() => resolveHeartbeatSettings({ BULLSWARM_STORE_TTL_SEC: 'soon' }));
    expect(InvalidEnvironmentError.isInstance(bad)).toBe(true);
    expect((bad as Error).message).toContain('BULLSWARM_STORE_TTL_SEC');
    const tight = catchError(() => resolveHeartbeatSettings({}, { intervalMs: 1000, ttlMs: 1500 }));
    expect(StoreInputError.isInstance(tight)).toBe(true);
    expect((tight as Error).message).toContain('at least twice the renewal interval');
  });
});
