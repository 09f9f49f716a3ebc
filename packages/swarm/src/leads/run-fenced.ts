import { constants } from 'node:os';
import { execa } from 'execa';
import { RemoteStateError } from '../errors/remote-state-error';
import { SwarmInputError } from '../errors/swarm-input-error';
import type { PlanRef } from '../plans/plan-location';
import type { Swarm } from '../store/create-swarm';
import type { LeadRecord } from './lead-book';
import { recordFenceRefusal } from './lead-fencing';
import { checkRemoteBeforeFence, type RemoteCheck } from './remote-check';

/** Options of {@link runFenced}. */
export interface RunFencedOptions {
  readonly plan: PlanRef;
  /** The epoch the lead believes it holds. */
  readonly epoch: number;
  /** The lead's address; when given it must be the record's lead. */
  readonly address?: string;
  /** The merge, tag or release command and its arguments (run without a shell). */
  readonly command: readonly string[];
  readonly cwd: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The remote to check first (default: the one the command pushes to, the branch's, `origin`, the only one). */
  readonly remote?: string;
}

/** The fenced command's outcome. */
export interface FencedRun {
  readonly record: LeadRecord;
  /** What was read from the remote before the command ran. */
  readonly remote: RemoteCheck;
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs a merge, tag or release command only when `epoch` is the plan's current epoch (and
 * `address` its lead): {@link LeadBook.assertCurrentEpoch} first, then the remote is read
 * ({@link checkRemoteBeforeFence}: refused when it moved past the checkout, a tag is already
 * there, or it cannot be read), then the command (argv, no shell), its output captured. A lead at
 * a lower epoch gets a `FencingError`, a moved remote a `RemoteStateError` (kept as a
 * `fence-refused` event too), and nothing runs. A command that cannot be started exits 127 with
 * `<command>: command not found` (or why) as its stderr.
 *
 * The check is made immediately before the command starts; the write lock is not held while it
 * runs (a merge can take minutes), so a takeover during the command is detected by the next fenced
 * action, not this one.
 */
export async function runFenced(swarm: Swarm, options: RunFencedOptions): Promise<FencedRun> {
  if (options.command.length === 0 || options.command[0] === '') {
    throw new SwarmInputError({
      field: 'command',
      expected: 'the merge, tag or release command and its arguments, e.g. git merge --no-ff lane/api',
    });
  }
  const record = await swarm.leads.assertCurrentEpoch(options.plan, {
    epoch: options.epoch,
    ...(options.address === undefined ? {} : { address: options.address }),
    action: options.command.join(' '),
  });
  let remote: RemoteCheck;
  try {
    remote = checkRemoteBeforeFence(options.command, options.cwd, {
      ...(options.remote === undefined ? {} : { remote: options.remote }),
      ...(options.env === undefined ? {} : { env: options.env }),
    });
  } catch (error) {
    if (RemoteStateError.isInstance(error)) {
      await recordFenceRefusal(
        swarm.context,
        options.plan,
        record.lead,
        { epoch: options.epoch, ...(options.address === undefined ? {} : { address: options.address }) },
        `${options.command.join(' ')} (remote: ${error.message})`,
      );
    }
    throw error;
  }
  const [file, ...args] = options.command as [string, ...string[]];
  const result = await execa(file, args, {
    cwd: options.cwd,
    reject: false,
    stdin: 'ignore',
    ...(options.env === undefined ? {} : { env: options.env, extendEnv: false }),
  });
  const stdout = String(result.stdout ?? '');
  const stderr = String(result.stderr ?? '');
  if (result.signal !== undefined) {
    // Killed by a signal: keep what it printed, say which signal, exit 128 + its number (as a shell).
    const number = (constants.signals as Record<string, number>)[result.signal] ?? 0;
    const note = `${file}: killed by ${result.signal}`;
    return {
      record,
      remote,
      exitCode: 128 + number,
      stdout,
      stderr: stderr === '' ? note : `${stderr.replace(/\n$/, '')}\n${note}`,
    };
  }
  const code = (result as { code?: string }).code;
  if (result.exitCode === undefined && result.failed && typeof code === 'string') {
    // It never started (a spawn error such as ENOENT or EACCES): say so as a shell would, with
    // exit code 127 (not found) or 126 (found, not executable).
    return {
      record,
      remote,
      exitCode: code === 'EACCES' ? 126 : 127,
      stdout: '',
      stderr:
        code === 'ENOENT'
          ? `${file}: command not found`
          : code === 'EACCES'
            ? `${file}: permission denied`
            : `${file}: could not be started (${code})`,
    };
  }
  return {
    record,
    remote,
    exitCode: result.exitCode ?? 1,
    stdout,
    stderr:
      result.exitCode === undefined && result.failed && stderr === '' ? (result.shortMessage ?? '') : stderr,
  };
}
