#!/usr/bin/env node
import { appendFileSync } from 'node:fs';
import { runSim } from './run-sim';
import { SimUsageError } from './sim-args';
import { SimScenarioError } from './sim-scenario';

/**
 * `bullswarm-sim`: a scriptable fake agent CLI that speaks Claude Code stream-json, Codex exec
 * --json or plain text. Entry point of `dist/sim-cli.js`.
 */
const startedAt = new Date().toISOString();
let scenarioName: string | undefined;
let scenarioOrigin: string | undefined;
let childPid: number | undefined;
let logged = false;

function writeLog(exitCode: number | null, signal: string | null): void {
  const path = process.env.BULLSWARM_SIM_LOG;
  if (!path || logged) return;
  logged = true;
  const entry = {
    pid: process.pid,
    ppid: process.ppid,
    argv: process.argv.slice(2),
    cwd: process.cwd(),
    pool: process.env.BULLSWARM_POOL ?? null,
    scenario: scenarioName ?? null,
    scenarioOrigin: scenarioOrigin ?? null,
    ...(childPid === undefined ? {} : { childPid }),
    startedAt,
    endedAt: new Date().toISOString(),
    exitCode,
    signal,
  };
  try {
    appendFileSync(path, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
  } catch (error) {
    process.stderr.write(
      `bullswarm-sim: cannot append to BULLSWARM_SIM_LOG ${path}: ${(error as Error).message}\n`,
    );
  }
}

function exit(code: number): never {
  writeLog(code, null);
  process.exit(code);
}

for (const [signal, code] of [
  ['SIGTERM', 143],
  ['SIGINT', 130],
  ['SIGHUP', 129],
] as const) {
  process.on(signal, () => {
    writeLog(null, signal);
    process.exit(code);
  });
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

runSim({
  argv: process.argv.slice(2),
  env: process.env,
  cwd: process.cwd(),
  out: { stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text) },
  readStdin,
  onScenario: (scenario) => {
    scenarioName = scenario.name;
    scenarioOrigin = scenario.origin;
  },
  onChild: (pid) => {
    childPid = pid;
  },
}).then(
  (code) => exit(code),
  (error: unknown) => {
    const usage = error instanceof SimUsageError || error instanceof SimScenarioError;
    process.stderr.write(
      `${usage ? (error as Error).message : `bullswarm-sim: ${(error as Error).stack ?? String(error)}`}\n`,
    );
    exit(2);
  },
);
