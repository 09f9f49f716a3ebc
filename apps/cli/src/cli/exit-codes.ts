import { BullswarmError } from '@bullswarm/pacing';
import { CliExit, systemErrorReport } from './cli-errors';

/** The exit codes of `bullswarm`. */
export const EXIT = {
  /** Success. */
  ok: 0,
  /** The task failed or hit a limit (or no pool could take it). */
  failed: 1,
  /** A usage error or bad input: unknown flag/command, bad value, unknown pool, invalid config file. */
  usage: 2,
} as const;

/** Commander error codes that are not errors at all. */
const COMMANDER_SUCCESS = new Set(['commander.helpDisplayed', 'commander.version']);

/** A commander parse error (it has already printed its own message). */
interface CommanderLike {
  readonly code: string;
  readonly exitCode: number;
}

function isCommanderError(error: unknown): error is CommanderLike {
  return (
    error instanceof Error &&
    typeof (error as Partial<CommanderLike>).code === 'string' &&
    (error as Partial<CommanderLike>).code!.startsWith('commander.')
  );
}

/** What the top-level handler does with an error: the exit code and what to print (if anything). */
export interface ErrorReport {
  readonly exitCode: number;
  /** The line(s) to print on stderr; empty when the error already said it. */
  readonly message: string;
  /** The error is not a bullswarm error: a bug, or something the OS said. */
  readonly unexpected: boolean;
}

/**
 * Maps anything a command threw to an exit code and a message. Usage and input errors → 2;
 * everything else → 1. Stacks are never part of the message (the caller adds one with --debug).
 */
export function reportError(error: unknown): ErrorReport {
  if (CliExit.isInstance(error)) return { exitCode: error.exitCode, message: '', unexpected: false };
  if (isCommanderError(error)) {
    if (COMMANDER_SUCCESS.has(error.code)) return { exitCode: EXIT.ok, message: '', unexpected: false };
    // `bullswarm help` asked for help (exit 0); `bullswarm` or `bullswarm meters` alone is missing
    // its command, and commander printed the help on stderr instead (a usage error).
    if (error.code === 'commander.help') {
      return { exitCode: error.exitCode === 0 ? EXIT.ok : EXIT.usage, message: '', unexpected: false };
    }
    // commander printed `error: unknown option '--x'` (and a suggestion) already.
    return { exitCode: EXIT.usage, message: '', unexpected: false };
  }
  // The error says what it means (`fault`), so no list of error classes lives here.
  if (BullswarmError.isInstance(error) && error.fault === 'input') {
    return { exitCode: EXIT.usage, message: `error: ${(error as Error).message}`, unexpected: false };
  }
  if (BullswarmError.isInstance(error)) {
    return { exitCode: EXIT.failed, message: `error: ${error.message}`, unexpected: false };
  }
  // A read-only home, a full disk, a damaged store that no bullswarm error wrapped: said as such.
  const system = systemErrorReport(error);
  if (system !== undefined) return { ...system, unexpected: false };
  const message = error instanceof Error ? error.message : String(error);
  return { exitCode: EXIT.failed, message: `error: ${message}`, unexpected: true };
}
