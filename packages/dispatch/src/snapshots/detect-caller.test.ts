import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openRuntime } from '../runtime/open-runtime';
import { buildPoolSnapshots } from './build-pool-snapshots';
import { detectCallerPools } from './detect-caller';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A home with three Claude Code pools (the built-in claude-code connector: caller marker
 * `CLAUDECODE`, account env `CLAUDE_CONFIG_DIR={{userHome}}/.claude-<account>`, none for the
 * default login), one Codex pool, and meters off so nothing is read.
 */
async function callerDetails() {
  const root = mkdtempSync(join(tmpdir(), 'bullswarm-caller-'));
  dirs.push(root);
  const home = join(root, 'home');
  const userHome = join(root, 'user');
  const pool = (connector: string, account?: string) => ({
    id: account === undefined ? connector : `${connector}:${account}`,
    connector,
    ...(account === undefined ? {} : { account }),
    enabled: true,
    models: {},
    meter: { type: 'none' },
    addedAt: '2026-11-30T12:00:00Z',
  });
  const state = {
    version: 1,
    pools: [pool('claude-code'), pool('claude-code', 'acme'), pool('claude-code', 'work'), pool('codex')],
    assignments: {},
    config: { inflightPenaltyPct: 3, connectors: [] },
  };
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, 'state.json'), JSON.stringify(state));
  const runtime = await openRuntime({ home, env: {}, userHome });
  try {
    const { details } = await buildPoolSnapshots(runtime);
    return { details, userHome };
  } finally {
    await runtime.close();
  }
}

describe('detectCallerPools', () => {
  it('a caller marker with an account env that matches a pool: that pool only', async () => {
    const { details, userHome } = await callerDetails();
    const env = { CLAUDECODE: '1', CLAUDE_CONFIG_DIR: join(userHome, '.claude-acme') };
    expect(detectCallerPools(details, env)).toEqual([{ poolId: 'claude-code:acme', evidence: 'CLAUDECODE' }]);
  });

  it("a caller marker with no matching account env: the connector's default login", async () => {
    const { details } = await callerDetails();
    expect(detectCallerPools(details, { CLAUDECODE: '1' })).toEqual([
      { poolId: 'claude-code', evidence: 'CLAUDECODE' },
    ]);
    // An account env naming no pool's directory is the default login too.
    expect(
      detectCallerPools(details, { CLAUDECODE: '1', CLAUDE_CONFIG_DIR: '/elsewhere' }).map((c) => c.poolId),
    ).toEqual(['claude-code']);
    expect(detectCallerPools(details, { CODEX_THREAD_ID: 't-1' })).toEqual([
      { poolId: 'codex', evidence: 'CODEX_THREAD_ID' },
    ]);
  });

  it('BULLSWARM_POOL naming a known pool wins; an unknown one falls back to the markers', async () => {
    const { details } = await callerDetails();
    expect(detectCallerPools(details, { BULLSWARM_POOL: 'codex', CLAUDECODE: '1' })).toEqual([
      { poolId: 'codex', evidence: 'BULLSWARM_POOL=codex' },
    ]);
    expect(
      detectCallerPools(details, { BULLSWARM_POOL: 'gone', CLAUDECODE: '1' }).map((c) => c.poolId),
    ).toEqual(['claude-code']);
  });

  it('no marker set (or set empty): no caller', async () => {
    const { details } = await callerDetails();
    expect(detectCallerPools(details, {})).toEqual([]);
    expect(detectCallerPools(details, { CLAUDECODE: '' })).toEqual([]);
  });
});
