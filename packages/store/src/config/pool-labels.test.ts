import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigFileError } from '../errors/config-file-error';
import { InvalidLabelError } from '../errors/invalid-label-error';
import { UnknownPoolError } from '../errors/unknown-pool-error';
import { homePaths } from '../home/home-paths';
import { catchError } from '../test-support/catch-error';
import { useTempDirs } from '../test-support/temp-dir';
import {
  clearLabel,
  listLabels,
  poolLabel,
  readLabels,
  resolvePoolRef,
  setLabel,
  updateLabels,
} from './pool-labels';
import { readState, updateState } from './state-file';

const tempDir = useTempDirs();

function homeWithPools(...ids: string[]): string {
  const home = tempDir();
  updateState(home, (state) => {
    for (const id of ids) {
      const [connector, account] = id.split(':') as [string, string | undefined];
      state.pools.push({
        id,
        connector,
        ...(account === undefined ? {} : { account }),
        enabled: true,
        models: {},
        addedAt: '2026-09-01T00:00:00Z',
      });
    }
  });
  return home;
}

describe('pool labels', () => {
  it('reads no labels from a missing file without creating it', () => {
    const home = join(tempDir(), 'none');
    expect(readLabels(home)).toEqual({ version: 1, labels: {} });
    expect(listLabels(home)).toEqual([]);
    expect(existsSync(home)).toBe(false);
  });

  it('sets, lists, resolves and clears a label', () => {
    const home = homeWithPools('claude-code', 'claude-code:acme', 'codex');
    expect(setLabel(home, 'claude-code:acme', 'claude-code:a')).toEqual({
      poolId: 'claude-code:acme',
      label: 'claude-code:a',
    });
    expect(JSON.parse(readFileSync(homePaths(home).labelsPath, 'utf8'))).toEqual({
      version: 1,
      labels: { 'claude-code:acme': 'claude-code:a' },
    });
    expect(listLabels(home)).toEqual([
      { poolId: 'claude-code:acme', label: 'claude-code:a', configured: true },
    ]);
    const state = readState(home);
    const labels = readLabels(home);
    expect(resolvePoolRef('claude-code:a', state, labels)).toBe('claude-code:acme');
    expect(resolvePoolRef('claude-code:acme', state, labels)).toBe('claude-code:acme');
    expect(resolvePoolRef('codex', state, labels)).toBe('codex');
    expect(poolLabel('claude-code:acme', labels)).toBe('claude-code:a');
    expect(poolLabel('codex', labels)).toBe('codex');
    // a pool can be named by its label when relabelling or clearing
    setLabel(home, 'claude-code:a', 'acme');
    expect(readLabels(home).labels).toEqual({ 'claude-code:acme': 'acme' });
    expect(clearLabel(home, 'acme')).toBe(true);
    expect(clearLabel(home, 'claude-code:acme')).toBe(false);
    expect(readLabels(home).labels).toEqual({});
  });

  it.each([
    ['', 'empty'],
    ['my pool', 'whitespace'],
    ['tab\there', 'whitespace'],
    ['bell\u0007', 'whitespace'],
  ])('refuses the label %j (%s)', (label, reason) => {
    const home = homeWithPools('codex');
    const error = catchError(() => setLabel(home, 'codex', label)) as InvalidLabelError;
    expect(InvalidLabelError.isInstance(error)).toBe(true);
    expect(error.reason).toBe(reason);
    expect(error.poolId).toBe('codex');
    expect(existsSync(homePaths(home).labelsPath)).toBe(false);
  });

  it("refuses a label equal to another pool's id", () => {
    const home = homeWithPools('codex', 'grok');
    const error = catchError(() => setLabel(home, 'codex', 'grok')) as InvalidLabelError;
    expect(error.reason).toBe('equals-pool-id');
    expect(error.conflictingPoolId).toBe('grok');
    expect(error.message).toContain("another pool's id (grok)");
  });

  it('refuses a label another pool already has', () => {
    const home = homeWithPools('codex', 'grok');
    setLabel(home, 'codex', 'fast');
    const error = catchError(() => setLabel(home, 'grok', 'fast')) as InvalidLabelError;
    expect(error.reason).toBe('duplicate');
    expect(error.conflictingPoolId).toBe('codex');
    expect(readLabels(home).labels).toEqual({ codex: 'fast' });
  });

  it("treats setting a pool's label to its own id as clearing it", () => {
    const home = homeWithPools('codex');
    setLabel(home, 'codex', 'cx');
    expect(setLabel(home, 'cx', 'codex')).toEqual({ poolId: 'codex', label: 'codex' });
    expect(readLabels(home).labels).toEqual({});
  });

  it('allows relabelling a pool with its current label (no-op)', () => {
    const home = homeWithPools('codex');
    setLabel(home, 'codex', 'cx');
    expect(setLabel(home, 'codex', 'cx').label).toBe('cx');
  });

  it('throws UnknownPoolError listing known pools as id (label)', () => {
    const home = homeWithPools('claude-code:acme', 'codex');
    setLabel(home, 'claude-code:acme', 'acme');
    const error = catchError(() =>
      resolvePoolRef('gemini', readState(home), readLabels(home)),
    ) as UnknownPoolError;
    expect(UnknownPoolError.isInstance(error)).toBe(true);
    expect(error.ref).toBe('gemini');
    expect(error.knownPools).toEqual([{ id: 'claude-code:acme', label: 'acme' }, { id: 'codex' }]);
    expect(error.message).toBe('unknown pool "gemini": known pools: claude-code:acme (acme), codex');
    expect(UnknownPoolError.isInstance(catchError(() => setLabel(home, 'gemini', 'g')))).toBe(true);
    expect(UnknownPoolError.isInstance(catchError(() => clearLabel(home, 'gemini')))).toBe(true);
  });

  it('says when no pools are configured', () => {
    const home = tempDir();
    const error = catchError(() =>
      resolvePoolRef('codex', readState(home), readLabels(home)),
    ) as UnknownPoolError;
    expect(error.message).toMatch(/no pools are configured/);
  });

  it('prefers an id over a label and ignores labels of removed pools', () => {
    const home = homeWithPools('codex', 'grok');
    setLabel(home, 'grok', 'gx');
    // a pool whose id equals an existing label, written into state.json by hand (pools add refuses it)
    updateState(home, (state) => {
      state.pools.push({
        id: 'gx',
        connector: 'gx',
        enabled: true,
        models: {},
        addedAt: '2026-09-02T00:00:00Z',
      });
    });
    expect(resolvePoolRef('gx', readState(home), readLabels(home))).toBe('gx');
    // … makes pool-labels.json invalid: a label is never another pool's id
    const error = catchError(() => listLabels(home));
    expect(ConfigFileError.isInstance(error) && [error.filePath, error.fieldPath]).toEqual([
      homePaths(home).labelsPath,
      'labels.grok',
    ]);
    expect(ConfigFileError.isInstance(catchError(() => setLabel(home, 'codex', 'cx')))).toBe(true);
    updateState(home, (state) => {
      state.pools = state.pools.filter((pool) => pool.id !== 'gx');
    });
    // remove grok: its label stays in the file (listed as not configured) and no longer resolves
    updateState(home, (state) => {
      state.pools = state.pools.filter((pool) => pool.id !== 'grok');
    });
    expect(listLabels(home)).toEqual([{ poolId: 'grok', label: 'gx', configured: false }]);
    expect(
      UnknownPoolError.isInstance(catchError(() => resolvePoolRef('gx', readState(home), readLabels(home)))),
    ).toBe(true);
    // the orphan label can still be cleared by its pool id
    expect(clearLabel(home, 'grok')).toBe(true);
  });

  it('reports an invalid labels file with its field, and refuses to write over it', () => {
    const home = homeWithPools('codex', 'grok');
    const { labelsPath } = homePaths(home);
    const bad = JSON.stringify({ version: 1, labels: { codex: 'same', grok: 'same' } });
    writeFileSync(labelsPath, bad);
    const error = catchError(() => readLabels(home)) as ConfigFileError;
    expect(ConfigFileError.isInstance(error)).toBe(true);
    expect(error.fieldPath).toBe('labels.grok');
    expect(error.problem).toMatch(/also the label of codex/);
    expect(ConfigFileError.isInstance(catchError(() => clearLabel(home, 'codex')))).toBe(true);
    expect(readFileSync(labelsPath, 'utf8')).toBe(bad);
  });

  it('validates label keys and values in the file', () => {
    const home = tempDir();
    writeFileSync(homePaths(home).labelsPath, JSON.stringify({ version: 1, labels: { codex: 'has space' } }));
    expect((catchError(() => readLabels(home)) as ConfigFileError).fieldPath).toBe('labels.codex');
    writeFileSync(homePaths(home).labelsPath, JSON.stringify({ version: 1, labels: { 'Not An Id': 'x' } }));
    expect((catchError(() => readLabels(home)) as ConfigFileError).problem).toMatch(/invalid key/);
  });

  it('updateLabels refuses a result with duplicate labels', () => {
    const home = tempDir();
    const error = catchError(() =>
      updateLabels(home, (file) => {
        file.labels.codex = 'x';
        file.labels.grok = 'x';
      }),
    ) as ConfigFileError;
    expect(error.kind).toBe('rejected-update');
    expect(existsSync(homePaths(home).labelsPath)).toBe(false);
  });
});
