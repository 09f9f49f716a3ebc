import { readFile } from 'node:fs/promises';
import { MeterReadError } from '../errors/meter-read-error';
import { type ParsedMeterReading, parseMeterReadingText } from '../reading/parse-meter-reading';

/**
 * Reads a bullswarm meter reading file. A missing file throws a `MeterReadError` (`no-file`,
 * status `no meter file`, message `no meter file at <path>`); an invalid one names the file and
 * the field.
 */
export async function readMeterFile(
  path: string,
  sourceType: string,
  description = `meter file ${path}`,
): Promise<ParsedMeterReading> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new MeterReadError({
        sourceType,
        reason: 'no-file',
        status: 'no meter file',
        location: path,
        message: `no meter file at ${path}`,
        isRetryable: true,
        cause: error,
      });
    }
    throw new MeterReadError({
      sourceType,
      reason: 'io',
      status: `meter file ${code ?? 'unreadable'}`,
      location: path,
      message: `cannot read ${description}: ${(error as Error).message}`,
      isRetryable: true,
      cause: error,
    });
  }
  return parseMeterReadingText(text, { sourceType, description, location: path });
}
