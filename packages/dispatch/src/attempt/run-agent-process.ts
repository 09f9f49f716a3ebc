import { StringDecoder } from 'node:string_decoder';
import type {
  ConnectorV1,
  ConnectorV1Invocation,
  ConnectorV1OutcomeKind,
  ConnectorV1ParsedOutput,
} from '@bullswarm/connectors';
import { terminateGroup } from '@bullswarm/connectors/internal';
import { execa } from 'execa';
import { watchWorkTree } from './work-tree-watcher';

/** Why dispatch stopped a worker before it ended on its own. */
export type StopReason = 'silence' | 'no-progress' | 'timeout' | 'canceled' | 'quota-notice' | 'network-wait';

/** How long the output pipes may stay open after the agent exited (held by its leftovers), ms. */
export const OUTPUT_DRAIN_MS = 2_000;

/** Most stderr kept in memory for classification (the file keeps all of it). */
const STDERR_TAIL_CHARS = 64 * 1024;
/** A stdout "line" longer than this is not scanned for a limit notice. */
const MAX_SCANNED_LINE = 1024 * 1024;

/** Options of {@link runAgentProcess}. */
export interface AgentProcessOptions {
  readonly connector: ConnectorV1;
  readonly invocation: ConnectorV1Invocation;
  /** The complete environment of the process (see `buildChildEnv`). */
  readonly env: Readonly<Record<string, string>>;
  /** Receives every stdout / stderr chunk as it arrives (the attempt files). */
  readonly onStdout?: (chunk: Buffer) => void;
  readonly onStderr?: (chunk: Buffer) => void;
  /**
   * Silence allowed, ms; undefined: no silence clock. What restarts it is the connector's
   * `activity` (progress lines only), else every byte on stdout or stderr.
   */
  readonly silenceMs?: number;
  /**
   * How long network-wait notices (the connector's `activity`) may go on with no progress between,
   * ms; undefined or 0: no bound.
   */
  readonly networkWaitMs?: number;
  /** No-progress clock: no file change in `roots` for `ms` (0 or undefined: off). */
  readonly noProgress?: {
    readonly ms: number;
    readonly roots: readonly string[];
    readonly ignorePaths: readonly string[];
  };
  /** Overall wall-clock limit, ms. */
  readonly timeoutMs?: number;
  /** TERM → KILL grace when the process group is ended, ms. */
  readonly killGraceMs: number;
  readonly signal?: AbortSignal;
  /** End the process as soon as a provider notice on stdout classifies as a usage limit. */
  readonly stopOnQuotaNotice: boolean;
  /** The time given to the classifier for relative resets in notices. */
  readonly clock: () => number;
  /** Called right after the spawn with the agent's pid (undefined when it did not start). */
  readonly onSpawn?: (pid: number | undefined) => void;
}

/** What happened to the process. */
export interface AgentProcessResult {
  readonly pid?: number;
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** Set when the process could not be started (e.g. `ENOENT`). */
  readonly spawnError?: string;
  /** Set when dispatch stopped the process. */
  readonly stopReason?: StopReason;
  readonly parsed: ConnectorV1ParsedOutput;
  /** The last 64 KiB of stderr. */
  readonly stderr: string;
  readonly stdoutBytes: number;
  readonly stderrBytes: number;
  /** Wall time from spawn to the end, ms (monotonic). */
  readonly workerMs: number;
  /** Silence at the end: time since the last activity (or since spawn), ms. */
  readonly silentMs: number;
  /** Set when the network-wait bound stopped the process: the last notice quoted. */
  readonly networkWait?: { readonly notice: string; readonly ms: number };
}

/**
 * The usage-limit check of one stdout line: the line alone through a fresh parser of the
 * connector's format; when it yields a provider notice (or a rejected rate-limit event) that the
 * connector classifies as `quota`, the attempt is over. Only provider notices count — an agent
 * writing about limits in its answer never does.
 */
export function lineNoticeKind(
  connector: ConnectorV1,
  line: string,
  now: number,
): ConnectorV1OutcomeKind | undefined {
  const parser = connector.createOutputParser();
  parser.push(`${line}\n`);
  const parsed = parser.end();
  if (parsed.notices.length === 0 && !parsed.rateLimitEvents.some((event) => event.status === 'rejected')) {
    return undefined;
  }
  return connector.classifyOutcome({ exitCode: 1, signal: null, parsed, stderr: '', now }).kind;
}

/**
 * Runs one agent process to its end: spawned with execa (never a shell) as the leader of its own
 * process group, stdin closed (or fed `invocation.stdin`), stdout parsed by the connector's
 * streaming parser as it arrives. The watchdogs (silence, no progress, timeout, abort, usage-limit
 * notice) end the whole group: SIGTERM, then SIGKILL after the grace. Once the agent itself has
 * exited, its output pipes get {@link OUTPUT_DRAIN_MS} to close; leftovers of its group still
 * holding them are then ended the same way.
 */
export async function runAgentProcess(options: AgentProcessOptions): Promise<AgentProcessResult> {
  const { connector, invocation } = options;
  const parser = connector.createOutputParser();
  const outDecoder = new StringDecoder('utf8');
  const errDecoder = new StringDecoder('utf8');
  let stderr = '';
  let stdoutBytes = 0;
  let stderrBytes = 0;
  let pendingLine = '';

  if (options.signal?.aborted) {
    return {
      exitCode: null,
      signal: null,
      stopReason: 'canceled',
      parsed: parser.end(),
      stderr,
      stdoutBytes,
      stderrBytes,
      workerMs: 0,
      silentMs: 0,
    };
  }

  const start = performance.now();
  let lastActivity = start;
  const activity = connector.activity;
  /** When the current run of network-wait notices began (no progress since), and the last one. */
  let networkWaitSince: number | undefined;
  let networkNotice = '';
  let lastChange = start;
  let stopReason: StopReason | undefined;
  let stopping: Promise<void> | undefined;
  const timers: NodeJS.Timeout[] = [];

  const subprocess = execa(invocation.command, [...invocation.args], {
    cwd: invocation.cwd,
    env: options.env,
    extendEnv: false,
    ...(invocation.stdin === undefined ? { stdin: 'ignore' as const } : { input: invocation.stdin }),
    stdout: 'pipe',
    stderr: 'pipe',
    buffer: false,
    reject: false,
    detached: true,
    cleanup: false,
    windowsHide: true,
  });
  const pid = subprocess.pid;
  const exited = new Promise<void>((resolve) => {
    subprocess.once('exit', () => resolve());
    subprocess.once('error', () => resolve());
  });

  const stop = (reason: StopReason) => {
    if (stopReason !== undefined) return;
    stopReason = reason;
    if (pid !== undefined) stopping = terminateGroup(pid, options.killGraceMs, exited);
  };

  const scanLines = (text: string) => {
    pendingLine += text;
    if (!pendingLine.includes('\n')) {
      if (pendingLine.length > MAX_SCANNED_LINE) pendingLine = '';
      return;
    }
    const lines = pendingLine.split('\n');
    pendingLine = lines.pop() ?? '';
    for (const line of lines) {
      if (line.trim() === '') continue;
      if (lineNoticeKind(connector, line, options.clock()) === 'quota') {
        stop('quota-notice');
        pendingLine = '';
        return;
      }
    }
  };

  try {
    options.onSpawn?.(pid);
  } catch (error) {
    // The caller could not record the start (its listener or its store threw): end the agent
    // rather than leave it running unwatched, then report the caller's error.
    if (pid !== undefined) await terminateGroup(pid, options.killGraceMs, exited);
    await subprocess;
    throw error;
  }

  // The network-wait clock: armed by the first notice after progress, it stops the process once
  // notices have gone on for networkWaitMs with no progress between.
  let networkTimer = false;
  const armNetworkWait = (delayMs: number) => {
    networkTimer = true;
    timers.push(
      setTimeout(() => {
        networkTimer = false;
        if (stopReason !== undefined || networkWaitSince === undefined) return;
        const left = networkWaitSince + (options.networkWaitMs ?? 0) - performance.now();
        if (left <= 0) stop('network-wait');
        else armNetworkWait(left);
      }, delayMs),
    );
  };
  const onLine = (line: string, stream: 'stdout' | 'stderr') => {
    if (!activity || line.trim() === '') return;
    const meaning = activity.classifyLine(line, stream);
    if (meaning.kind === 'progress') {
      lastActivity = performance.now();
      networkWaitSince = undefined;
    } else if (meaning.kind === 'network-wait') {
      networkNotice = meaning.notice;
      if (networkWaitSince === undefined) networkWaitSince = performance.now();
      if (!networkTimer && options.networkWaitMs !== undefined && options.networkWaitMs > 0) {
        armNetworkWait(networkWaitSince + options.networkWaitMs - performance.now());
      }
    }
  };
  const splitter = (stream: 'stdout' | 'stderr') => {
    let pending = '';
    return (text: string) => {
      pending += text;
      if (!pending.includes('\n')) {
        // A line this long is an agent writing, not a notice.
        if (pending.length > MAX_SCANNED_LINE) {
          pending = '';
          lastActivity = performance.now();
        }
        return;
      }
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) onLine(line, stream);
    };
  };
  const stdoutLines = splitter('stdout');
  const stderrLines = splitter('stderr');

  subprocess.stdout?.on('data', (chunk: Buffer) => {
    if (!activity) lastActivity = performance.now();
    stdoutBytes += chunk.length;
    options.onStdout?.(chunk);
    const text = outDecoder.write(chunk);
    parser.push(text);
    if (activity) stdoutLines(text);
    if (options.stopOnQuotaNotice && stopReason === undefined) scanLines(text);
  });
  subprocess.stderr?.on('data', (chunk: Buffer) => {
    if (!activity) lastActivity = performance.now();
    stderrBytes += chunk.length;
    options.onStderr?.(chunk);
    const text = errDecoder.write(chunk);
    stderr += text;
    if (activity) stderrLines(text);
    if (stderr.length > STDERR_TAIL_CHARS * 2) stderr = stderr.slice(-STDERR_TAIL_CHARS);
  });

  // The clocks re-arm themselves for the time left, so a byte costs one assignment, not a timer.
  const arm = (limitMs: number, since: () => number, reason: StopReason) => {
    const check = () => {
      if (stopReason !== undefined) return;
      const left = since() + limitMs - performance.now();
      if (left <= 0) stop(reason);
      else timers.push(setTimeout(check, left));
    };
    timers.push(setTimeout(check, limitMs));
  };
  if (options.silenceMs !== undefined && options.silenceMs > 0) {
    arm(options.silenceMs, () => lastActivity, 'silence');
  }
  const watcher =
    options.noProgress && options.noProgress.ms > 0 && pid !== undefined
      ? watchWorkTree({
          roots: options.noProgress.roots,
          ignorePaths: options.noProgress.ignorePaths,
          onChange: () => {
            lastChange = performance.now();
          },
        })
      : undefined;
  if (watcher && options.noProgress) arm(options.noProgress.ms, () => lastChange, 'no-progress');
  if (options.timeoutMs !== undefined && options.timeoutMs > 0) {
    timers.push(setTimeout(() => stop('timeout'), options.timeoutMs));
  }
  const onAbort = () => stop('canceled');
  options.signal?.addEventListener('abort', onAbort, { once: true });

  // After the agent exits, its pipes may be held open by processes it left behind.
  let drainTimer: NodeJS.Timeout | undefined;
  let draining: Promise<void> | undefined;
  subprocess.once('exit', () => {
    drainTimer = setTimeout(() => {
      if (pid !== undefined) draining = terminateGroup(pid, options.killGraceMs);
      subprocess.stdout?.destroy();
      subprocess.stderr?.destroy();
    }, OUTPUT_DRAIN_MS);
  });

  const result = await subprocess;
  const end = performance.now();
  if (drainTimer) clearTimeout(drainTimer);
  for (const timer of timers) clearTimeout(timer);
  watcher?.close();
  options.signal?.removeEventListener('abort', onAbort);
  if (stopping) await stopping;
  if (draining) await draining;

  parser.push(outDecoder.end());
  stderr += errDecoder.end();
  if (stderr.length > STDERR_TAIL_CHARS) stderr = stderr.slice(-STDERR_TAIL_CHARS);
  const spawnError =
    pid === undefined ? (result.shortMessage ?? result.message ?? 'the process did not start') : undefined;
  return {
    ...(pid === undefined ? {} : { pid }),
    exitCode: result.exitCode ?? null,
    signal: result.signal ?? null,
    ...(spawnError === undefined ? {} : { spawnError }),
    ...(stopReason === undefined ? {} : { stopReason }),
    parsed: parser.end(),
    stderr,
    stdoutBytes,
    stderrBytes,
    workerMs: end - start,
    silentMs: end - lastActivity,
    ...(stopReason === 'network-wait' && networkWaitSince !== undefined
      ? { networkWait: { notice: networkNotice, ms: end - networkWaitSince } }
      : {}),
  };
}
