import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type Options, type ResultPromise } from 'execa';

/** The built binary under test. */
export const CLI_PATH = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

/** Variables a test never inherits: bullswarm's own, and every agent CLI's caller markers. */
const SCRUBBED = /^(BULLSWARM_|CLAUDE|CODEX_|GEMINI_CLI|OPENCODE|GROK_|NO_COLOR$|FORCE_COLOR$)/;

/** The V8 code cache of the binaries the tests run (shared by the test run; never the user's). */
export const TEST_CACHE_DIR = join(tmpdir(), 'bullswarm-cli-test-compile-cache');

/**
 * Stand-ins for the agent CLIs of the built-in connectors (`claude`, `codex`, `gemini`, `opencode`,
 * `grok`; each exits 1): first on every test's PATH, so a pool of a built-in connector is found, as
 * on a machine with the CLI installed. A test of a missing CLI sets its own PATH.
 */
export const AGENT_CLI_STUBS = fileURLToPath(new URL('./agent-clis', import.meta.url));

/** The test process's environment without bullswarm and agent variables, the stand-ins on PATH. */
export function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !SCRUBBED.test(name)) env[name] = value;
  }
  env.BULLSWARM_CACHE_DIR = TEST_CACHE_DIR;
  env.PATH = `${AGENT_CLI_STUBS}${delimiter}${env.PATH ?? ''}`;
  return env;
}

/** Options of {@link bullswarm}. */
export interface CliRunOptions {
  /** `$BULLSWARM_HOME`. */
  readonly home?: string;
  /** More environment (wins over the base). */
  readonly env?: Record<string, string | undefined>;
  readonly input?: string;
  readonly cwd?: string;
}

function execaOptions(options: CliRunOptions): Options {
  const env: Record<string, string | undefined> = { ...baseEnv(), ...options.env };
  if (options.home !== undefined) env.BULLSWARM_HOME = options.home;
  return {
    env,
    extendEnv: false,
    stripFinalNewline: false,
    reject: false,
    ...(options.input === undefined ? { stdin: 'ignore' as const } : { input: options.input }),
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  };
}

/** Runs the built `bullswarm` with `args` and waits for it (never rejects on a non-zero exit). */
export async function bullswarm(args: readonly string[], options: CliRunOptions = {}) {
  const result = await execa(process.execPath, [CLI_PATH, ...args], execaOptions(options));
  return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
}

/** Starts the built `bullswarm` without waiting (for kill and concurrency tests). */
export function startBullswarm(args: readonly string[], options: CliRunOptions = {}): ResultPromise {
  return execa(process.execPath, [CLI_PATH, ...args], execaOptions(options)) as ResultPromise;
}

/** Temp directories removed after each test (call `cleanup` in afterEach). */
export function tempDirs() {
  const dirs: string[] = [];
  return {
    make(prefix = 'bullswarm-cli-'): string {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(dir);
      return dir;
    },
    cleanup(): void {
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}
