import { BullswarmError } from '@bullswarm/pacing';
import { describe, expect, it } from 'vitest';
import { MeterError } from './meter-error';
import { MeterReadError } from './meter-read-error';
import { MeterTemplateError } from './meter-template-error';

describe('meter errors', () => {
  it('are BullswarmErrors recognised by marker, with meaning in fields', () => {
    const error = new MeterReadError({
      sourceType: 'file',
      reason: 'no-file',
      status: 'no meter file',
      message: 'no meter file at /x',
      location: '/x',
    });
    expect(BullswarmError.isInstance(error)).toBe(true);
    expect(MeterError.isInstance(error)).toBe(true);
    expect(MeterReadError.isInstance(error)).toBe(true);
    expect(MeterTemplateError.isInstance(error)).toBe(false);
    expect(error).toMatchObject({ name: 'MeterReadError', isRetryable: true, location: '/x' });
    const foreign = Object.assign(new Error('copy'), {
      [Symbol.for('bullswarm.error.MeterReadError')]: true,
    });
    expect(MeterReadError.isInstance(foreign)).toBe(true);
  });
});
