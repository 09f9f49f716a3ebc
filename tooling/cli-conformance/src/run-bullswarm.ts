import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

/** The built bullswarm binary (the root `pnpm test:clis` builds it first). */
export const BULLSWARM_BIN = fileURLToPath(new URL('../../../apps/cli/dist/index.js', import.meta.url));

/**
 * The bound of one `bullswarm` command of this suite: past it the command gets SIGTERM (bullswarm
 * then ends its agent's process group) and the test fails. Issue 10: a run ends with a verdict
 * within 3 minutes.
 */
export const RUN_BOUND_MS = 180_000;

/**
 * The clocks of the runs, through bullswarm's own variables (never its defaults changed): a network
 * wait ends the attempt after 20 s of reconnect notices, a silent CLI after 150 s, a free-model
 * probe after 30 s. Together with `--retry-attempts 0` a run ends well inside {@link RUN_BOUND_MS}.
 */
export const RUN_CLOCKS: Readonly<Record<string, string>> = {
  BULLSWARM_WORKER_NETWORK_WAIT_SEC: '20',
  BULLSWARM_WORKER_SILENCE_SEC: '150',
  BULLSWARM_WORKER_NO_PROGRESS_SEC: '150',
  BULLSWARM_PROBE_TIMEOUT_SEC: '30',
  // doctor's --version and sign-in status: Gemini CLI takes ~3.5 s of CPU for its version, more on a busy CI machine.
  BULLSWARM_DOCTOR_TIMEOUT_SEC: '60',
};

/**
 * Variables a run never inherits: bullswarm's own, every agent CLI's caller markers and settings,
 * and anything that could sign a CLI in (the runs are unauthenticated by design).
 */
const SCRUBBED =
  /^(BULLSWARM_|CLAUDE|ANTHROPIC_|CODEX_|OPENAI_|GEMINI_|GOOGLE_|OPENCODE|OPENROUTER_|GROK_|XAI_|XDG_)|(_API_KEY|_TOKEN|_SECRET)$/;

/** A throwaway machine for one CLI: an empty user HOME, a bullswarm home, a work tree, a TMPDIR. */
export interface Sandbox {
  readonly root: string;
  readonly home: string;
  readonly userHome: string;
  readonly work: string;
  readonly env: Readonly<Record<string, string>>;
  /** Replaces `root` in text with `<tmp>` (what fixtures keep). */
  normalize(text: string): string;
  remove(): void;
}

export function createSandbox(): Sandbox {
  const root = mkdtempSync(join(tmpdir(), 'bullswarm-cli-conformance-'));
  const home = join(root, 'home');
  const userHome = join(root, 'user');
  const work = join(root, 'work');
  const agentTmp = join(root, 'tmp');
  for (const dir of [home, userHome, work, agentTmp]) mkdirSync(dir, { recursive: true, mode: 0o700 });
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !SCRUBBED.test(name)) env[name] = value;
  }
  Object.assign(env, {
    HOME: userHome,
    BULLSWARM_HOME: home,
    BULLSWARM_CACHE_DIR: join(root, 'code-cache'),
    // What the CLIs write to their temp folder stays in the sandbox.
    TMPDIR: agentTmp,
    TMP: agentTmp,
    TEMP: agentTmp,
    NO_COLOR: '1',
    ...RUN_CLOCKS,
  });
  return {
    root,
    home,
    userHome,
    work,
    env,
    normalize: (text) => text.split(root).join('<tmp>'),
    remove: () => rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 }),
  };
}

/** One finished `bullswarm` command. */
export interface BullswarmResult {
  readonly exitCode: number | undefined;
  readonly stdout: string;
  readonly stderr: string;
  /** It was still running at {@link RUN_BOUND_MS} and was stopped. */
  readonly timedOut: boolean;
}

/** Runs the built `bullswarm` in the sandbox, bounded by {@link RUN_BOUND_MS}. */
export async function bullswarm(sandbox: Sandbox, args: readonly string[]): Promise<BullswarmResult> {
  const result = await execa(process.execPath, [BULLSWARM_BIN, ...args], {
    cwd: sandbox.work,
    env: sandbox.env,
    extendEnv: false,
    stdin: 'ignore',
    reject: false,
    timeout: RUN_BOUND_MS,
    killSignal: 'SIGTERM',
    forceKillAfterDelay: 10_000,
  });
  return {
    exitCode: result.exitCode,
    stdout: String(result.stdout),
    stderr: String(result.stderr),
    timedOut: result.timedOut === true,
  };
}

/** Runs the CLI itself (no bullswarm) in the sandbox, bounded like a bullswarm command. */
export async function runCli(
  sandbox: Sandbox,
  binPath: string,
  args: readonly string[],
  timeoutMs = 60_000,
): Promise<{ exitCode: number | undefined; output: string; timedOut: boolean }> {
  const result = await execa(binPath, args, {
    cwd: sandbox.work,
    env: sandbox.env,
    extendEnv: false,
    stdin: 'ignore',
    reject: false,
    all: true,
    timeout: timeoutMs,
    forceKillAfterDelay: 5_000,
  });
  return { exitCode: result.exitCode, output: String(result.all ?? ''), timedOut: result.timedOut === true };
}
