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
  findLabelConflicts,
  listLabels,
  poolLabel,
  readLabels,
  resolvePoolRef,
  setLabel,
  updateLabels,
  usableLabels,
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
      { poolId: 'claude-code:acme', label: 'claude-code:a', configured: true, equalsPoolId: null },
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
    updateState(home, (state) => {
      state.pools = state.pools.filter((pool) => pool.id !== 'gx');
    });
    // remove grok: its label stays in the file (listed as not configured) and no longer resolves
    updateState(home, (state) => {
      state.pools = state.pools.filter((pool) => pool.id !== 'grok');
    });
    expect(listLabels(home)).toEqual([
      { poolId: 'grok', label: 'gx', configured: false, equalsPoolId: null },
    ]);
    expect(
      UnknownPoolError.isInstance(catchError(() => resolvePoolRef('gx', readState(home), readLabels(home)))),
    ).toBe(true);
    // the orphan label can still be cleared by its pool id
    expect(clearLabel(home, 'grok')).toBe(true);
  });

  describe('a label equal to another pool id (a hand edit) is ignored, never fatal', () => {
    function conflictHome(): { home: string; text: string } {
      const home = homeWithPools('sim:ahead', 'sim:behind', 'codex');
      // sim:ahead is itself labelled: the file alone sees a label equal to another key, still readable
      const text = JSON.stringify({
        version: 1,
        labels: { 'sim:behind': 'sim:ahead', 'sim:ahead': 'front', codex: 'cx' },
      });
      writeFileSync(homePaths(home).labelsPath, text);
      return { home, text };
    }

    it('finds it, drops it from the labels in effect, and lists it', () => {
      const { home } = conflictHome();
      const labels = readLabels(home);
      const state = readState(home);
      expect(findLabelConflicts(labels, state)).toEqual([{ poolId: 'sim:behind', label: 'sim:ahead' }]);
      const usable = usableLabels(labels, state);
      expect(usable.labels).toEqual({ 'sim:ahead': 'front', codex: 'cx' });
      // the id wins, the pool with the conflicting label shows as its id, other labels still work
      expect(resolvePoolRef('sim:ahead', state, usable)).toBe('sim:ahead');
      expect(resolvePoolRef('front', state, usable)).toBe('sim:ahead');
      expect(resolvePoolRef('cx', state, usable)).toBe('codex');
      expect(poolLabel('sim:behind', usable)).toBe('sim:behind');
      expect(listLabels(home)).toEqual([
        { poolId: 'codex', label: 'cx', configured: true, equalsPoolId: null },
        { poolId: 'sim:ahead', label: 'front', configured: true, equalsPoolId: null },
        { poolId: 'sim:behind', label: 'sim:ahead', configured: true, equalsPoolId: 'sim:ahead' },
      ]);
    });

    it('does not block other label changes, and is repaired by --clear or a new label', () => {
      const { home } = conflictHome();
      expect(setLabel(home, 'codex', 'cdx')).toEqual({ poolId: 'codex', label: 'cdx' });
      // relabelling the pool with the conflicting label replaces it
      expect(setLabel(home, 'sim:behind', 'back')).toEqual({ poolId: 'sim:behind', label: 'back' });
      expect(findLabelConflicts(readLabels(home), readState(home))).toEqual([]);
      // and clearing works too (written back by hand first)
      updateLabels(home, (labels) => {
        labels.labels['sim:behind'] = 'sim:ahead';
      });
      expect(clearLabel(home, 'sim:behind')).toBe(true);
      expect(readLabels(home).labels).toEqual({ 'sim:ahead': 'front', codex: 'cdx' });
    });

    it('the conflicting label never names its pool: set and clear by it reach the pool with that id', () => {
      const { home } = conflictHome();
      expect(setLabel(home, 'sim:ahead', 'lead')).toEqual({ poolId: 'sim:ahead', label: 'lead' });
      expect(clearLabel(home, 'sim:ahead')).toBe(true);
      expect(readLabels(home).labels).toEqual({ 'sim:behind': 'sim:ahead', codex: 'cx' });
    });

    it('counts only labels of pools in state.json', () => {
      const home = homeWithPools('codex', 'grok');
      // gone:x is no longer configured; its label equals a configured pool id, and is ignored anyway
      writeFileSync(
        homePaths(home).labelsPath,
        JSON.stringify({ version: 1, labels: { 'gone:x': 'codex' } }),
      );
      expect(findLabelConflicts(readLabels(home), readState(home))).toEqual([]);
      expect(listLabels(home)).toEqual([
        { poolId: 'gone:x', label: 'codex', configured: false, equalsPoolId: null },
      ]);
      expect(setLabel(home, 'grok', 'gk')).toEqual({ poolId: 'grok', label: 'gk' });
      expect(resolvePoolRef('codex', readState(home), readLabels(home))).toBe('codex');
    });

    it('creating the conflict stays refused', () => {
      const { home } = conflictHome();
      const error = catchError(() => setLabel(home, 'codex', 'sim:behind'));
      expect(InvalidLabelError.isInstance(error) && error.reason).toBe('equals-pool-id');
    });
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
