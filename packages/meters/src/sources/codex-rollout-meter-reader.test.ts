import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MeterReadError } from '../errors/meter-read-error';
import { readContext, tempDir } from '../test-support/temp-dir';
import { createCodexRolloutMeterReader, findNewestCodexRateLimits } from './codex-rollout-meter-reader';

const fixtures = new URL('../__fixtures__/codex/', import.meta.url);
const fixture = (name: string) => new URL(name, fixtures);

/** Places a rollout file at sessions/YYYY/MM/DD/<name> under codexHome. */
async function placeRollout(codexHome: string, day: string, name: string, content: string | URL) {
  const [year, month, date] = day.split('-') as [string, string, string];
  const dir = join(codexHome, 'sessions', year, month, date);
  await mkdir(dir, { recursive: true });
  const path = join(dir, name);
  if (content instanceof URL) await copyFile(content, path);
  else await writeFile(path, content);
  return path;
}

function tokenCountLine(timestamp: string, rateLimits: unknown): string {
  return `${JSON.stringify({ timestamp, type: 'event_msg', payload: { type: 'token_count', info: null, rate_limits: rateLimits } })}\n`;
}

function filler(index: number): string {
  return `${JSON.stringify({
    timestamp: '2026-05-23T03:00:00.000Z',
    type: 'response_item',
    payload: {
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: `line ${index} ${'x'.repeat(200)}` }],
    },
  })}\n`;
}

describe('codex-rollout reader', () => {
  it('reads the real 2026-05-23 sample: newest token_count, classified by window_minutes, resets_at in seconds', async () => {
    const home = await tempDir();
    await placeRollout(
      home,
      '2026-05-23',
      'rollout-2026-05-23T03-01-10-0199a213.jsonl',
      fixture('rollout-real-sample.jsonl'),
    );
    const result = await createCodexRolloutMeterReader({ codexHome: home }).read(readContext());
    expect(result).toEqual({
      kind: 'reading',
      readAt: Date.parse('2026-05-23T03:03:56.045Z'),
      windows: [
        { kind: 'five_hour', usedPct: 96, resetsAt: 1_779_511_102_000, windowMinutes: 300 },
        { kind: 'weekly', usedPct: 54, resetsAt: 1_779_820_784_000, windowMinutes: 10_080 },
      ],
    });
  });

  it('keeps the last usable rate_limits when a premium line with null windows follows it', async () => {
    const home = await tempDir();
    await placeRollout(
      home,
      '2026-05-23',
      'rollout-2026-05-23T03-01-10-a.jsonl',
      fixture('rollout-premium-null-last.jsonl'),
    );
    const result = await createCodexRolloutMeterReader({ codexHome: home }).read(readContext());
    expect(result.kind === 'reading' && result.windows.map((w) => [w.kind, w.usedPct])).toEqual([
      ['five_hour', 96],
      ['weekly', 54],
    ]);
  });

  it('classifies a weekly window reported in the primary slot as weekly', async () => {
    const home = await tempDir();
    await placeRollout(
      home,
      '2026-06-02',
      'rollout-2026-06-02T10-00-00-b.jsonl',
      fixture('rollout-weekly-in-primary.jsonl'),
    );
    const result = await createCodexRolloutMeterReader({ codexHome: home }).read(readContext());
    expect(result).toEqual({
      kind: 'reading',
      readAt: Date.parse('2026-06-02T10:12:30.000Z'),
      windows: [{ kind: 'weekly', usedPct: 41.5, resetsAt: 1_780_900_000_000, windowMinutes: 10_080 }],
    });
  });

  it('computes the reset from resets_in_seconds relative to the line timestamp (older Codex)', async () => {
    const home = await tempDir();
    await placeRollout(
      home,
      '2025-10-01',
      'rollout-2025-10-01T12-00-00-c.jsonl',
      fixture('rollout-resets-in-seconds.jsonl'),
    );
    const result = await createCodexRolloutMeterReader({ codexHome: home }).read(readContext());
    const lineTime = Date.parse('2025-10-01T12:30:00.000Z');
    expect(result).toEqual({
      kind: 'reading',
      readAt: lineTime,
      windows: [
        { kind: 'five_hour', usedPct: 12, resetsAt: lineTime + 7200_000, windowMinutes: 300 },
        { kind: 'weekly', usedPct: 30, resetsAt: lineTime + 259_200_000, windowMinutes: 10_080 },
      ],
    });
  });

  it('classifies ~43200-minute windows as monthly and ignores windows of other lengths', async () => {
    const home = await tempDir();
    await placeRollout(
      home,
      '2026-06-03',
      'rollout-2026-06-03T00-00-00-d.jsonl',
      tokenCountLine('2026-06-03T01:00:00Z', {
        primary: { used_percent: 3, window_minutes: 60, resets_at: 1780500000 },
        secondary: { used_percent: 20, window_minutes: 43_800, resets_at: 1782000000 },
      }),
    );
    const result = await createCodexRolloutMeterReader({ codexHome: home }).read(readContext());
    expect(result.kind === 'reading' && result.windows).toEqual([
      { kind: 'monthly', usedPct: 20, resetsAt: 1_782_000_000_000, windowMinutes: 43_800 },
    ]);
  });

  it('takes the newest file by path (across months and years) and falls back to older files without usable limits', async () => {
    const home = await tempDir();
    const limits = (pct: number) => ({
      primary: { used_percent: pct, window_minutes: 300, resets_at: 1780000000 },
    });
    await placeRollout(
      home,
      '2025-12-31',
      'rollout-2025-12-31T23-00-00-old.jsonl',
      tokenCountLine('2025-12-31T23:10:00Z', limits(10)),
    );
    await placeRollout(
      home,
      '2026-01-01',
      'rollout-2026-01-01T08-00-00-a.jsonl',
      tokenCountLine('2026-01-01T08:10:00Z', limits(20)),
    );
    await placeRollout(
      home,
      '2026-01-01',
      'rollout-2026-01-01T09-00-00-b.jsonl',
      tokenCountLine('2026-01-01T09:10:00Z', limits(30)),
    );
    const reader = createCodexRolloutMeterReader({ codexHome: home });
    const first = await reader.read(readContext());
    expect(first.kind === 'reading' && first.windows[0]?.usedPct).toBe(30);

    // A newer file whose only rate_limits is a premium/null line: the reader moves on to older files.
    await placeRollout(
      home,
      '2026-01-02',
      'rollout-2026-01-02T07-00-00-c.jsonl',
      filler(1) +
        tokenCountLine('2026-01-02T07:05:00Z', { limit_id: 'premium', primary: null, secondary: null }),
    );
    const found = await findNewestCodexRateLimits(home);
    expect(found.windows[0]?.usedPct).toBe(30);
    expect(found.file).toMatch(/rollout-2026-01-01T09-00-00-b\.jsonl$/);
    expect(found.filesScanned).toBe(2);
  });

  it('scans only the tail of a multi-megabyte rollout file', async () => {
    const home = await tempDir();
    let body = '';
    for (let i = 0; i < 20_000; i += 1) body += filler(i); // ~5 MB of older lines
    body += tokenCountLine('2026-05-23T03:03:56.045Z', {
      primary: { used_percent: 77, window_minutes: 300, resets_at: 1779511102 },
    });
    body += filler(-1) + filler(-2);
    const path = await placeRollout(home, '2026-05-23', 'rollout-2026-05-23T03-00-00-big.jsonl', body);
    const size = (await readFile(path)).length;
    expect(size).toBeGreaterThan(5_000_000);
    const found = await findNewestCodexRateLimits(home);
    expect(found.windows).toEqual([
      { kind: 'five_hour', usedPct: 77, resetsAt: 1_779_511_102_000, windowMinutes: 300 },
    ]);
    expect(found.bytesRead).toBeLessThanOrEqual(64 * 1024);
  });

  it('finds a usable line at the very start of a big file across many chunk boundaries', async () => {
    const home = await tempDir();
    let body = tokenCountLine('2026-05-23T00:00:01Z', {
      secondary: { used_percent: 5.5, window_minutes: 10080, resets_at: 1779820784 },
    });
    for (let i = 0; i < 3_000; i += 1) body += filler(i);
    // Older token_count lines that are not usable, and a non-JSON line, are skipped.
    body += tokenCountLine('2026-05-23T00:00:02Z', null);
    body +=
      '{"timestamp":"2026-05-23T00:00:03Z","type":"event_msg","payload":{"type":"token_count","rate_limits":{"primary":{"used_percent":1,"window_minutes":300\n';
    const path = await placeRollout(home, '2026-05-23', 'rollout-2026-05-23T00-00-00-e.jsonl', body);
    const size = (await readFile(path)).length;
    const found = await findNewestCodexRateLimits(home, { chunkBytes: 1000 });
    expect(found.windows).toEqual([
      { kind: 'weekly', usedPct: 5.5, resetsAt: 1_779_820_784_000, windowMinutes: 10_080 },
    ]);
    expect(found.bytesRead).toBe(size);
  });

  it('skips a line longer than 1 MiB without parsing it and still finds the line before it', async () => {
    const home = await tempDir();
    const huge = `${JSON.stringify({ type: 'response_item', payload: { text: 'y'.repeat(1_300_000), rate_limits_note: '"rate_limits"' } })}\n`;
    const body =
      tokenCountLine('2026-05-23T00:00:01Z', {
        primary: { used_percent: 44, window_minutes: 300, resets_at: 1779511102 },
      }) +
      huge +
      filler(1);
    await placeRollout(home, '2026-05-23', 'rollout-2026-05-23T00-00-00-f.jsonl', body);
    const found = await findNewestCodexRateLimits(home, { chunkBytes: 64 * 1024 });
    expect(found.windows[0]?.usedPct).toBe(44);
  });

  it('resolves codexHome from the source, then $CODEX_HOME of the account env, then ~/.codex', async () => {
    const sourceHome = await tempDir();
    const envHome = await tempDir();
    const userHome = await tempDir();
    const line = (pct: number) =>
      tokenCountLine('2026-05-23T03:00:00Z', {
        primary: { used_percent: pct, window_minutes: 300, resets_at: 1779511102 },
      });
    await placeRollout(sourceHome, '2026-05-23', 'rollout-2026-05-23T03-00-00-s.jsonl', line(1));
    await placeRollout(envHome, '2026-05-23', 'rollout-2026-05-23T03-00-00-e.jsonl', line(2));
    await placeRollout(
      join(userHome, '.codex'),
      '2026-05-23',
      'rollout-2026-05-23T03-00-00-u.jsonl',
      line(3),
    );
    const pct = async (codexHome: string, env: Record<string, string>) => {
      const result = await createCodexRolloutMeterReader({ codexHome }).read(readContext({ env, userHome }));
      return result.kind === 'reading' ? result.windows[0]?.usedPct : undefined;
    };
    expect(await pct(sourceHome, { CODEX_HOME: envHome })).toBe(1);
    expect(await pct('{{env.CODEX_HOME}}', { CODEX_HOME: envHome })).toBe(2);
    expect(await pct('{{env.CODEX_HOME}}', {})).toBe(3);
    // A source that leaves it empty: the account's $CODEX_HOME, then ~/.codex.
    expect(await pct('', { CODEX_HOME: envHome })).toBe(2);
    expect(await pct(' ', { CODEX_HOME: ' ' })).toBe(3);
    expect(await pct('', {})).toBe(3);
  });

  it('reports rateLimited only while a reached limit has not reset', async () => {
    const home = await tempDir();
    await placeRollout(
      home,
      '2026-05-23',
      'rollout-2026-05-23T03-00-00-g.jsonl',
      tokenCountLine('2026-05-23T03:00:00Z', {
        primary: { used_percent: 100, window_minutes: 300, resets_at: 1779511102 },
        rate_limit_reached_type: 'primary',
      }),
    );
    const reader = createCodexRolloutMeterReader({ codexHome: home });
    const before = await reader.read(readContext({ at: 1_779_511_102_000 - 1 }));
    const after = await reader.read(readContext({ at: 1_779_511_102_000 + 1 }));
    expect(before.kind === 'reading' && before.rateLimited).toBe(true);
    expect(after.kind === 'reading' && after.rateLimited).toBeUndefined();
  });

  it('throws a no-rollout MeterReadError naming the sessions directory when there are no rollouts', async () => {
    const home = await tempDir();
    const error = await createCodexRolloutMeterReader({ codexHome: home })
      .read(readContext())
      .catch((e: unknown) => e);
    expect(MeterReadError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      reason: 'no-rollout',
      status: 'no codex rate_limits',
      location: join(home, 'sessions'),
    });
    expect((error as Error).message).toContain(join(home, 'sessions'));
  });
});
