import { MeterReadError } from '../errors/meter-read-error';

/** The `MeterReadError` a read rejects with; throws when it resolves or rejects with anything else. */
export async function readError(promise: Promise<unknown>): Promise<MeterReadError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!MeterReadError.isInstance(error)) throw new Error(`expected a MeterReadError, got ${String(error)}`);
  return error;
}
