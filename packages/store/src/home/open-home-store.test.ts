import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SharedStoreUnsupportedError } from '../errors/shared-store-unsupported-error';
import { HOST_ID_FILE } from '../hosts/host-id';
import { catchError } from '../test-support/catch-error';
import { useTempDirs } from '../test-support/temp-dir';
import { openHome } from './open-home';
import { homeStoreTarget, openHomeStore, openHomeStoreIfExists } from './open-home-store';

const tempDir = useTempDirs();

describe('the store of a home', () => {
  it('is the home’s bullswarm.db by default, with the home’s host id', async () => {
    const root = join(tempDir(), 'home');
    const home = openHome({ home: root, env: {} });
    expect(await openHomeStoreIfExists(home, { env: {} })).toBeUndefined();
    expect(existsSync(root)).toBe(false);
    const store = await openHomeStore(home, { env: {} });
    try {
      expect(store).toMatchObject({ engine: 'sqlite', location: home.dbPath });
      expect(store.hostId).toMatch(/-[0-9a-f]{8}$/);
      expect(existsSync(join(root, HOST_ID_FILE))).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('config.storeUrl selects Postgres; BULLSWARM_STORE_URL overrides it', () => {
    const root = tempDir();
    writeFileSync(
      join(root, 'state.json'),
      JSON.stringify({ version: 1, config: { storeUrl: 'postgres://team@db.example/bullswarm' } }),
    );
    const home = openHome({ home: root, env: {} });
    expect(homeStoreTarget(home, {})).toMatchObject({
      engine: 'postgres',
      source: 'state.json config.storeUrl',
    });
    expect(homeStoreTarget(home, { BULLSWARM_STORE_URL: 'postgres://me@other/x' })).toMatchObject({
      url: 'postgres://me@other/x',
      source: 'BULLSWARM_STORE_URL',
    });
  });

  it('the synchronous SQLite store refuses to open while a Postgres store is configured (never the local file instead)', () => {
    const root = tempDir();
    mkdirSync(root, { recursive: true });
    const viaEnv = openHome({
      home: root,
      env: { BULLSWARM_STORE_URL: 'postgres://me:s3cret@db.example/x' },
    });
    const error = catchError(() => viaEnv.openStore());
    expect(SharedStoreUnsupportedError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      fault: 'input',
      source: 'BULLSWARM_STORE_URL',
      location: 'postgres://me@db.example/x',
    });
    expect((error as Error).message).not.toContain('s3cret');
    expect(existsSync(viaEnv.dbPath)).toBe(false);
    writeFileSync(
      join(root, 'state.json'),
      JSON.stringify({ version: 1, config: { storeUrl: 'postgres://team@db/x' } }),
    );
    const viaConfig = openHome({ home: root, env: {} });
    expect(SharedStoreUnsupportedError.isInstance(catchError(() => viaConfig.openStoreIfExists()))).toBe(
      true,
    );
    writeFileSync(join(root, 'state.json'), JSON.stringify({ version: 1 }));
    viaConfig.openStore().close();
  });
});
