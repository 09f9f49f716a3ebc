import { InvalidEnvironmentError } from '@bullswarm/store';
import { describe, expect, it } from 'vitest';
import { DEFAULT_WATCHDOG_SETTINGS, resolveWatchdogSettings } from './watchdog-settings';

describe('resolveWatchdogSettings', () => {
  it("has the spec's defaults: per-pool silence, 1 h no progress, 20 s then 60 s back-offs, 2 min named wait", () => {
    const settings = resolveWatchdogSettings({});
    expect(settings).toEqual(DEFAULT_WATCHDOG_SETTINGS);
    expect(settings.silenceMs).toBeUndefined();
    expect(settings).toMatchObject({
      noProgressMs: 3_600_000,
      throttleWaitsMs: [20_000, 60_000],
      throttleMaxNamedWaitMs: 120_000,
      probeTimeoutMs: 60_000,
      probeCacheMs: 900_000,
      networkWaitMs: 120_000,
    });
  });

  it('reads the clock overrides from the environment (fractions allowed, empty = unset)', () => {
    expect(
      resolveWatchdogSettings({
        BULLSWARM_WORKER_SILENCE_SEC: '2',
        BULLSWARM_WORKER_NO_PROGRESS_SEC: '0',
        BULLSWARM_THROTTLE_BACKOFF_SEC: '1, 2.5',
        BULLSWARM_PROBE_TIMEOUT_SEC: '0.5',
        BULLSWARM_WORKER_NETWORK_WAIT_SEC: '1.5',
      }),
    ).toMatchObject({
      silenceMs: 2_000,
      noProgressMs: 0,
      throttleWaitsMs: [1_000, 2_500],
      probeTimeoutMs: 500,
      networkWaitMs: 1_500,
    });
    expect(resolveWatchdogSettings({ BULLSWARM_WORKER_SILENCE_SEC: ' ' }).silenceMs).toBeUndefined();
  });

  it.each([
    ['BULLSWARM_WORKER_SILENCE_SEC', '0', 'a positive number of seconds'],
    ['BULLSWARM_WORKER_SILENCE_SEC', 'soon', 'a positive number of seconds'],
    ['BULLSWARM_WORKER_NO_PROGRESS_SEC', '-5', '0 turns it off'],
    ['BULLSWARM_THROTTLE_BACKOFF_SEC', '1,2,3', 'one or two positive numbers'],
    ['BULLSWARM_THROTTLE_BACKOFF_SEC', '0', 'one or two positive numbers'],
    ['BULLSWARM_PROBE_TIMEOUT_SEC', '1m', 'a positive number of seconds'],
    ['BULLSWARM_WORKER_NETWORK_WAIT_SEC', '0', 'a positive number of seconds'],
    ['BULLSWARM_WORKER_NETWORK_WAIT_SEC', '2 min', 'a positive number of seconds'],
  ])('%s=%s is an InvalidEnvironmentError naming the variable', (variable, value, expected) => {
    const error = (() => {
      try {
        resolveWatchdogSettings({ [variable]: value });
      } catch (caught) {
        return caught;
      }
    })();
    expect(InvalidEnvironmentError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(`${variable}=${JSON.stringify(value)}`);
    expect((error as Error).message).toContain(expected);
  });
});
