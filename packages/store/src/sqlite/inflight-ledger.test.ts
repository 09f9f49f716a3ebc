import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { readProcessStartTime } from '@bullswarm/connectors/internal';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreInputError } from '../errors/store-input-error';
import { catchError } from '../test-support/catch-error';
import { useTempDirs } from '../test-support/temp-dir';
import { type EmbeddedBullswarmStore, openStore } from './open-store';

const tempDir = useTempDirs();
const opened: EmbeddedBullswarmStore[] = [];
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});

function open(dbPath = join(tempDir(), 'bullswarm.db'), host?: string): EmbeddedBullswarmStore {
  const store = openStore({ dbPath, ...(host === undefined ? {} : { host }) });
  opened.push(store);
  return store;
}

describe('in-flight ledger', () => {
  it('records, lists, attaches a worker pid and releases', () => {
    const store = open();
    const entry = store.ledger.record({
      poolId: 'codex',
      action: 'run-1',
      lane: 'build',
      tier: 'high',
      startedAt: 1_000,
      expectedMinutes: 12.5,
      pid: process.pid,
    });
    expect(entry.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(entry.host).toBe(hostname()); // the default host
    store.ledger.record({
      id: 'fixed',
      poolId: 'grok',
      action: 'run-2/step-a',
      startedAt: 500,
      pid: process.pid,
    });
    store.ledger.setWorkerPid(entry.id, 4242);
    expect(store.ledger.list()).toEqual([
      {
        id: 'fixed',
        poolId: 'grok',
        action: 'run-2/step-a',
        startedAt: 500,
        pid: process.pid,
        host: entry.host,
      },
      { ...entry, workerPid: 4242 },
    ]);
    expect(store.ledger.list({ poolId: 'codex' }).map((e) => e.id)).toEqual([entry.id]);
    expect(store.ledger.release(entry.id)).toBe(true);
    expect(store.ledger.release(entry.id)).toBe(false);
    expect(store.ledger.release('never-recorded')).toBe(false);
    expect(store.ledger.list().map((e) => e.id)).toEqual(['fixed']);
  });

  it('is shared by every handle on the same database', () => {
    const dbPath = join(tempDir(), 'bullswarm.db');
    const a = open(dbPath);
    const b = open(dbPath);
    const entry = a.ledger.record({ poolId: 'codex', action: 'x', startedAt: 1, pid: process.pid });
    expect(b.ledger.list().map((e) => e.id)).toEqual([entry.id]);
    b.ledger.release(entry.id);
    expect(a.ledger.list()).toEqual([]);
  });

  it('refuses malformed entries, naming the field', () => {
    const store = open();
    const base = { poolId: 'codex', action: 'x', startedAt: 1, pid: process.pid };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, poolId: '' }, 'poolId'],
      [{ ...base, startedAt: Number.NaN }, 'startedAt'],
      [{ ...base, pid: 0 }, 'pid'],
      [{ ...base, lane: 'review' }, 'lane'],
      [{ ...base, expectedMinutes: -1 }, 'expectedMinutes'],
    ];
    for (const [entry, field] of cases) {
      const caught = catchError(() => store.ledger.record(entry as never));
      expect(StoreInputError.isInstance(caught), field).toBe(true);
      expect((caught as StoreInputError).field).toBe(field);
      expect((caught as StoreInputError).message).toContain(`ledger.record: ${field} must be`);
    }
    // The message shows the value given (NaN, not the `null` JSON would print).
    expect(() => store.ledger.record({ ...base, startedAt: Number.NaN })).toThrow(
      'ledger.record: startedAt must be a finite number (epoch ms), got NaN',
    );
    store.ledger.record({ ...base, id: 'dup' });
    expect(() => store.ledger.record({ ...base, id: 'dup' })).toThrow(
      /id must be an id not already in flight/,
    );
    expect(store.ledger.list()).toHaveLength(1);
  });

  it('reaps the entry of a process that died', async () => {
    const store = open();
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    await once(child, 'spawn');
    const pid = child.pid as number;
    const mine = store.ledger.record({ poolId: 'codex', action: 'alive', startedAt: 1, pid: process.pid });
    const theirs = store.ledger.record({ poolId: 'codex', action: 'child', startedAt: 2, pid });
    expect(store.ledger.list().map((e) => e.id)).toEqual([mine.id, theirs.id]);
    child.kill('SIGKILL');
    await once(child, 'exit');
    expect(store.ledger.list().map((e) => e.id)).toEqual([mine.id]);
    expect(store.ledger.reap()).toBe(0);
  });

  it.runIf(process.platform === 'linux')('reaps an entry whose pid was reused by a newer process', () => {
    const store = open();
    const entry = store.ledger.record({ poolId: 'codex', action: 'x', startedAt: 1, pid: process.pid });
    const recorded = store.database
      .prepare('SELECT pid_start_time FROM inflight WHERE id = ?')
      .get(entry.id) as {
      pid_start_time: string;
    };
    expect(recorded.pid_start_time).toBe(readProcessStartTime(process.pid));
    const other = store.ledger.record({ poolId: 'codex', action: 'y', startedAt: 2, pid: process.pid });
    // The recorded process started at another time: this live pid now belongs to a newer process.
    store.database.prepare("UPDATE inflight SET pid_start_time = '1' WHERE id = ?").run(entry.id);
    expect(store.ledger.reap()).toBe(1);
    expect(store.ledger.list().map((e) => e.id)).toEqual([other.id]);
  });

  it('keeps entries recorded on another host, whatever their pid', async () => {
    const dbPath = join(tempDir(), 'bullswarm.db');
    const elsewhere = open(dbPath, 'other-machine');
    const here = open(dbPath, 'this-machine');
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    const remote = elsewhere.ledger.record({
      poolId: 'codex',
      action: 'x',
      startedAt: 1,
      pid: child.pid as number,
    });
    const local = here.ledger.record({
      poolId: 'codex',
      action: 'y',
      startedAt: 2,
      pid: child.pid as number,
    });
    expect(here.ledger.list().map((e) => e.id)).toEqual([remote.id]);
    expect(remote.host).toBe('other-machine');
    expect(local.host).toBe('this-machine');
  });
});
