import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MeterReadError } from '../errors/meter-read-error';
import { readContext, tempDir } from '../test-support/temp-dir';
import { createFileMeterReader } from './file-meter-reader';
import { createManualMeterReader, createNoneMeterReader } from './manual-meter-reader';

describe('file reader', () => {
  it('reads a meter reading file at a templated path', async () => {
    const home = await tempDir();
    await mkdir(join(home, 'meters'));
    await writeFile(
      join(home, 'meters', 'acme.json'),
      JSON.stringify({
        readAt: '2026-05-23T03:00:00Z',
        windows: [{ kind: 'weekly', usedPct: 31, resetsAt: '2026-05-25T00:00:00Z' }],
      }),
    );
    const result = await createFileMeterReader({ path: '{{home}}/meters/{{account}}.json' }).read(
      readContext({ home, account: 'acme' }),
    );
    expect(result).toEqual({
      kind: 'reading',
      readAt: Date.parse('2026-05-23T03:00:00Z'),
      windows: [
        { kind: 'weekly', usedPct: 31, resetsAt: Date.parse('2026-05-25T00:00:00Z'), windowMinutes: 10_080 },
      ],
    });
  });

  it('reports a missing file as "no meter file at <path>"', async () => {
    const dir = await tempDir();
    const path = join(dir, 'absent.json');
    const error = await createFileMeterReader({ path })
      .read(readContext())
      .catch((e: unknown) => e);
    expect(MeterReadError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      reason: 'no-file',
      status: 'no meter file',
      location: path,
      sourceType: 'file',
    });
    expect((error as Error).message).toBe(`no meter file at ${path}`);
  });

  it('names the file and the field of an invalid reading', async () => {
    const dir = await tempDir();
    const path = join(dir, 'm.json');
    await writeFile(path, '{"windows":[{"kind":"weekly","usedPct":"lots"}]}');
    const error = await createFileMeterReader({ path })
      .read(readContext())
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'bad-reading', fieldPath: 'windows[0].usedPct' });
    expect((error as Error).message).toContain(`meter file ${path}`);
    expect((error as Error).message).toContain('windows[0].usedPct');
  });
});

describe('manual and none readers', () => {
  it('manual: the hand-set reading, or unmetered when none is set', async () => {
    const windows = [{ kind: 'weekly' as const, usedPct: 12, windowMinutes: 10_080 }];
    const meters = {
      getManual: async (poolId: string) => (poolId === 'grok' ? { windows, setAt: 42 } : undefined),
    };
    const reader = createManualMeterReader();
    expect(await reader.read(readContext({ poolId: 'grok', meters }))).toEqual({
      kind: 'manual',
      windows,
      readAt: 42,
    });
    expect(await reader.read(readContext({ poolId: 'codex', meters }))).toEqual({ kind: 'unmetered' });
  });

  it('none: unmetered', async () => {
    expect(await createNoneMeterReader().read(readContext())).toEqual({ kind: 'unmetered' });
  });
});
