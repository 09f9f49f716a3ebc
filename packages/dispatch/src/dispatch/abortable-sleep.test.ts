import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { abortableSleep } from './abortable-sleep';

const warnings: Error[] = [];
const onWarning = (warning: Error) => warnings.push(warning);
afterEach(() => {
  process.removeListener('warning', onWarning);
  warnings.length = 0;
});

describe('abortableSleep', () => {
  it('leaves no abort listener behind after many sleeps on one signal, and no warning', async () => {
    process.on('warning', onWarning);
    const abort = new AbortController();
    for (let i = 0; i < 40; i++) {
      await abortableSleep(1, abort.signal);
      expect(getEventListeners(abort.signal, 'abort')).toHaveLength(0);
    }
    // Warnings are emitted on a later tick: give them one.
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
  });

  it('ends early when the signal aborts, removing its listener', async () => {
    const abort = new AbortController();
    const sleeping = abortableSleep(3_600_000, abort.signal);
    expect(getEventListeners(abort.signal, 'abort')).toHaveLength(1);
    abort.abort();
    await sleeping;
    expect(getEventListeners(abort.signal, 'abort')).toHaveLength(0);
  });

  it('resolves at once on an aborted signal, and without a signal after the time', async () => {
    const abort = new AbortController();
    abort.abort();
    await abortableSleep(3_600_000, abort.signal);
    expect(getEventListeners(abort.signal, 'abort')).toHaveLength(0);
    await expect(abortableSleep(1)).resolves.toBeUndefined();
  });
});
