import { readFileSync } from 'node:fs';
import { PlanFileError } from '../errors/plan-file-error';
import { formatPath } from '../plans/plan-location';
import { type HandoffPacket, handoffPacketSchema } from './handoff-packet-schema';

/**
 * Reads and validates a handoff packet file.
 * @throws PlanFileError naming the file and the field that does not fit `dwp-handoff/v1`.
 */
export function readHandoffPacket(path: string): HandoffPacket {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new PlanFileError({
      filePath: path,
      problem:
        code === 'ENOENT' ? 'no such handoff packet' : `cannot read it (${code ?? (error as Error).message})`,
      cause: error,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new PlanFileError({
      filePath: path,
      problem: `not valid JSON (${(error as Error).message})`,
      cause: error,
    });
  }
  const parsed = handoffPacketSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new PlanFileError({
      filePath: path,
      fieldPath: formatPath(issue.path),
      problem: `${issue.message} (not a dwp-handoff/v1 packet)`,
    });
  }
  return parsed.data;
}
