import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConnectorV1MeterSource } from '@bullswarm/connectors';
import { describe, expect, it } from 'vitest';
import { manualClock, realStore } from '../test-support/store';
import { tempDir } from '../test-support/temp-dir';
import { startUsageServer } from '../test-support/usage-server';
import { createMeterService, type MeterServiceSettings } from './create-meter-service';

const T0 = Date.parse('2026-09-10T12:00:00Z');
const HOUR = 3_600_000;
const FIVE_H_RESET = T0 + 2 * HOUR;
const WEEK_RESET = T0 + 3 * 24 * HOUR;

function reading(fiveHour: number, weekly: number, extra: Record<string, unknown> = {}) {
  return JSON.stringify({
    windows: [
      { kind: 'five_hour', usedPct: fiveHour, resetsAt: FIVE_H_RESET },
      { kind: 'weekly', usedPct: weekly, resetsAt: WEEK_RESET },
    ],
    ...extra,
  });
}

async function setup(overrides: Partial<MeterServiceSettings> = {}) {
  const { store, dir } = await realStore();
  const clock = manualClock(T0);
  const meterFile = join(dir, 'meter.json');
  const service = createMeterService({ store, clock, env: {}, userHome: dir, ...overrides });
  const source: ConnectorV1MeterSource = { type: 'file', path: meterFile };
  const read = (
    extra: { force?: boolean; meterTtlSec?: number; poolId?: string; source?: ConnectorV1MeterSource } = {},
  ) =>
    service.readPoolMeter({
      poolId: extra.poolId ?? 'grok',
      source: extra.source ?? source,
      home: dir,
      ...extra,
    });
  return { store, clock, service, meterFile, source, read, dir };
}

const usedOf = (meter: { windows: readonly { kind: string; usedPct: number }[] }) =>
  Object.fromEntries(meter.windows.map((w) => [w.kind, w.usedPct]));

describe('meter service: cache', () => {
  it('serves the cached reading inside the TTL without touching the source (file deleted, then altered)', async () => {
    const { clock, meterFile, read } = await setup();
    await writeFile(meterFile, reading(20, 40));
    const live = await read();
    expect(live).toMatchObject({ status: 'live', readAt: T0 });
    expect(usedOf(live)).toEqual({ five_hour: 20, weekly: 40 });

    await rm(meterFile);
    clock.advance(60_000);
    const cached = await read();
    expect(cached).toEqual({ ...live, status: 'cache' });

    await writeFile(meterFile, reading(99, 99));
    clock.set(T0 + 119_999);
    expect(usedOf(await read())).toEqual({ five_hour: 20, weekly: 40 });
    expect((await read()).status).toBe('cache');

    clock.set(T0 + 120_000); // the TTL is over: the source is read
    const again = await read();
    expect(again).toMatchObject({ status: 'live', readAt: T0 + 120_000 });
    expect(usedOf(again)).toEqual({ five_hour: 99, weekly: 99 });
  });

  it('honours a configured TTL, a per-pool meterTtlSec, and force', async () => {
    const { clock, meterFile, read } = await setup({ ttlMs: 10_000 });
    await writeFile(meterFile, reading(1, 1));
    await read();
    await writeFile(meterFile, reading(2, 2));
    clock.advance(9_000);
    expect((await read()).status).toBe('cache');
    expect((await read({ meterTtlSec: 5 })).status).toBe('live');
    await writeFile(meterFile, reading(3, 3));
    expect((await read()).status).toBe('cache');
    const forced = await read({ force: true });
    expect(forced.status).toBe('live');
    expect(usedOf(forced).weekly).toBe(3);
  });
  it('reads a changed meter source at once instead of serving the old source from the cache or its hold', async () => {
    const { meterFile, read, dir } = await setup();
    await writeFile(meterFile, reading(20, 40));
    await read();
    const fakeMeter = fileURLToPath(new URL('../__fixtures__/fake-meter.mjs', import.meta.url));
    const command: ConnectorV1MeterSource = {
      type: 'command',
      command: process.execPath,
      args: [fakeMeter, 'ok', reading(70, 80)],
    };
    const switched = await read({ source: command });
    expect(switched.status).toBe('live');
    expect(usedOf(switched)).toEqual({ five_hour: 70, weekly: 80 });
    // A failing new source holds the previous good reading; switching again is not held back.
    const broken: ConnectorV1MeterSource = { type: 'file', path: join(dir, 'absent.json') };
    expect(await read({ source: broken })).toMatchObject({ status: 'stale', meterError: 'no meter file' });
    expect((await read({ source: command })).status).toBe('live');
  });
});

describe('meter service: stale hold', () => {
  it('holds the last good reading with meterError and meterHoldUntil, and does not poll before the hold ends', async () => {
    const { clock, meterFile, read } = await setup();
    await writeFile(meterFile, reading(30, 50));
    await read();
    await rm(meterFile);
    clock.set(T0 + 200_000);
    const stale = await read();
    expect(stale).toEqual({
      status: 'stale',
      windows: expect.any(Array),
      readAt: T0,
      meterError: 'no meter file',
      meterErrorDetail: `no meter file at ${meterFile}`,
      meterHoldUntil: T0 + 200_000 + 30_000,
    });
    expect(usedOf(stale)).toEqual({ five_hour: 30, weekly: 50 });

    // The source is fixed, but inside the hold it is not polled.
    await writeFile(meterFile, reading(31, 51));
    clock.set(T0 + 229_999);
    expect(await read()).toEqual(stale);
    clock.set(T0 + 230_000);
    const recovered = await read();
    expect(recovered).toMatchObject({ status: 'live', readAt: T0 + 230_000 });
    expect(recovered.meterError).toBeUndefined();
    expect(recovered.meterErrorDetail).toBeUndefined();
    expect(usedOf(recovered)).toEqual({ five_hour: 31, weekly: 51 });
  });

  it('backs off exponentially: 30 s, 60 s, 120 s … capped at 15 min, and resets after a success', async () => {
    const { clock, meterFile, read } = await setup();
    await writeFile(meterFile, reading(10, 10));
    await read();
    await rm(meterFile);
    clock.advance(120_000);
    const holds: number[] = [];
    for (let attempt = 0; attempt < 7; attempt += 1) {
      const meter = await read();
      expect(meter.status).toBe('stale');
      holds.push((meter.meterHoldUntil ?? 0) - clock());
      clock.set(meter.meterHoldUntil ?? 0);
    }
    expect(holds.map((ms) => ms / 1000)).toEqual([30, 60, 120, 240, 480, 900, 900]);
    await writeFile(meterFile, reading(11, 11));
    expect((await read()).status).toBe('live');
    await rm(meterFile);
    clock.advance(120_000);
    expect(((await read()).meterHoldUntil ?? 0) - clock()).toBe(30_000);
  });

  it('with no previous reading: unmetered with meterError, held as well', async () => {
    const { clock, meterFile, read } = await setup();
    const first = await read();
    expect(first).toEqual({
      status: 'unmetered',
      windows: [],
      meterError: 'no meter file',
      meterErrorDetail: `no meter file at ${meterFile}`,
      meterHoldUntil: T0 + 30_000,
    });
    await writeFile(meterFile, reading(5, 5));
    clock.advance(29_000);
    expect(await read()).toEqual(first);
    clock.set(T0 + 30_000);
    expect((await read()).status).toBe('live');
  });

  it('force skips the hold', async () => {
    const { meterFile, read } = await setup();
    await read();
    await writeFile(meterFile, reading(5, 5));
    expect((await read()).status).toBe('unmetered');
    expect((await read({ force: true })).status).toBe('live');
  });

  it('turns a bad reading and a bad template into meterErrors', async () => {
    const { meterFile, read, dir } = await setup();
    await writeFile(meterFile, '{"windows":[{"kind":"weekly","usedPct":"x"}]}');
    expect(await read()).toMatchObject({ status: 'unmetered', meterError: 'bad meter reading' });
    const bad = await read({ poolId: 'other', source: { type: 'file', path: `${dir}/{{acount}}.json` } });
    expect(bad).toMatchObject({ status: 'unmetered', meterError: 'bad meter source' });
  });

  it("keeps the reader's full message as meterErrorDetail: file and field path, held and cleared with the hold", async () => {
    const { clock, meterFile, read, store } = await setup();
    await writeFile(meterFile, reading(30, 50));
    await read();
    // An exporter that writes epoch seconds: the short status alone cannot say so.
    await writeFile(
      meterFile,
      JSON.stringify({ windows: [{ kind: 'weekly', usedPct: 50, resetsAt: Math.floor(WEEK_RESET / 1000) }] }),
    );
    clock.set(T0 + 200_000);
    const stale = await read();
    expect(stale).toMatchObject({ status: 'stale', meterError: 'bad meter reading' });
    expect(stale.meterErrorDetail).toContain(meterFile);
    expect(stale.meterErrorDetail).toContain(
      'is not a valid bullswarm meter reading: windows[0].resetsAt: expected epoch milliseconds',
    );
    // It is in the cache row, so another process (and the next read inside the hold) sees it.
    expect((await store.meters.getCache('grok'))?.meterErrorDetail).toBe(stale.meterErrorDetail);
    clock.advance(10_000);
    expect(await read()).toEqual(stale);
    clock.set(stale.meterHoldUntil ?? 0);
    await writeFile(meterFile, reading(31, 51));
    expect((await read()).meterErrorDetail).toBeUndefined();
    expect((await store.meters.getCache('grok'))?.meterErrorDetail).toBeUndefined();
  });

  it('a command failure keeps the command line and stderr, with credential env values redacted', async () => {
    const fakeMeter = fileURLToPath(new URL('../__fixtures__/fake-meter.mjs', import.meta.url));
    const secret = 'sk-test-0123456789abcdef';
    const { service, dir } = await setup({ env: { METER_API_TOKEN: secret } });
    const meter = await service.readPoolMeter({
      poolId: 'grok',
      home: dir,
      source: {
        type: 'command',
        command: process.execPath,
        args: [fakeMeter, 'exit', '3', '--token={{env.METER_API_TOKEN}}'],
      },
    });
    expect(meter).toMatchObject({ status: 'unmetered', meterError: 'command exited 3' });
    expect(meter.meterErrorDetail).toContain('exited 3: meter backend down');
    expect(meter.meterErrorDetail).toContain('--token=[redacted env:METER_API_TOKEN]');
    expect(JSON.stringify(meter)).not.toContain(secret);
  });

  it('Claude usage endpoint: 200 live, then 429 held stale as "http 429", 401 as "http 401"', async () => {
    const server = await startUsageServer();
    const configDir = await tempDir();
    await writeFile(
      join(configDir, '.credentials.json'),
      JSON.stringify({
        claudeAiOauth: { accessToken: 'tok', expiresAt: T0 + 24 * HOUR, scopes: ['user:profile'] },
      }),
    );
    const sample = JSON.parse(
      await readFile(new URL('../__fixtures__/claude/oauth-usage.json', import.meta.url), 'utf8'),
    );
    server.respond(200, sample);
    const { clock, read } = await setup({ readers: { claudeUsageBaseUrl: server.baseUrl } });
    const source: ConnectorV1MeterSource = { type: 'claude-code', configDir };
    const live = await read({ poolId: 'claude-code:acme', source });
    expect(live.status).toBe('live');
    expect(usedOf(live)).toEqual({ five_hour: 61, weekly: 22 });

    server.respond(429, { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } });
    clock.advance(120_000);
    const stale = await read({ poolId: 'claude-code:acme', source });
    expect(stale).toMatchObject({
      status: 'stale',
      meterError: 'http 429',
      meterHoldUntil: clock() + 30_000,
      readAt: T0,
    });
    expect(usedOf(stale)).toEqual({ five_hour: 61, weekly: 22 });
    expect(server.requests).toHaveLength(2);
    expect((await read({ poolId: 'claude-code:acme', source })).status).toBe('stale');
    expect(server.requests).toHaveLength(2); // held: no request

    server.respond(401, { type: 'error', error: { type: 'authentication_error', message: 'expired' } });
    clock.set(stale.meterHoldUntil ?? 0);
    const unauthorized = await read({ poolId: 'claude-code:acme', source });
    expect(unauthorized).toMatchObject({
      status: 'stale',
      meterError: 'http 401',
      meterHoldUntil: clock() + 60_000,
    });
    expect(unauthorized.meterErrorDetail).toBe(
      `GET ${server.baseUrl}/api/oauth/usage: 401 (the OAuth token was rejected; run claude to log in again)`,
    );
  });

  it('command source failures are held as "command exited <n>"', async () => {
    const fakeMeter = fileURLToPath(new URL('../__fixtures__/fake-meter.mjs', import.meta.url));
    const { read } = await setup();
    const meter = await read({
      source: { type: 'command', command: process.execPath, args: [fakeMeter, 'exit', '1'] },
    });
    expect(meter).toMatchObject({ status: 'unmetered', meterError: 'command exited 1' });
  });
});

describe('meter service: after a usage limit', () => {
  it('forces a re-read at once, even inside the TTL', async () => {
    const { service, meterFile, read, clock } = await setup();
    await writeFile(meterFile, reading(90, 60));
    await read();
    await writeFile(meterFile, reading(100, 61));
    clock.advance(10_000);
    expect((await read()).status).toBe('cache');
    await service.markUsageLimit('grok', { window: 'five_hour' });
    const reread = await read();
    expect(reread.status).toBe('live');
    expect(usedOf(reread)).toEqual({ five_hour: 100, weekly: 61 });
    expect((await read()).status).toBe('cache'); // the flag is cleared by the re-read
  });

  it('a successful re-read that shows less than 100% leaves the pool as read (eligible)', async () => {
    const { service, meterFile, read } = await setup();
    await writeFile(meterFile, reading(90, 60));
    await read();
    await writeFile(meterFile, reading(70, 60));
    await service.markUsageLimit('grok', { resetsAt: FIVE_H_RESET });
    expect(usedOf(await read())).toEqual({ five_hour: 70, weekly: 60 });
  });

  it('if the re-read fails, the limited window counts as full until the reset an earlier reading gave', async () => {
    const { service, meterFile, read } = await setup();
    await writeFile(meterFile, reading(90, 60));
    await read();
    await rm(meterFile);
    const mark = await service.markUsageLimit('grok', { window: 'five_hour' });
    expect(mark).toEqual({ poolId: 'grok', window: 'five_hour', countsFullUntil: FIVE_H_RESET });
    const meter = await read();
    expect(meter).toMatchObject({ status: 'stale', meterError: 'no meter file', rateLimited: true });
    expect(meter.windows).toContainEqual({
      kind: 'five_hour',
      usedPct: 100,
      resetsAt: FIVE_H_RESET,
      windowMinutes: 300,
    });
    expect(usedOf(meter).weekly).toBe(60);
  });

  it('uses the reset the provider named, and picks the window it matches', async () => {
    const { service, meterFile, read } = await setup();
    await writeFile(meterFile, reading(40, 97));
    await read();
    await rm(meterFile);
    const named = WEEK_RESET + 60_000; // within 10 min of the weekly reset the reading gave
    expect(await service.markUsageLimit('grok', { resetsAt: named })).toEqual({
      poolId: 'grok',
      window: 'weekly',
      countsFullUntil: named,
    });
    const meter = await read();
    expect(meter.windows).toContainEqual({
      kind: 'weekly',
      usedPct: 100,
      resetsAt: named,
      windowMinutes: 10_080,
    });
    expect(usedOf(meter).five_hour).toBe(40);
  });

  it('with no earlier reading, a provider-named reset alone keeps the pool full until then', async () => {
    const { service, read, clock } = await setup();
    const resetsAt = T0 + 90 * 60_000;
    expect(await service.markUsageLimit('grok', { resetsAt })).toEqual({
      poolId: 'grok',
      window: 'five_hour',
      countsFullUntil: resetsAt,
    });
    const meter = await read();
    expect(meter).toMatchObject({
      status: 'stale',
      meterError: 'no meter file',
      rateLimited: true,
      readAt: clock(),
    });
    expect(meter.windows).toEqual([{ kind: 'five_hour', usedPct: 100, resetsAt, windowMinutes: 300 }]);
  });

  it('with no known reset, nothing keeps the pool out: the failed re-read holds the earlier reading as it was', async () => {
    const { service, meterFile, read } = await setup();
    await writeFile(meterFile, JSON.stringify({ windows: [{ kind: 'weekly', usedPct: 80 }] }));
    await read();
    await rm(meterFile);
    expect(await service.markUsageLimit('grok', { window: 'weekly' })).toEqual({ poolId: 'grok' });
    expect(await service.markUsageLimit('grok')).toEqual({ poolId: 'grok' });
    const meter = await read();
    expect(meter).toMatchObject({ status: 'stale', meterError: 'no meter file' });
    expect(meter.windows).toEqual([{ kind: 'weekly', usedPct: 80, windowMinutes: 10_080 }]);
    expect(meter.rateLimited).toBeUndefined();
  });

  it('with no earlier reading and no reset named, the pool stays unmetered (not full)', async () => {
    const { service, read } = await setup();
    expect(await service.markUsageLimit('grok')).toEqual({ poolId: 'grok' });
    expect(await read()).toMatchObject({ status: 'unmetered', windows: [], meterError: 'no meter file' });
  });

  it('with neither window nor reset named, the fullest window of the earlier reading with a reset ahead is the one', async () => {
    const { service, meterFile, read, clock } = await setup();
    await writeFile(meterFile, reading(55, 98));
    await read();
    expect(await service.markUsageLimit('grok')).toEqual({
      poolId: 'grok',
      window: 'weekly',
      countsFullUntil: WEEK_RESET,
    });
    // A reset that has already passed is not "known" any more.
    clock.set(WEEK_RESET + 1);
    expect(await service.markUsageLimit('grok', { window: 'five_hour' })).toEqual({ poolId: 'grok' });
  });
});

describe('meter service: a usage limit on a pool whose meter cannot be read', () => {
  it.each([
    ['none', { type: 'none' }],
    ['manual with nothing set', { type: 'manual' }],
    ['no source at all', undefined],
  ] as const)(
    'source %s: a named reset keeps the pool full until then, then it is unmetered again',
    async (_name, src) => {
      const { service, read, clock } = await setup();
      const source = src as ConnectorV1MeterSource | undefined;
      expect(await read({ source })).toEqual({ status: 'unmetered', windows: [] });
      const resetsAt = T0 + 30 * 60_000;
      expect(await service.markUsageLimit('grok', { resetsAt })).toEqual({
        poolId: 'grok',
        window: 'five_hour',
        countsFullUntil: resetsAt,
      });
      const full = { kind: 'five_hour', usedPct: 100, resetsAt, windowMinutes: 300 };
      for (const force of [false, true]) {
        expect(await read({ source, force })).toEqual({
          status: 'stale',
          windows: [full],
          readAt: T0,
          rateLimited: true,
          meterError: 'usage limit',
          meterHoldUntil: resetsAt,
        });
      }
      clock.set(resetsAt);
      expect(await read({ source })).toEqual({ status: 'unmetered', windows: [] });
    },
  );

  it('with no reset known nothing keeps an unmetered pool out', async () => {
    const { service, read } = await setup();
    expect(await service.markUsageLimit('grok')).toEqual({ poolId: 'grok' });
    expect(await read({ source: { type: 'none' } })).toEqual({ status: 'unmetered', windows: [] });
  });

  it('a manual reading: the limit marked after it lays its full window over it; its reset can come from it', async () => {
    const { store, service, read, clock } = await setup();
    await store.meters.setManual(
      'grok',
      [{ kind: 'weekly', usedPct: 40, resetsAt: WEEK_RESET, windowMinutes: 10_080 }],
      T0,
    );
    clock.advance(60_000);
    // The notice names the window, the manual reading gives its reset.
    expect(await service.markUsageLimit('grok', { window: 'weekly' })).toEqual({
      poolId: 'grok',
      window: 'weekly',
      countsFullUntil: WEEK_RESET,
    });
    expect(await read({ source: { type: 'manual' } })).toEqual({
      status: 'manual',
      windows: [{ kind: 'weekly', usedPct: 100, resetsAt: WEEK_RESET, windowMinutes: 10_080 }],
      readAt: T0,
    });
    // A manual reading set after the limit is what a person says now: it wins.
    clock.advance(60_000);
    await store.meters.setManual(
      'grok',
      [{ kind: 'weekly', usedPct: 10, resetsAt: WEEK_RESET, windowMinutes: 10_080 }],
      clock(),
    );
    expect(usedOf(await read({ source: { type: 'manual' } }))).toEqual({ weekly: 10 });
  });
});

describe('meter service: a usage limit over a manual reading of a pool read before', () => {
  it('source read, then a manual reading, then the limit: the limit lays its full window over the manual reading', async () => {
    const { store, service, read, clock, meterFile } = await setup();
    await writeFile(meterFile, reading(10, 20));
    await read(); // a source reading at T0 in the cache
    clock.advance(60_000);
    await store.meters.setManual(
      'grok',
      [{ kind: 'weekly', usedPct: 40, resetsAt: WEEK_RESET, windowMinutes: 10_080 }],
      clock(),
    );
    clock.advance(60_000);
    expect(await service.markUsageLimit('grok', { window: 'weekly' })).toEqual({
      poolId: 'grok',
      window: 'weekly',
      countsFullUntil: WEEK_RESET,
    });
    expect(usedOf(await read())).toEqual({ weekly: 100 });
  });
});

describe('meter service: retained readings', () => {
  it('appends one row per window on every source read, none on cache reads, stamped with the source time', async () => {
    const { store, clock, meterFile, read } = await setup();
    await writeFile(meterFile, reading(10, 20));
    await read();
    clock.advance(30_000);
    await read(); // cache
    expect(await store.meters.listReadings('grok')).toEqual([
      {
        poolId: 'grok',
        window: 'five_hour',
        usedPct: 10,
        resetsAt: FIVE_H_RESET,
        windowMinutes: 300,
        readAt: T0,
        source: 'file',
      },
      {
        poolId: 'grok',
        window: 'weekly',
        usedPct: 20,
        resetsAt: WEEK_RESET,
        windowMinutes: 10_080,
        readAt: T0,
        source: 'file',
      },
    ]);

    const sourceTime = T0 + 100_000;
    await writeFile(meterFile, reading(12, 21, { readAt: new Date(sourceTime).toISOString() }));
    clock.set(T0 + 150_000);
    await read();
    clock.set(T0 + 300_000);
    expect((await read()).status).toBe('live'); // same reading, same source time: not retained twice
    const weekly = await store.meters.listReadings('grok', { window: 'weekly' });
    expect(weekly.map((row) => [row.readAt, row.usedPct])).toEqual([
      [T0, 20],
      [sourceTime, 21],
    ]);
  });

  it('prunes readings older than 14 days on the first successful read, then at most hourly', async () => {
    const { store, clock, meterFile, read } = await setup();
    const old = (readAt: number) => ({
      poolId: 'grok',
      window: 'weekly' as const,
      usedPct: 1,
      windowMinutes: 10_080,
      readAt,
      source: 'file',
    });
    const fifteenDays = 15 * 24 * HOUR;
    await store.meters.appendReadings([old(T0 - fifteenDays), old(T0 - 13 * 24 * HOUR)]);
    await writeFile(meterFile, reading(10, 20));
    await read();
    expect((await store.meters.listReadings('grok', { window: 'weekly' })).map((r) => r.readAt)).toEqual([
      T0 - 13 * 24 * HOUR,
      T0,
    ]);
    await store.meters.appendReadings([old(T0 - fifteenDays)]);
    clock.advance(30 * 60_000);
    await read();
    expect(await store.meters.listReadings('grok', { window: 'weekly' })).toHaveLength(4);
    clock.advance(30 * 60_000);
    await read();
    expect(
      (await store.meters.listReadings('grok', { window: 'weekly' })).map((r) => r.readAt),
    ).not.toContain(T0 - fifteenDays);
  });
});

describe('meter service: manual, none and readAll', () => {
  it('a manual reading replaces the source; none and empty manual are unmetered', async () => {
    const { store, read } = await setup();
    expect(await read({ source: { type: 'none' } })).toEqual({ status: 'unmetered', windows: [] });
    expect(await read({ source: { type: 'manual' } })).toEqual({ status: 'unmetered', windows: [] });
    const windows = [{ kind: 'monthly' as const, usedPct: 12, windowMinutes: 43_200 }];
    await store.meters.setManual('grok', windows, T0 - 5);
    expect(await read()).toEqual({ status: 'manual', windows, readAt: T0 - 5 });
    expect(await read({ source: { type: 'manual' } })).toEqual({ status: 'manual', windows, readAt: T0 - 5 });
  });

  it('reads many pools, each keyed by its id', async () => {
    const { service, dir } = await setup({ concurrency: 3 });
    const requests = await Promise.all(
      Array.from({ length: 10 }, async (_, index) => {
        const path = join(dir, `pool-${index}.json`);
        if (index !== 7)
          await writeFile(path, JSON.stringify({ windows: [{ kind: 'weekly', usedPct: index }] }));
        return { poolId: `file:p${index}`, source: { type: 'file' as const, path }, home: dir };
      }),
    );
    const meters = await service.readAll(requests);
    expect([...meters.keys()]).toEqual(requests.map((r) => r.poolId));
    for (const [index, request] of requests.entries()) {
      const meter = meters.get(request.poolId);
      if (index === 7) expect(meter).toMatchObject({ status: 'unmetered', meterError: 'no meter file' });
      else expect(meter).toMatchObject({ status: 'live', windows: [{ kind: 'weekly', usedPct: index }] });
    }
    const again = await service.readAll(requests);
    expect([...again.values()].filter((m) => m.status === 'cache')).toHaveLength(9);
  });

  it('never runs more than `concurrency` sources at once', async () => {
    const fakeMeter = fileURLToPath(new URL('../__fixtures__/fake-meter.mjs', import.meta.url));
    const { service, dir } = await setup({ concurrency: 3 });
    const rendezvous = join(dir, 'rendezvous');
    const requests = Array.from({ length: 6 }, (_, index) => ({
      poolId: `sim:p${index}`,
      source: {
        type: 'command' as const,
        command: process.execPath,
        args: [fakeMeter, 'slot', rendezvous, '3'],
        timeoutMs: 25_000, // above the rendezvous' own 20 s safety deadline
      },
      home: dir,
    }));
    const meters = await service.readAll(requests);
    const present = [...meters.values()].map((m) => m.windows[0]?.usedPct ?? -1);
    expect(Math.max(...present)).toBe(3); // three at once, never more
    expect(present.every((n) => n >= 1 && n <= 3)).toBe(true);
  }, 30_000);
});
