import { describe, expect, it } from 'vitest';
import { BullswarmError, hasErrorMarker } from './bullswarm-error';
import { InvalidInputError } from './invalid-input-error';

const subclassKey = 'bullswarm.error.ExampleError';
const subclassMarker = Symbol.for(subclassKey);

class ExampleError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [subclassMarker] = true;
  readonly code: number;
  constructor(code: number) {
    super({ name: 'ExampleError', message: `example ${code}` });
    this.code = code;
  }
  static override isInstance(value: unknown): value is ExampleError {
    return hasErrorMarker(value, subclassKey);
  }
}

describe('BullswarmError', () => {
  it('carries name, message and cause', () => {
    const cause = new Error('root');
    const error = new BullswarmError({ message: 'boom', cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('BullswarmError');
    expect(error.message).toBe('boom');
    expect(error.cause).toBe(cause);
  });

  it('recognises its own instances and subclasses by marker', () => {
    const error = new ExampleError(7);
    expect(BullswarmError.isInstance(error)).toBe(true);
    expect(ExampleError.isInstance(error)).toBe(true);
    expect(ExampleError.isInstance(new BullswarmError({ message: 'x' }))).toBe(false);
    expect(error.code).toBe(7);
  });

  it('recognises an instance from another copy of the package (same global symbol)', () => {
    // A duplicate copy defines its own class but uses the same Symbol.for key.
    const foreign = Object.assign(new Error('from a duplicate copy'), {
      [Symbol.for('bullswarm.error.BullswarmError')]: true,
    });
    expect(BullswarmError.isInstance(foreign)).toBe(true);
    expect(foreign instanceof BullswarmError).toBe(false);
  });

  it.each([null, undefined, 'BullswarmError', 42, new Error('plain'), {}])('rejects %s', (value) => {
    expect(BullswarmError.isInstance(value)).toBe(false);
  });
});

describe('InvalidInputError', () => {
  it('names the field and what would be valid', () => {
    const error = new InvalidInputError({
      field: 'now',
      expected: 'a finite epoch-ms number',
      received: NaN,
    });
    expect(error.message).toBe('Invalid now: expected a finite epoch-ms number, received NaN.');
    expect(error.field).toBe('now');
    expect(InvalidInputError.isInstance(error)).toBe(true);
    expect(BullswarmError.isInstance(error)).toBe(true);
  });
});
