import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatchTask } from '../dispatch/dispatch-task';
import type { DispatchEvent } from '../dispatch/dispatch-types';
import { closeDispatchFixtures, createDispatchFixture } from '../test-support/dispatch-fixture';
import { createJsonlEventWriter } from './jsonl-event-writer';

const dirs: string[] = [];
afterEach(async () => {
  await closeDispatchFixtures();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const event = (poolId: string): DispatchEvent => ({
  type: 'route.decided',
  action: 'run',
  attempt: 1,
  at: 1,
  poolId,
  reason: 'most-behind capable pool (surplus 40)',
});

describe('createJsonlEventWriter', () => {
  it('appends one JSON line per event to a file (creating its directory)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bullswarm-events-'));
    dirs.push(dir);
    const path = join(dir, 'nested', 'events.jsonl');
    const first = createJsonlEventWriter(path);
    first.write(event('a'));
    await first.close();
    const second = createJsonlEventWriter(path);
    second.write(event('b'));
    await second.close();
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { poolId: string }).poolId)).toEqual(['a', 'b']);
    expect(() => second.write(event('c'))).toThrow(/closed/);
  });

  it('writes to a stream, ending it only when asked', async () => {
    const stream = new PassThrough();
    let text = '';
    stream.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    const writer = createJsonlEventWriter(stream, { endStream: true });
    writer.write(event('a'));
    await writer.close();
    expect(stream.writableEnded).toBe(true);
    expect(JSON.parse(text.trim())).toEqual(event('a'));
  });

  it("records a dispatch's events as typed JSONL, in order", async () => {
    const f = await createDispatchFixture([
      {
        account: 'a',
        windows: [{ kind: 'weekly', usedPct: 10, resetsInMin: 5040 }],
        scenario: { default: 'crash' },
      },
      { account: 'b', windows: [{ kind: 'weekly', usedPct: 30, resetsInMin: 5040 }] },
    ]);
    const path = join(f.out, 'events.jsonl');
    const writer = createJsonlEventWriter(path);
    await dispatchTask(f.runtime, f.request({ onEvent: writer.write }));
    await writer.close();
    const events = readFileSync(path, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as DispatchEvent);
    expect(events.map((e) => e.type)).toEqual([
      'route.decided',
      'attempt.started',
      'attempt.finished',
      'route.decided',
      'attempt.started',
      'attempt.finished',
    ]);
    expect(events[2]).toMatchObject({
      type: 'attempt.finished',
      poolId: 'sim:a',
      kind: 'process',
      stalled: false,
      partialOutput: true,
      willRetry: true,
    });
    expect(events[3]).toMatchObject({
      type: 'route.decided',
      attempt: 2,
      poolId: 'sim:b',
      reason: 'fallback from sim:a after crash (exit 1) · most-behind capable pool (surplus 20)',
    });
    expect(events[5]).toMatchObject({ type: 'attempt.finished', kind: 'ok', willRetry: false });
  });
});
