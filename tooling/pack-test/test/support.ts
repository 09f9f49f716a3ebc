import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, expect } from 'vitest';

export const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * The environment of every command these tests run: the test process's, without what a package
 * manager or bullswarm itself set (`npm_*` from the pnpm that started vitest would steer npm;
 * `BULLSWARM_*` and the agent CLIs' markers would steer bullswarm), with npm's chatter off.
 */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined) continue;
    if (
      /^(npm_|BULLSWARM_|CLAUDE|CODEX_|GEMINI_CLI|OPENCODE|GROK_|NO_COLOR$|FORCE_COLOR$|VITEST|TURBO_)/i.test(
        name,
      )
    )
      continue;
    env[name] = value;
  }
  return {
    ...env,
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    ...extra,
  };
}

/** The result of one command. */
export interface CommandResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly command: string;
}

/**
 * Runs a command to its end, never through a shell, killed after `timeoutMs` (default 10
 * minutes: an install that downloads and compiles is the longest).
 */
export async function run(
  file: string,
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string>; input?: string; timeoutMs?: number },
): Promise<CommandResult> {
  const result = await execa(file, args, {
    cwd: options.cwd,
    env: options.env ?? cleanEnv(),
    extendEnv: false,
    reject: false,
    stripFinalNewline: false,
    timeout: options.timeoutMs ?? 10 * 60_000,
    ...(options.input === undefined ? { stdin: 'ignore' as const } : { input: options.input }),
  });
  return {
    exitCode: result.exitCode ?? -1,
    stdout: String(result.stdout),
    stderr: String(result.stderr),
    command: [file, ...args].join(' '),
  };
}

/** Asserts a command exited 0, showing its output when it did not. */
export function expectOk(result: CommandResult): CommandResult {
  expect(
    result.exitCode,
    `${result.command} exited ${result.exitCode}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`,
  ).toBe(0);
  return result;
}

/** npm's flags for installing from the packed tarballs: the `@bullswarm` scope from the local registry. */
export const npmFlags = (registryUrl: string) => [
  `--@bullswarm:registry=${registryUrl}`,
  '--no-audit',
  '--no-fund',
];

/** A temporary directory outside the repository, removed after the file's tests. */
export function tempDirs(): (prefix: string) => string {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return (prefix) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}
