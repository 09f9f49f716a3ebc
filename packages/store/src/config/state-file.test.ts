import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigFileError } from '../errors/config-file-error';
import { homePaths } from '../home/home-paths';
import { catchError } from '../test-support/catch-error';
import { useTempDirs } from '../test-support/temp-dir';
import { readState, updateState } from './state-file';
import { emptyState, type StatePool } from './state-file-schema';

const tempDir = useTempDirs();

function pool(id: string, extra: Partial<StatePool> = {}): StatePool {
  const [connector, account] = id.split(':') as [string, string | undefined];
  return {
    id,
    connector,
    ...(account === undefined ? {} : { account }),
    enabled: true,
    models: { high: 'opus', medium: null },
    addedAt: '2026-09-01T00:00:00.000Z',
    ...extra,
  };
}

describe('readState', () => {
  it('returns the empty state for a missing file and creates nothing', () => {
    const home = join(tempDir(), 'home');
    expect(readState(home)).toEqual(emptyState());
    expect(existsSync(home)).toBe(false);
  });

  it('applies defaults to a minimal hand-written file', () => {
    const home = tempDir();
    writeFileSync(
      homePaths(home).statePath,
      JSON.stringify({
        version: 1,
        pools: [{ id: 'codex', connector: 'codex', addedAt: '2026-09-01T00:00:00Z' }],
      }),
    );
    const state = readState(home);
    expect(state.pools[0]).toEqual({
      id: 'codex',
      connector: 'codex',
      enabled: true,
      models: {},
      addedAt: '2026-09-01T00:00:00Z',
    });
    expect(state.config).toEqual({ inflightPenaltyPct: 3, connectors: [] });
    expect(state.assignments).toEqual({});
  });

  it('reads every optional pool field', () => {
    const home = tempDir();
    const full = pool('claude-code:acme', {
      env: { CLAUDE_CONFIG_DIR: '/home/me/.claude-acme' },
      command: '/usr/local/bin/claude',
      capabilities: ['web'],
      lanes: ['analyze', 'build'],
      subscription: { quotaWindow: 'monthly', resetsAt: '2026-10-01T00:00:00Z' },
      meter: { type: 'command', command: 'acme-meter', args: ['--json'], timeoutMs: 5000 },
      reserves: { five_hour: 20, weekly: 12.5 },
    });
    writeFileSync(
      homePaths(home).statePath,
      JSON.stringify({
        $schema: './state.schema.json',
        version: 1,
        pools: [full],
        assignments: { high: { pool: 'claude-code:acme', model: 'opus' } },
        config: { inflightPenaltyPct: 0, connectors: ['bullswarm-connector-foo'], meterTtlSec: 60 },
      }),
    );
    const state = readState(home);
    expect(state.pools[0]).toEqual(full);
    expect(state.config.meterTtlSec).toBe(60);
    expect(state.$schema).toBe('./state.schema.json');
  });

  it.each([
    [
      'a wrong type deep in a pool',
      { version: 1, pools: [pool('a'), pool('b'), { ...pool('c'), models: { high: 42 } }] },
      'pools[2].models.high',
      /expected string/,
    ],
    [
      'a missing field',
      { version: 1, pools: [{ id: 'a', connector: 'a' }] },
      'pools[0].addedAt',
      /missing required/,
    ],
    [
      'an unknown field',
      { version: 1, pools: [{ ...pool('a'), enabeld: false }] },
      'pools[0].enabeld',
      /unknown field/,
    ],
    ['a bad pool id', { version: 1, pools: [pool('Claude Code')] }, 'pools[0].id', /pool id/],
    [
      'an id that disagrees with connector and account',
      { version: 1, pools: [{ ...pool('codex:work'), account: 'home' }] },
      'pools[0].id',
      /must be "codex:home"/,
    ],
    [
      'duplicate pool ids',
      { version: 1, pools: [pool('a'), pool('b'), pool('a')] },
      'pools[2].id',
      /duplicate pool id/,
    ],
    [
      'an assignment to a missing pool',
      { version: 1, pools: [pool('a')], assignments: { high: { pool: 'b', model: 'm' } } },
      'assignments.high.pool',
      /not in pools/,
    ],
    [
      'a negative penalty',
      { version: 1, config: { inflightPenaltyPct: -1 } },
      'config.inflightPenaltyPct',
      />=0/,
    ],
    [
      'an unknown meter type',
      { version: 1, pools: [{ ...pool('a'), meter: { type: 'magic' } }] },
      'pools[0].meter.type',
      /codex-rollout/,
    ],
    ['a newer version', { version: 2, pools: [] }, 'version', /newer bullswarm/],
    [
      'a reserve above 90',
      { version: 1, pools: [{ ...pool('a'), reserves: { weekly: 95 } }] },
      'pools[0].reserves.weekly',
      /<=90/,
    ],
    [
      'a reserve with two decimals',
      { version: 1, pools: [{ ...pool('a'), reserves: { weekly: 12.25 } }] },
      'pools[0].reserves.weekly',
      /whole or with one decimal/,
    ],
    [
      'a reserve on something that is not a window',
      { version: 1, pools: [{ ...pool('a'), reserves: { daily: 10 } }] },
      'pools[0].reserves.daily',
      /unknown field/,
    ],
    [
      'a bad lane',
      { version: 1, pools: [{ ...pool('a'), lanes: ['review'] }] },
      'pools[0].lanes[0]',
      /analyze/,
    ],
  ])('reports %s with file and field', (_name, content, fieldPath, problem) => {
    const home = tempDir();
    const { statePath } = homePaths(home);
    writeFileSync(statePath, JSON.stringify(content));
    const error = catchError(() => readState(home));
    expect(ConfigFileError.isInstance(error)).toBe(true);
    const configError = error as ConfigFileError;
    expect(configError.kind).toBe('invalid-schema');
    expect(configError.filePath).toBe(statePath);
    expect(configError.fieldPath).toBe(fieldPath);
    expect(configError.problem).toMatch(problem);
    expect(configError.message).toContain(`${statePath}: ${fieldPath}: `);
    expect(configError.recovery).toContain('bullswarm will not overwrite state.json');
  });

  it('tells a file from a newer bullswarm to upgrade, not to fix the field by hand', () => {
    const home = tempDir();
    const { statePath } = homePaths(home);
    writeFileSync(statePath, JSON.stringify({ version: 2, pools: [] }));
    const error = catchError(() => readState(home)) as ConfigFileError;
    expect(error.message).toBe(
      `${statePath}: version: version 2 was written by a newer bullswarm; this one reads version 1. upgrade bullswarm to read it; bullswarm will not overwrite state.json meanwhile`,
    );
  });

  it('reports unparseable JSON with its line and column', () => {
    const home = tempDir();
    writeFileSync(homePaths(home).statePath, '{\n  "version": 1,\n  "pools": [,]\n}\n');
    const error = catchError(() => readState(home)) as ConfigFileError;
    expect(ConfigFileError.isInstance(error)).toBe(true);
    expect(error.kind).toBe('invalid-json');
    expect(error.fieldPath).toBeUndefined();
    expect(error.problem).toBe('is not valid JSON: expected a value, found "," at line 3, column 13');
  });

  it('reports a state.json that cannot be read as a file', () => {
    const home = tempDir();
    mkdirSync(homePaths(home).statePath);
    const error = catchError(() => readState(home)) as ConfigFileError;
    expect(ConfigFileError.isInstance(error)).toBe(true);
    expect(error.kind).toBe('unreadable');
    expect(error.message).toMatch(/state\.json: cannot be read \(EISDIR\)/);
    expect(ConfigFileError.isInstance(catchError(() => updateState(home, () => emptyState())))).toBe(true);
  });

  it('ignores a leading byte-order mark', () => {
    const home = tempDir();
    writeFileSync(homePaths(home).statePath, `\ufeff${JSON.stringify({ version: 1 })}`);
    expect(readState(home)).toEqual(emptyState());
  });

  it('lists every problem, not just the first', () => {
    const home = tempDir();
    writeFileSync(
      homePaths(home).statePath,
      JSON.stringify({ version: 1, pools: [{ ...pool('a'), enabled: 'yes', command: '' }] }),
    );
    const error = catchError(() => readState(home)) as ConfigFileError;
    expect(error.problems.map((p) => p.fieldPath)).toEqual(['pools[0].enabled', 'pools[0].command']);
    expect(error.problem).toMatch(/and 1 more problem/);
  });
});

describe('updateState', () => {
  it('creates the home (0700) and the file (0600) on first write', () => {
    const home = join(tempDir(), 'nested', 'home');
    const state = updateState(home, (draft) => {
      draft.pools.push(pool('codex'));
    });
    expect(state.pools.map((p) => p.id)).toEqual(['codex']);
    expect(statSync(home).mode & 0o777).toBe(0o700);
    expect(statSync(homePaths(home).statePath).mode & 0o777).toBe(0o600);
    expect(readState(home)).toEqual(state);
    expect(existsSync(`${homePaths(home).statePath}.bak`)).toBe(false);
  });

  it('accepts a returned replacement and keeps the previous version as state.json.bak', () => {
    const home = tempDir();
    const { statePath } = homePaths(home);
    updateState(home, (draft) => {
      draft.pools.push(pool('a'));
    });
    const first = readFileSync(statePath, 'utf8');
    updateState(home, (draft) => ({ ...draft, pools: [...draft.pools, pool('b')] }));
    expect(readFileSync(`${statePath}.bak`, 'utf8')).toBe(first);
    expect(readState(home).pools.map((p) => p.id)).toEqual(['a', 'b']);
  });

  it('writes nothing when the mutation changes nothing', () => {
    const home = tempDir();
    const { statePath } = homePaths(home);
    updateState(home, (draft) => {
      draft.pools.push(pool('a'));
    });
    const before = statSync(statePath).ino;
    updateState(home, () => undefined);
    expect(statSync(statePath).ino).toBe(before);
    expect(existsSync(`${statePath}.bak`)).toBe(false);
  });

  it('refuses to overwrite a corrupt file and leaves its bytes untouched', () => {
    const home = tempDir();
    const { statePath } = homePaths(home);
    const corrupt = JSON.stringify({ version: 1, pools: [{ ...pool('a'), models: { high: 42 } }] }, null, 2);
    writeFileSync(statePath, corrupt);
    let mutated = false;
    const error = catchError(() =>
      updateState(home, (draft) => {
        mutated = true;
        draft.pools.push(pool('b'));
      }),
    ) as ConfigFileError;
    expect(ConfigFileError.isInstance(error)).toBe(true);
    expect(error.kind).toBe('invalid-schema');
    expect(error.fieldPath).toBe('pools[0].models.high');
    expect(mutated).toBe(false);
    expect(readFileSync(statePath, 'utf8')).toBe(corrupt);
    expect(readdirSync(home).sort()).toEqual(['.state.json.lock', 'state.json']);
  });

  it('refuses to overwrite unparseable JSON', () => {
    const home = tempDir();
    const { statePath } = homePaths(home);
    writeFileSync(statePath, '{"version": 1, "pools": [');
    const error = catchError(() => updateState(home, () => emptyState())) as ConfigFileError;
    expect(error.kind).toBe('invalid-json');
    expect(readFileSync(statePath, 'utf8')).toBe('{"version": 1, "pools": [');
  });

  it('points at state.json.bak in the recovery text when one exists', () => {
    const home = tempDir();
    const { statePath } = homePaths(home);
    updateState(home, (draft) => {
      draft.pools.push(pool('a'));
    });
    updateState(home, (draft) => {
      draft.pools.push(pool('b'));
    });
    writeFileSync(statePath, '{}');
    const error = catchError(() => readState(home)) as ConfigFileError;
    expect(error.recovery).toMatch(/fix the field by hand or restore state\.json\.bak/);
  });

  it('rejects an update that would make the file invalid, naming the field, and writes nothing', () => {
    const home = tempDir();
    const { statePath } = homePaths(home);
    updateState(home, (draft) => {
      draft.pools.push(pool('a'));
    });
    const before = readFileSync(statePath, 'utf8');
    const error = catchError(() =>
      updateState(home, (draft) => {
        draft.pools.push(pool('a'));
      }),
    ) as ConfigFileError;
    expect(error.kind).toBe('rejected-update');
    expect(error.fieldPath).toBe('pools[1].id');
    expect(error.recovery).toMatch(/not written; state\.json is unchanged/);
    expect(readFileSync(statePath, 'utf8')).toBe(before);
  });

  it('removes temp files left by dead writers (of the file and of its backup), but not live ones', () => {
    const home = tempDir();
    updateState(home, (draft) => {
      draft.pools.push(pool('a'));
    });
    // pid 2^22+1 is above Linux's pid_max ceiling, so no process has it.
    const dead = join(home, '.state.json.4194305.abcdef.tmp');
    const deadBackup = join(home, '.state.json.bak.4194305.abcdef.tmp');
    const live = `.state.json.${process.ppid}.abcdef.tmp`;
    for (const path of [dead, deadBackup, join(home, live)]) writeFileSync(path, '{"half": ');
    updateState(home, (draft) => {
      draft.pools.push(pool('b'));
    });
    expect(readdirSync(home).sort()).toEqual([live, '.state.json.lock', 'state.json', 'state.json.bak']);
    expect(readState(home).pools).toHaveLength(2);
  });
});
