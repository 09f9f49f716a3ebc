import { closeSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ConnectorV1Outcome, ConnectorV1ParsedOutput } from '@bullswarm/connectors';
import type { FileWriteError } from '@bullswarm/connectors/internal';
import { createRedactor } from '@bullswarm/connectors/redact';
import type { DispatchOutcomeKind } from '../dispatch/dispatch-types';
import { type AgentLaunch, type AgentLaunchOptions, buildAgentLaunch } from './agent-launch';
import { createAttemptFiles } from './attempt-files';
import { AttemptOutputWriter } from './attempt-output';
import { formatNoNetwork, formatNoProgressStall, formatSilenceStall } from './format-stall';
import { runAgentProcess } from './run-agent-process';

/** The kinds one attempt can end with. */
export type AttemptKind = Extract<
  DispatchOutcomeKind,
  'ok' | 'quota' | 'throttle' | 'auth' | 'process' | 'empty' | 'stalled' | 'timeout' | 'canceled'
>;

/** Options of {@link runAttempt}. */
export interface RunAttemptOptions extends AgentLaunchOptions {
  readonly prompt: string;
  /** The model; null or undefined runs the CLI's default. */
  readonly model?: string | null;
  /** The agent's working directory (absolute). */
  readonly cwd: string;
  readonly addDirs?: readonly string[];
  /** Names the attempt files: `out-<action>-attempt-<n>`. */
  readonly action: string;
  /** Where the attempt files go (created if missing). */
  readonly outputDir: string;
  /** The lowest attempt number to use (default 1); the first free number at or after it is taken. */
  readonly minAttempt?: number;
  /**
   * The silence clock, ms (restarted by the connector's progress lines, or by every byte when the
   * connector names none); undefined: none.
   */
  readonly silenceMs?: number;
  /** The no-progress clock, ms (0 or undefined: off); watches `cwd` and `addDirs`. */
  readonly noProgressMs?: number;
  /** How long the connector's network-wait notices may go on with no progress, ms (0 or undefined: no bound). */
  readonly networkWaitMs?: number;
  /** TERM → KILL grace, ms (default 5000). */
  readonly killGraceMs?: number;
  /** Wall-clock limit of the attempt, ms. */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  /** The clock for timestamps and the classifier (default `Date.now`). */
  readonly clock?: () => number;
  /**
   * Called right after the spawn with the attempt's number, files and the agent's pid (undefined
   * when it did not start): the ledger attaches the pid, `attempt.started` is emitted.
   */
  readonly onStarted?: (started: AttemptStarted) => void;
}

/** An attempt that has just been spawned. */
export interface AttemptStarted {
  readonly attempt: number;
  readonly outputFile: string;
  readonly stderrFile: string;
  readonly pid: number | undefined;
}

/** How one attempt ended. */
export interface AttemptResult {
  readonly attempt: number;
  /** The raw stdout: `<outputDir>/out-<action>-attempt-<n>`. */
  readonly outputFile: string;
  readonly stderrFile: string;
  readonly kind: AttemptKind;
  /** One human line: the provider's notice, `stalled: no output for 300s`, `exit code 1: …`. */
  readonly why: string;
  /** The parsed answer ('' when there is none). */
  readonly answer: string;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stalled: boolean;
  /** Which clock stopped a stalled worker, and its threshold in seconds. */
  readonly stallClock?: 'silence' | 'no-progress';
  readonly stallSec?: number;
  /** The network-wait bound ended it (a process failure: `codex: no network: "…" for 2m`). */
  readonly noNetwork?: boolean;
  /** The attempt wrote something to stdout before it failed (kept on disk). */
  readonly partialOutput: boolean;
  /** Whole seconds of silence at the end. */
  readonly silentSec: number;
  /** Epoch ms from `clock`; `endedAt` is `startedAt` plus the measured wall time. */
  readonly startedAt: number;
  readonly endedAt: number;
  /** Measured wall time of the process, ms. */
  readonly workerMs: number;
  readonly pid?: number;
  readonly parsed: ConnectorV1ParsedOutput;
  /** The connector's verdict when the process ended on its own or on a usage-limit notice. */
  readonly outcome?: ConnectorV1Outcome;
  readonly resetsAt?: number;
  readonly waitMs?: number;
  readonly stdoutBytes: number;
  readonly stderrBytes: number;
}

const EMPTY_PARSED: ConnectorV1ParsedOutput = {
  answer: '',
  events: { total: 0, ignored: 0, kinds: {} },
  isError: false,
  notices: [],
  rateLimitEvents: [],
};

/**
 * One spawned attempt: claims `out-<action>-attempt-<n>` (and `.stderr`) in `outputDir` beside
 * earlier attempts — never over them — builds the connector's command line and environment (see
 * `buildAgentLaunch`: caller markers removed, `BULLSWARM_POOL` and `BULLSWARM_HOME` set), spawns it
 * (see `runAgentProcess`: own process group, closed stdin), streams stdout and stderr to the two
 * files as they arrive, runs the watchdogs, parses and classifies. An agent's failure is a
 * result, never an exception.
 *
 * `startedAt` comes from `clock` (so a frozen `BULLSWARM_NOW` stamps every record alike) and
 * `endedAt` adds the measured wall time, so recorded durations are real under any clock.
 *
 * The two files are written redacted (see `AttemptOutputWriter`: token shapes and the values of the
 * credential variables of the agent's own environment — the process's and the pool's account env).
 *
 * @throws FileWriteError naming the file when an output file cannot be written (a full disk, a
 *   read-only home): the agent is ended at once and what was written stays.
 */
export async function runAttempt(options: RunAttemptOptions): Promise<AttemptResult> {
  const clock = options.clock ?? Date.now;
  const files = createAttemptFiles(resolve(options.outputDir), options.action, options.minAttempt ?? 1);
  const startedAt = clock();
  const base = {
    attempt: files.attempt,
    outputFile: files.outputFile,
    stderrFile: files.stderrFile,
  };
  // Ends the agent when one of its files cannot be written (the attempt then throws that error).
  const writeFailed = new AbortController();
  let writeError: FileWriteError | undefined;
  const onWriteError = (error: FileWriteError) => {
    writeError ??= error;
    writeFailed.abort(error);
  };
  let launch: AgentLaunch;
  try {
    launch = buildAgentLaunch(options, {
      prompt: options.prompt,
      model: options.model,
      cwd: options.cwd,
      addDirs: options.addDirs ?? [],
    });
  } catch (error) {
    const why = `cannot build the command line of ${options.connector.connectorId}: ${(error as Error).message}`;
    const stderr = new AttemptOutputWriter(
      files.stderrFd,
      files.stderrFile,
      createRedactor([options.env ?? process.env, options.accountEnv]),
      onWriteError,
    );
    stderr.line(why);
    closeSync(files.outputFd);
    closeSync(files.stderrFd);
    if (writeError !== undefined) throw writeError;
    options.onStarted?.({ ...base, pid: undefined });
    return {
      ...base,
      kind: 'process',
      why,
      answer: '',
      exitCode: null,
      signal: null,
      stalled: false,
      partialOutput: false,
      silentSec: 0,
      startedAt,
      endedAt: startedAt,
      workerMs: 0,
      parsed: EMPTY_PARSED,
      stdoutBytes: 0,
      stderrBytes: 0,
    };
  }

  const noProgressMs = options.noProgressMs ?? 0;
  const redact = createRedactor([launch.env]);
  const stdout = new AttemptOutputWriter(files.outputFd, files.outputFile, redact, onWriteError);
  const stderr = new AttemptOutputWriter(files.stderrFd, files.stderrFile, redact, onWriteError);
  const signal =
    options.signal === undefined ? writeFailed.signal : AbortSignal.any([options.signal, writeFailed.signal]);
  const run = await (async () => {
    try {
      return await runAgentProcess({
        connector: options.connector,
        invocation: launch.invocation,
        env: launch.env,
        onStdout: (chunk) => stdout.write(chunk),
        onStderr: (chunk) => stderr.write(chunk),
        ...(options.silenceMs === undefined ? {} : { silenceMs: options.silenceMs }),
        ...(noProgressMs > 0
          ? {
              noProgress: {
                ms: noProgressMs,
                roots: [options.cwd, ...(options.addDirs ?? [])],
                ignorePaths: [resolve(options.outputDir)],
              },
            }
          : {}),
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        ...(options.networkWaitMs === undefined ? {} : { networkWaitMs: options.networkWaitMs }),
        killGraceMs: options.killGraceMs ?? 5_000,
        signal,
        stopOnQuotaNotice: true,
        clock,
        onSpawn: (pid) => options.onStarted?.({ ...base, pid }),
      });
    } finally {
      stdout.end();
      stderr.end();
      closeSync(files.outputFd);
      closeSync(files.stderrFd);
    }
  })();
  if (writeError !== undefined) throw writeError;

  const endedAt = startedAt + Math.round(run.workerMs);
  const common = {
    ...base,
    answer: '',
    exitCode: run.exitCode,
    signal: run.signal,
    silentSec: Math.floor(run.silentMs / 1000),
    startedAt,
    endedAt,
    workerMs: run.workerMs,
    ...(run.pid === undefined ? {} : { pid: run.pid }),
    parsed: run.parsed,
    stdoutBytes: run.stdoutBytes,
    stderrBytes: run.stderrBytes,
    partialOutput: run.stdoutBytes > 0,
  };

  if (run.spawnError !== undefined) {
    return { ...common, kind: 'process', why: `spawn failed: ${run.spawnError}`, stalled: false };
  }
  switch (run.stopReason) {
    case 'silence':
      return {
        ...common,
        kind: 'stalled',
        why: formatSilenceStall(options.silenceMs ?? 0),
        stalled: true,
        stallClock: 'silence',
        stallSec: Math.round((options.silenceMs ?? 0) / 1000),
      };
    case 'no-progress':
      return {
        ...common,
        kind: 'stalled',
        why: formatNoProgressStall(noProgressMs),
        stalled: true,
        stallClock: 'no-progress',
        stallSec: Math.round(noProgressMs / 1000),
      };
    case 'timeout':
      return {
        ...common,
        kind: 'timeout',
        why: `timed out after ${Math.round((options.timeoutMs ?? 0) / 1000)}s`,
        stalled: false,
      };
    case 'canceled':
      return { ...common, kind: 'canceled', why: 'canceled', stalled: false };
    case 'network-wait':
      return {
        ...common,
        kind: 'process',
        why: formatNoNetwork(
          options.connector.connectorId,
          run.networkWait?.notice ?? '',
          options.networkWaitMs ?? 0,
        ),
        stalled: false,
        noNetwork: true,
      };
    default: {
      const outcome = options.connector.classifyOutcome({
        exitCode: run.exitCode,
        signal: run.signal,
        parsed: run.parsed,
        stderr: run.stderr,
        now: clock(),
      });
      return {
        ...common,
        kind: outcome.kind,
        why: outcome.message,
        answer: outcome.kind === 'ok' ? run.parsed.answer : '',
        stalled: false,
        partialOutput: outcome.kind !== 'ok' && run.stdoutBytes > 0,
        outcome,
        ...(outcome.resetsAt === undefined ? {} : { resetsAt: outcome.resetsAt }),
        ...(outcome.waitMs === undefined ? {} : { waitMs: outcome.waitMs }),
      };
    }
  }
}
