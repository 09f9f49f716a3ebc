import type { ConnectorV1Activity, ConnectorV1LineActivity } from '../spec/v1';

/** The `activity` block of a manifest (see the connector-v1 spec). */
export type ActivitySpec = {
  readonly progress: readonly string[];
  readonly noise: readonly string[];
  readonly networkWait: readonly string[];
};

const PROGRESS: ConnectorV1LineActivity = { kind: 'progress' };
const NOISE: ConnectorV1LineActivity = { kind: 'noise' };

/**
 * The names of one JSON event line: `<type>`, and `<type>/<sub>` where `sub` is the event's string
 * `subtype` (Claude `system/api_retry`) or its item's `type` (Codex `item.completed/error`). A line
 * that is not a JSON object with a string `type` has no name.
 */
export function eventNames(line: string): readonly string[] {
  const trimmed = line.trim();
  if (!trimmed.startsWith('{')) return [];
  let event: unknown;
  try {
    event = JSON.parse(trimmed);
  } catch {
    return [];
  }
  if (typeof event !== 'object' || event === null || Array.isArray(event)) return [];
  const record = event as Record<string, unknown>;
  if (typeof record.type !== 'string') return [];
  const item = record.item;
  const sub =
    typeof record.subtype === 'string'
      ? record.subtype
      : typeof item === 'object' &&
          item !== null &&
          typeof (item as Record<string, unknown>).type === 'string'
        ? ((item as Record<string, unknown>).type as string)
        : undefined;
  return sub === undefined ? [record.type] : [record.type, `${record.type}/${sub}`];
}

/**
 * A manifest's `activity` as a {@link ConnectorV1Activity}, or undefined when it names nothing
 * (every byte then restarts the silence clock, as before connectors named their events).
 *
 * A stdout line named in `noise` is noise (noise wins over progress); else, when `progress` names
 * events, the line is progress only when one of its names is listed; when `progress` names
 * nothing, every line that is not noise is progress. A stderr line is progress only when
 * `progress` names nothing. A line that is not progress and matches a `networkWait` expression is
 * a network-wait notice, quoted by the expression's match.
 */
export function createLineActivity(spec: ActivitySpec | undefined): ConnectorV1Activity | undefined {
  if (spec === undefined) return undefined;
  if (spec.progress.length === 0 && spec.noise.length === 0 && spec.networkWait.length === 0)
    return undefined;
  const progress = new Set(spec.progress);
  const noise = new Set(spec.noise);
  const waits = spec.networkWait.map((source) => new RegExp(source));
  const progressNamed = progress.size > 0;
  const networkWait = (line: string): ConnectorV1LineActivity | undefined => {
    for (const pattern of waits) {
      const match = pattern.exec(line);
      if (match) return { kind: 'network-wait', notice: match[0] };
    }
    return undefined;
  };
  return {
    classifyLine(line, stream) {
      if (stream === 'stdout') {
        const names = eventNames(line);
        const isNoise = names.some((name) => noise.has(name));
        if (!isNoise && (progressNamed ? names.some((name) => progress.has(name)) : true)) return PROGRESS;
        return networkWait(line) ?? NOISE;
      }
      return networkWait(line) ?? (progressNamed ? NOISE : PROGRESS);
    },
  };
}
