import { InvalidEnvironmentError } from '@bullswarm/store';
import { describe, expect, it } from 'vitest';
import {
  COUNTDOWN_TICK_MS,
  DEFAULT_WHEN_READY_POLL_MS,
  resolveWhenReadyPollMs,
  waitForBackAt,
} from './wait-for-back-at';

/** A fake real-time clock the wait reads; every sleep of the loop still runs (bounded by ms). */
function never(): AbortSignal {
  return new AbortController().signal;
}

describe('waitForBackAt', () => {
  it('waits the whole time when nothing comes back, ticking with the time left', async () => {
    const ticks: number[] = [];
    const started = Date.now();
    const outcome = await waitForBackAt({ waitMs: 60, signal: never(), onTick: (left) => ticks.push(left) });
    expect(outcome).toEqual({ kind: 'ready' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(59);
    expect(ticks.length).toBeGreaterThan(0);
    expect(ticks.every((left) => left > 0 && left <= 60)).toBe(true);
  });

  it('ticks at least once a second on a long wait (the countdown is redrawn), on a fake clock', async () => {
    let now = 0;
    const ticks: number[] = [];
    const slept: number[] = [];
    const outcome = await waitForBackAt({
      waitMs: 4_500,
      signal: never(),
      realNow: () => now,
      sleep: async (ms) => {
        slept.push(ms);
        now += ms;
      },
      onTick: (left) => ticks.push(left),
    });
    expect(outcome).toEqual({ kind: 'ready' });
    expect(ticks).toEqual([4_500, 3_500, 2_500, 1_500, 500]);
    expect(slept).toEqual([COUNTDOWN_TICK_MS, 1_000, 1_000, 1_000, 500]);
  });

  it('polls on the fake clock at the interval: a 1-hour wait with 10-minute polls asks 5 times', async () => {
    let now = 0;
    let asked = 0;
    const outcome = await waitForBackAt({
      waitMs: 3_600_000,
      signal: never(),
      pollMs: 600_000,
      realNow: () => now,
      sleep: async (ms) => {
        now += ms;
      },
      isBack: async () => {
        asked += 1;
        return false;
      },
    });
    expect(outcome).toEqual({ kind: 'ready' });
    expect(asked).toBe(5);
  });

  it('ends early when a pool comes back, asking no more often than the poll interval', async () => {
    let asked = 0;
    const outcome = await waitForBackAt({
      waitMs: 60_000,
      signal: never(),
      pollMs: 20,
      isBack: async () => {
        asked += 1;
        return asked === 3;
      },
    });
    expect(outcome).toEqual({ kind: 'back-early' });
    expect(asked).toBe(3);
  });

  it('never asks before the first poll interval has passed', async () => {
    let asked = 0;
    const outcome = await waitForBackAt({
      waitMs: 50,
      signal: never(),
      pollMs: 10_000,
      isBack: async () => {
        asked += 1;
        return true;
      },
    });
    expect(outcome).toEqual({ kind: 'ready' });
    expect(asked).toBe(0);
  });

  it('ends at once when the signal aborts (Ctrl-C), even mid-wait', async () => {
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 20);
    const started = Date.now();
    const outcome = await waitForBackAt({
      waitMs: 60_000,
      signal: abort.signal,
      pollMs: 5,
      isBack: async () => false,
    });
    expect(outcome).toEqual({ kind: 'aborted' });
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('an already-aborted signal or a wait of 0 returns without sleeping', async () => {
    const abort = new AbortController();
    abort.abort();
    expect(await waitForBackAt({ waitMs: 60_000, signal: abort.signal })).toEqual({ kind: 'aborted' });
    expect(await waitForBackAt({ waitMs: 0, signal: never() })).toEqual({ kind: 'ready' });
  });
});

describe('resolveWhenReadyPollMs', () => {
  it.each([
    [undefined, DEFAULT_WHEN_READY_POLL_MS],
    ['', DEFAULT_WHEN_READY_POLL_MS],
    ['0.05', 50],
    ['30', 30_000],
    ['600', 600_000],
  ])('%j → %d ms', (value, ms) => {
    expect(resolveWhenReadyPollMs({ BULLSWARM_WHEN_READY_POLL_SEC: value })).toBe(ms);
  });

  it.each(['0', '601', 'soon', '-1', '1e3'])('refuses %j naming the variable and the range', (value) => {
    let caught: unknown;
    try {
      resolveWhenReadyPollMs({ BULLSWARM_WHEN_READY_POLL_SEC: value });
    } catch (error) {
      caught = error;
    }
    expect(InvalidEnvironmentError.isInstance(caught)).toBe(true);
    expect((caught as Error).message).toContain('BULLSWARM_WHEN_READY_POLL_SEC');
    expect((caught as Error).message).toContain('from 0.001 to 600');
  });
});
