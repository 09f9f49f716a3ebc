import { existsSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidHomeError } from '../errors/invalid-home-error';
import { UnknownPoolError } from '../errors/unknown-pool-error';
import { useTempDirs } from '../test-support/temp-dir';
import { homePaths, resolveHome } from './home-paths';
import { openHome } from './open-home';

const tempDir = useTempDirs();

describe('resolveHome', () => {
  it('uses $BULLSWARM_HOME, resolved to an absolute path', () => {
    expect(resolveHome({ BULLSWARM_HOME: '/srv/bullswarm' })).toBe('/srv/bullswarm');
    expect(resolveHome({ BULLSWARM_HOME: 'rel/home' })).toBe(resolve('rel/home'));
  });

  it('falls back to ~/.bullswarm ($HOME of the given env, else the OS home)', () => {
    expect(resolveHome({ HOME: '/home/me' })).toBe('/home/me/.bullswarm');
    expect(resolveHome({ BULLSWARM_HOME: '', HOME: '/home/me' })).toBe('/home/me/.bullswarm');
    expect(resolveHome({})).toBe(join(homedir(), '.bullswarm'));
  });
});

describe('openHome', () => {
  it('refuses a home that is a file (or below one), naming it as not a directory', () => {
    const file = join(tempDir(), 'a-file');
    writeFileSync(file, 'x');
    for (const home of [file, join(file, 'below')]) {
      let error: unknown;
      try {
        openHome({ home });
      } catch (e) {
        error = e;
      }
      expect(InvalidHomeError.isInstance(error) && error.fault).toBe('input');
      expect((error as Error).message).toContain(`${home} is not a directory`);
    }
  });

  it('exposes the paths of the home', () => {
    const paths = {
      home: '/srv/bs',
      statePath: '/srv/bs/state.json',
      labelsPath: '/srv/bs/pool-labels.json',
      dbPath: '/srv/bs/bullswarm.db',
      workflowsDir: '/srv/bs/workflows',
      providersDir: '/srv/bs/providers',
    };
    expect(homePaths('/srv/bs')).toEqual(paths);
    expect(openHome({ env: { BULLSWARM_HOME: '/srv/bs' } })).toMatchObject(paths);
    expect(openHome({ home: '/other', env: { BULLSWARM_HOME: '/srv/bs' } }).home).toBe('/other');
  });

  it('creates nothing on reads that find nothing, and the directory (0700) on the first write', () => {
    const dir = join(tempDir(), 'fresh');
    const home = openHome({ home: dir });
    expect(home.readState().pools).toEqual([]);
    expect(home.readLabels().labels).toEqual({});
    expect(home.listLabels()).toEqual([]);
    expect(home.openStoreIfExists()).toBeUndefined();
    expect(() => home.resolvePoolRef('codex')).toThrow(UnknownPoolError);
    expect(home.exists()).toBe(false);
    expect(existsSync(dir)).toBe(false);

    home.updateState((state) => {
      state.pools.push({
        id: 'codex',
        connector: 'codex',
        enabled: true,
        models: {},
        addedAt: '2026-09-01T00:00:00Z',
      });
    });
    expect(home.exists()).toBe(true);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(home.setLabel('codex', 'cx')).toEqual({ poolId: 'codex', label: 'cx' });
    expect(home.resolvePoolRef('cx')).toBe('codex');
    expect(home.listLabels()).toEqual([
      { poolId: 'codex', label: 'cx', configured: true, equalsPoolId: null },
    ]);
    expect(home.clearLabel('cx')).toBe(true);
    expect(home.updateLabels(() => undefined).labels).toEqual({});

    const store = home.openStore();
    try {
      expect(store.dbPath).toBe(home.dbPath);
      store.ledger.record({ poolId: 'codex', action: 'x', startedAt: 1, pid: process.pid });
    } finally {
      store.close();
    }
    const again = home.openStoreIfExists();
    expect(again?.ledger.list()).toHaveLength(1);
    again?.close();
  });
});
