import type { HandoffPacket } from '@bullswarm/swarm';

/**
 * A lead packet's structured fields as lines for people: the lane table, the release order and
 * the pending merges (nothing for a lane's packet, or a lead packet written before these fields).
 */
export function leadPacketLines(
  packet: Pick<HandoffPacket, 'lanes' | 'releaseOrder' | 'pendingMerges'>,
): string[] {
  const lines: string[] = [];
  if (packet.lanes !== undefined) {
    lines.push(`lanes (${packet.lanes.length}):`);
    for (const lane of packet.lanes) {
      lines.push(
        `  ${lane.task} ${lane.state} ${lane.address ?? '-'}${lane.pool === null ? '' : ` on ${lane.pool}`}${lane.branch === undefined ? '' : ` branch ${lane.branch}`}${lane.packet === undefined ? '' : ` packet ${lane.packet}`}`,
      );
    }
  }
  if (packet.releaseOrder !== undefined) {
    lines.push(`release order: ${packet.releaseOrder.join(' → ') || '-'}`);
  }
  if (packet.pendingMerges !== undefined) {
    lines.push(
      `pending merges: ${packet.pendingMerges.map((m) => `${m.branch} → ${m.into} at ${m.head.slice(0, 12)}${m.task === undefined ? '' : ` (${m.task})`}`).join(', ') || '-'}`,
    );
  }
  return lines;
}
