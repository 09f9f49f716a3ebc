import { expandTemplate } from '../template/expand-template';
import { type MeterReadContext, type MeterReader, type MeterReadResult, readingResult } from './meter-reader';
import { readMeterFile } from './read-meter-file';

/** Settings of the file reader (the `file` meter source). */
export interface FileMeterReaderSettings {
  /** The reading's path (templates allowed). */
  readonly path: string;
}

/**
 * Reads a bullswarm meter reading from a JSON file (tests, demos, the sim, users' exporters).
 * A missing file is a `MeterReadError` `no meter file at <path>`; an invalid one names the file
 * and the field path.
 */
export function createFileMeterReader(settings: FileMeterReaderSettings): MeterReader {
  return {
    sourceType: 'file',
    async read(context: MeterReadContext): Promise<MeterReadResult> {
      const path = expandTemplate(settings.path, context);
      return readingResult(await readMeterFile(path, 'file'));
    },
  };
}
