import { join } from 'node:path';
import { expandTemplate } from '../template/expand-template';
import type { MeterReadContext } from './meter-reader';

/**
 * The account directory a meter source reads (Codex's `codexHome`, Claude's `configDir`): the
 * source's template expanded, else the account environment's `envName` (`CODEX_HOME`,
 * `CLAUDE_CONFIG_DIR`), else `<userHome>/<defaultName>` (`.codex`, `.claude`). A value that is
 * empty or blank counts as unset, so `{{env.CODEX_HOME}}` with the variable unset falls through.
 */
export function resolveAccountDirectory(
  template: string | undefined,
  context: MeterReadContext,
  envName: string,
  defaultName: string,
): string {
  const expanded = template === undefined ? '' : expandTemplate(template, context).trim();
  if (expanded !== '') return expanded;
  const fromEnv = context.env[envName]?.trim();
  if (fromEnv) return fromEnv;
  return join(context.userHome, defaultName);
}
