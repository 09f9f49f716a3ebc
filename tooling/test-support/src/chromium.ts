import { accessSync, constants } from 'node:fs';

/**
 * The dashboard's browser tests drive Debian's headless Chromium (`apt-get install chromium`,
 * `/usr/bin/chromium`) through playwright-core; nothing downloads a browser of its own.
 *
 * - {@link findChromium} looks for it (`BULLSWARM_CHROMIUM` when set, else `/usr/bin/chromium`);
 * - without it those tests are skipped, and vitest reports them as skipped, never as passed;
 * - with `BULLSWARM_REQUIRE_CHROMIUM=1` (set by `.ci/run`, which installs chromium) they run anyway
 *   and fail when it is missing, so CI can never skip them silently.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const candidate = env.BULLSWARM_CHROMIUM || '/usr/bin/chromium';
  try {
    accessSync(candidate, constants.X_OK);
    return candidate;
  } catch {
    return undefined;
  }
}

/** `BULLSWARM_REQUIRE_CHROMIUM=1`: the browser tests must run (see {@link findChromium}). */
export function chromiumRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.BULLSWARM_REQUIRE_CHROMIUM === '1';
}

/** Whether the browser tests run here: Chromium is installed, or it is required (they then fail without it). */
export function runChromiumTests(): boolean {
  return findChromium() !== undefined || chromiumRequired();
}

/** The Chromium binary, or an error saying how to get it (for tests that run because it is required). */
export function requireChromium(): string {
  const chromium = findChromium();
  if (chromium === undefined) {
    throw new Error(
      'Chromium is required for the dashboard browser tests (BULLSWARM_REQUIRE_CHROMIUM=1) but /usr/bin/chromium is missing: apt-get install chromium (or set BULLSWARM_CHROMIUM to a Chromium binary)',
    );
  }
  return chromium;
}

/**
 * The flags a test starts Chromium with (with a fresh `--user-data-dir` of its own, removed after):
 * headless, no sandbox (CI runs as root), no GPU, and no background traffic to the network.
 */
export const CHROMIUM_FLAGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
