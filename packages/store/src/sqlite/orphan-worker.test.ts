import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { isPidAlive, readProcessStartTime } from '@bullswarm/connectors/internal';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnNode, supportScript, workerDistIndex } from '../test-support/spawn-node';
import { useTempDirs } from '../test-support/temp-dir';
import { coreMigrations } from './core-migrations';
import { type EmbeddedBullswarmStore, openStore } from './open-store';

const tempDir = useTempDirs();
const opened: EmbeddedBullswarmStore[] = [];
const spawned: ChildProcess[] = [];
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
  for (const child of spawned.splice(0)) {
    try {
      process.kill(-(child.pid as number), 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
  }
});

function open(dbPath = join(tempDir(), 'bullswarm.db')): EmbeddedBullswarmStore {
  const store = openStore({ dbPath, orphanGraceMs: 100 });
  opened.push(store);
  return store;
}

/** The pid of a process that has exited: a dispatcher killed with SIGKILL. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await once(child, 'exit');
  return child.pid as number;
}

/**
 * A worker that ignores SIGTERM (so only the SIGKILL follow-up ends it), leads its own group
 * when `detached`, and has a grandchild in that group that ignores SIGTERM too. Prints the
 * grandchild's pid once both have their handlers; prints `TERM` on each SIGTERM; on an `exit`
 * line on stdin it exits with code 7 a moment later (after any pending signal was handled).
 */
async function startWorker(
  detached: boolean,
): Promise<{ child: ChildProcess; grandchild: number; out: string[] }> {
  const script = `
    process.on('SIGTERM', () => process.stdout.write('TERM\\n'));
    const g = require('node:child_process').spawn(process.execPath,
      ['-e', "process.on('SIGTERM', () => {}); process.stdout.write('up'); setInterval(() => {}, 1000)"],
      { stdio: ['ignore', 'pipe', 'ignore'] });
    g.stdout.once('data', () => process.stdout.write('grandchild ' + g.pid + '\\n'));
    process.stdin.on('data', (d) => { if (String(d).includes('exit')) setTimeout(() => process.exit(7), 50); });
    setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'ignore'], detached });
  spawned.push(child);
  const out: string[] = [];
  let grandchild: number | undefined;
  child.stdout?.setEncoding('utf8');
  await new Promise<void>((resolve) => {
    child.stdout?.on('data', (text: string) => {
      out.push(...text.split('\n').filter(Boolean));
      const line = out.find((l) => l.startsWith('grandchild '));
      if (grandchild === undefined && line !== undefined) {
        grandchild = Number(line.split(' ')[1]);
        resolve();
      }
    });
  });
  return { child, grandchild: grandchild as number, out };
}

async function waitUntilGone(pid: number): Promise<void> {
  // Not our child: nothing to await but its disappearance (bounded by the test's timeout).
  while (isPidAlive(pid)) await new Promise((r) => setTimeout(r, 20));
}

describe.runIf(process.platform === 'linux')('orphaned workers of a dead dispatcher', () => {
  it('reaping the entry ends the worker group: SIGTERM, then SIGKILL after the grace, grandchild included', async () => {
    const store = open();
    const worker = await startWorker(true);
    const workerPid = worker.child.pid as number;
    const entry = store.ledger.record({ poolId: 'sim', action: 'run-1', startedAt: 1, pid: await deadPid() });
    store.ledger.setWorkerPid(entry.id, workerPid);
    const exited = once(worker.child, 'exit');

    expect(store.ledger.list()).toEqual([]);
    const [code, signal] = await exited;
    expect({ code, signal }).toEqual({ code: null, signal: 'SIGKILL' });
    expect(worker.out).toContain('TERM');
    await waitUntilGone(worker.grandchild);
    expect(isPidAlive(worker.grandchild)).toBe(false);
  });

  it('a reaping process that calls process.exit() at once still sends the SIGKILL (its exit listener finishes the grace)', async () => {
    const dbPath = join(tempDir(), 'bullswarm.db');
    const store = open(dbPath);
    const worker = await startWorker(true);
    const workerPid = worker.child.pid as number;
    const entry = store.ledger.record({ poolId: 'sim', action: 'run-1', startedAt: 1, pid: await deadPid() });
    store.ledger.setWorkerPid(entry.id, workerPid);
    const exited = once(worker.child, 'exit');

    const reaper = await spawnNode(supportScript('reap-and-exit.mjs'), [workerDistIndex, dbPath, '200']).done;
    expect(reaper).toMatchObject({ code: 0, stdout: '0\n', stderr: '' });
    const [code, signal] = await exited;
    expect({ code, signal }).toEqual({ code: null, signal: 'SIGKILL' });
    await waitUntilGone(worker.grandchild);
    expect(isPidAlive(worker.grandchild)).toBe(false);
  });

  it('never signals a pid that is not provably the worker: another start time, no start time, not a group leader', async () => {
    const store = open();
    const reused = await startWorker(true);
    const legacy = await startWorker(true);
    const notLeader = await startWorker(false);
    const dead = await deadPid();
    const ids = [reused, legacy, notLeader].map((worker, i) => {
      const { id } = store.ledger.record({ poolId: 'sim', action: `run-${i}`, startedAt: 1, pid: dead });
      store.ledger.setWorkerPid(id, worker.child.pid as number);
      return id;
    });
    const start = readProcessStartTime(reused.child.pid as number) as string;
    // The recorded worker was a process that started earlier; this pid now belongs to another.
    store.database
      .prepare('UPDATE inflight SET worker_start_time = ? WHERE id = ?')
      .run(`${Number(start) - 1}`, ids[0]);
    // An entry recorded before start times were (schema v1): nothing proves who the pid is.
    store.database.prepare('UPDATE inflight SET worker_start_time = NULL WHERE id = ?').run(ids[1]);

    expect(store.ledger.list()).toEqual([]);
    for (const worker of [reused, legacy, notLeader]) {
      const exited = once(worker.child, 'exit');
      worker.child.stdin?.write('exit\n');
      const [code] = await exited;
      expect(code).toBe(7);
      expect(worker.out).not.toContain('TERM');
      expect(isPidAlive(worker.grandchild)).toBe(true);
    }
  });

  it('migrates a schema-v1 database: the column is added, existing entries kept', async () => {
    const dbPath = join(tempDir(), 'bullswarm.db');
    const first = openStore({ dbPath });
    const { id } = first.ledger.record({ poolId: 'sim', action: 'run-1', startedAt: 1, pid: process.pid });
    first.close();
    // Back to what the previous release left: no worker_start_time, store at version 1.
    const raw = new Database(dbPath);
    raw.exec(`ALTER TABLE inflight DROP COLUMN worker_start_time;
      ALTER TABLE meter_cache DROP COLUMN meter_error_detail;
      ALTER TABLE inflight DROP COLUMN heartbeat_at;
      DROP TABLE store_claims;
      DELETE FROM schema_migrations WHERE namespace = 'store' AND version > 1;
      PRAGMA user_version = 1;`);
    raw.close();

    const store = open(dbPath);
    expect(store.schemaVersion('store')).toBe(coreMigrations.migrations.length);
    expect(store.ledger.list().map((entry) => entry.id)).toEqual([id]);
    const worker = await startWorker(true);
    store.ledger.setWorkerPid(id, worker.child.pid as number);
    expect(store.database.prepare('SELECT worker_start_time FROM inflight WHERE id = ?').get(id)).toEqual({
      worker_start_time: readProcessStartTime(worker.child.pid as number),
    });
  });
});
