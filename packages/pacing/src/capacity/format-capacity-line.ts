import { formatCompact } from '../format';
import type { CapacityVerdict } from './capacity-verdict';

/**
 * The one-line capacity report: `capacity=ok 64% @work1`, `capacity=low 20% @work1`,
 * `capacity=unknown @work1`. The label is prefixed with `@` unless it already starts with one.
 */
export function formatCapacityLine(
  v: Pick<CapacityVerdict, 'verdict' | 'freePct'>,
  poolLabel: string,
): string {
  const at = poolLabel.startsWith('@') ? poolLabel : `@${poolLabel}`;
  if (v.verdict === 'unknown' || v.freePct === null) return `capacity=${v.verdict} ${at}`;
  return `capacity=${v.verdict} ${formatCompact(v.freePct)}% ${at}`;
}
