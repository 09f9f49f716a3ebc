import { readJsonFile } from '../plans/read-json-file';
import { type HandoffPacket, handoffPacketSchema } from './handoff-packet-schema';

/**
 * Reads and validates a handoff packet file.
 * @throws PlanFileError naming the file and the field that does not fit `dwp-handoff/v1`.
 */
export function readHandoffPacket(path: string): HandoffPacket {
  return readJsonFile(path, handoffPacketSchema, 'handoff packet', ' (not a dwp-handoff/v1 packet)');
}
