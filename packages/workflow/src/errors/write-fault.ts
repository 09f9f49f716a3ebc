import { FileWriteError } from '@bullswarm/connectors/internal';
import { StoreFaultError } from '@bullswarm/store';

/**
 * A fault that stops a run instead of failing a unit: a file of the run could not be written
 * (`FileWriteError`: events.jsonl, state.json, an attempt's output) or the store could not be
 * (`StoreFaultError`: its disk is full, it is read-only or damaged). Neither is the step's doing.
 */
export type WriteFault = FileWriteError | StoreFaultError;

/** Whether `error` is a {@link WriteFault}. */
export function isWriteFault(error: unknown): error is WriteFault {
  return FileWriteError.isInstance(error) || StoreFaultError.isInstance(error);
}

/** The file a {@link WriteFault} names. */
export function writeFaultPath(fault: WriteFault): string {
  return FileWriteError.isInstance(fault) ? fault.path : fault.dbPath;
}
