import { join } from 'node:path';
import { writeFileAtomicAsync } from '@bullswarm/connectors/internal';
import type { MeterReading, MeterReadingWindow } from '../reading/meter-reading-schema';
import { epochToMs } from '../reading/window-kinds';

/** The file name of the statusLine capture inside a Claude config directory. */
export const CLAUDE_STATUSLINE_FILE = 'bullswarm-statusline.json';

/** Where {@link captureClaudeStatusline} writes for a config directory. */
export function claudeStatuslinePath(configDir: string): string {
  return join(configDir, CLAUDE_STATUSLINE_FILE);
}

interface StatuslineWindow {
  readonly used_percentage?: unknown;
  readonly resets_at?: unknown;
}

/**
 * Captures the `rate_limits` Claude Code (≥ 2.1.80, subscribers, after the first API response)
 * passes on a statusLine command's stdin —
 * `{"rate_limits":{"five_hour":{"used_percentage":23.5,"resets_at":1738425600},"seven_day":{…}}}`
 * (epoch seconds) — into `<configDir>/bullswarm-statusline.json` as a bullswarm meter reading,
 * written atomically, which the `claude-code` meter reader then reads.
 *
 * A user's statusLine command calls it with the stdin text (or the parsed object). When stdin has
 * no usable `rate_limits` (before the first response, an API-key login) the file is left as it
 * is and `undefined` is returned; otherwise the written reading is returned. Invalid JSON throws
 * a `SyntaxError` naming stdin. `now` defaults to `Date.now`.
 *
 * @example
 * // statusline.mjs, configured as Claude Code's statusLine command
 * import { captureClaudeStatusline } from '@bullswarm/meters';
 * let stdin = ''; for await (const chunk of process.stdin) stdin += chunk;
 * await captureClaudeStatusline(stdin, process.env.CLAUDE_CONFIG_DIR ?? `${os.homedir()}/.claude`);
 */
export async function captureClaudeStatusline(
  stdinJson: string | unknown,
  configDir: string,
  options: { readonly now?: () => number } = {},
): Promise<MeterReading | undefined> {
  let input: unknown = stdinJson;
  if (typeof stdinJson === 'string') {
    try {
      input = JSON.parse(stdinJson);
    } catch (error) {
      throw new SyntaxError(`statusLine stdin is not JSON: ${(error as Error).message}`);
    }
  }
  const rateLimits = (input as { rate_limits?: unknown } | null)?.rate_limits;
  if (typeof rateLimits !== 'object' || rateLimits === null) return undefined;
  const windows: MeterReadingWindow[] = [];
  for (const [field, kind] of [
    ['five_hour', 'five_hour'],
    ['seven_day', 'weekly'],
  ] as const) {
    const value = (rateLimits as Record<string, StatuslineWindow | null | undefined>)[field];
    if (!value || typeof value.used_percentage !== 'number' || !Number.isFinite(value.used_percentage))
      continue;
    const resetsAt =
      typeof value.resets_at === 'number' && Number.isFinite(value.resets_at) && value.resets_at > 0
        ? epochToMs(value.resets_at)
        : undefined;
    windows.push({
      kind,
      usedPct: Math.max(0, value.used_percentage),
      ...(resetsAt === undefined ? {} : { resetsAt }),
    });
  }
  if (windows.length === 0) return undefined;
  const reading: MeterReading = { readAt: new Date((options.now ?? Date.now)()).toISOString(), windows };
  await writeFileAtomicAsync(claudeStatuslinePath(configDir), `${JSON.stringify(reading, null, 2)}\n`, {
    createDirectory: true,
  });
  return reading;
}
