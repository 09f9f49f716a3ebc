/**
 * Throws a `TypeError` when `result` is a promise (or any thenable): the store's locks and
 * transactions are synchronous, and a callback that went async would run outside them.
 *
 * @param what names the callback in the message, e.g. `ledger.record: the transaction function`
 */
export function assertSynchronous(result: unknown, what: string): void {
  if (
    typeof result === 'object' &&
    result !== null &&
    typeof (result as { then?: unknown }).then === 'function'
  ) {
    throw new TypeError(`${what} must be synchronous, it returned a promise`);
  }
}
