import { MeterReadError } from '../errors/meter-read-error';
import { parseMeterReadingText } from '../reading/parse-meter-reading';
import { expandTemplate } from '../template/expand-template';
import { type MeterReadContext, type MeterReader, type MeterReadResult, readingResult } from './meter-reader';

/** Settings of the command reader (the `command` meter source). */
export interface CommandMeterReaderSettings {
  /** The program to run (templates allowed). Run directly, never through a shell. */
  readonly command: string;
  /** Its arguments (templates allowed). */
  readonly args?: readonly string[];
  /** Stop the command after this long; default 10 s. */
  readonly timeoutMs?: number;
}

/** The default timeout of a meter command. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 10_000;
const MAX_OUTPUT_BYTES = 1024 * 1024;

/**
 * Runs a command (with execa, no shell) that prints a bullswarm meter reading as JSON on stdout.
 * The command runs with the pool's account environment added to the process environment and
 * stdin closed. Non-zero exit → `command-exit` (status `command exited <n>`), timeout →
 * `command-timeout` (killed, SIGKILL 2 s later if it ignores SIGTERM), not startable →
 * `command-failed`, bad output → `bad-reading` naming the command and the field.
 *
 * execa is imported on the first read, not when this module loads: most commands (`bullswarm
 * pools` on cached meters) create readers but never run a meter command.
 */
export function createCommandMeterReader(settings: CommandMeterReaderSettings): MeterReader {
  return {
    sourceType: 'command',
    async read(context: MeterReadContext): Promise<MeterReadResult> {
      const command = expandTemplate(settings.command, context);
      const args = (settings.args ?? []).map((arg) => expandTemplate(arg, context));
      const commandLine = [command, ...args].map(quoteForDisplay).join(' ');
      const timeout = settings.timeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
      const { execa } = await import('execa');
      const result = await execa(command, args, {
        reject: false,
        shell: false,
        stdin: 'ignore',
        timeout,
        forceKillAfterDelay: 2_000,
        maxBuffer: MAX_OUTPUT_BYTES,
        env: definedEntries(context.env),
        extendEnv: true,
        stripFinalNewline: true,
        ...(context.signal === undefined ? {} : { cancelSignal: context.signal }),
      });
      const base = {
        sourceType: 'command',
        location: commandLine,
        cause: result.failed ? result : undefined,
      };
      const stderrTail = tail(String(result.stderr ?? ''));
      if (result.timedOut) {
        throw new MeterReadError({
          ...base,
          reason: 'command-timeout',
          status: 'command timed out',
          message: `meter command ${commandLine} did not finish within ${timeout} ms and was stopped`,
          isRetryable: true,
        });
      }
      if (result.exitCode === undefined) {
        throw new MeterReadError({
          ...base,
          reason: 'command-failed',
          status: result.isCanceled ? 'command canceled' : 'command failed to start',
          message: `meter command ${commandLine} could not run: ${result.shortMessage ?? 'unknown error'}`,
          isRetryable: !!result.isCanceled,
        });
      }
      if (result.exitCode !== 0) {
        throw new MeterReadError({
          ...base,
          reason: 'command-exit',
          status: `command exited ${result.exitCode}`,
          exitCode: result.exitCode,
          message: `meter command ${commandLine} exited ${result.exitCode}${stderrTail ? `: ${stderrTail}` : ''}`,
          isRetryable: true,
        });
      }
      return readingResult(
        parseMeterReadingText(String(result.stdout ?? ''), {
          sourceType: 'command',
          description: `stdout of meter command ${commandLine}`,
          location: commandLine,
        }),
      );
    },
  };
}

function definedEntries(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}

function quoteForDisplay(part: string): string {
  return /^[\w@%+=:,./-]+$/.test(part) ? part : JSON.stringify(part);
}

function tail(text: string): string {
  const trimmed = text.trim();
  const lastLine = trimmed.slice(trimmed.lastIndexOf('\n') + 1);
  return lastLine.length > 200 ? `${lastLine.slice(0, 200)}…` : lastLine;
}
