import { existsSync } from 'node:fs';
import {
  type ConnectorV1,
  findVersion,
  renderTemplate,
  resolveBundledCommand,
  satisfiesVersionRange,
} from '@bullswarm/connectors';
import { InvalidEnvironmentError } from '@bullswarm/store';

/** Overrides how long doctor waits for each command it runs (`--version`, a sign-in status), seconds. */
export const DOCTOR_TIMEOUT_SEC = 'BULLSWARM_DOCTOR_TIMEOUT_SEC';
/** The default of {@link DOCTOR_TIMEOUT_SEC}: a CLI that has not answered by then is reported, not waited for. */
export const DEFAULT_DOCTOR_TIMEOUT_SEC = 15;

/**
 * The bound of every command doctor runs, in seconds: `BULLSWARM_DOCTOR_TIMEOUT_SEC` (a positive
 * number, fractions allowed so tests can shorten it), else {@link DEFAULT_DOCTOR_TIMEOUT_SEC}.
 *
 * @throws InvalidEnvironmentError naming the variable when it is not a positive number.
 */
export function doctorTimeoutSec(env: Readonly<Record<string, string | undefined>>): number {
  const raw = env[DOCTOR_TIMEOUT_SEC]?.trim();
  if (raw === undefined || raw === '') return DEFAULT_DOCTOR_TIMEOUT_SEC;
  const value = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || !(value > 0) || value > 600) {
    throw new InvalidEnvironmentError({
      variable: DOCTOR_TIMEOUT_SEC,
      value: raw,
      expected: 'a positive number of seconds up to 600, such as 15',
    });
  }
  return value;
}

/** What one bounded command printed (see {@link ProbeRunner}). */
export interface ProbeOutput {
  readonly ok: boolean;
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  /** stdout and stderr interleaved. */
  readonly output: string;
  /** Why it could not start, when it could not. */
  readonly startError?: string;
}

/** Runs one command line (argv, no shell) with the pool's environment, bounded by the doctor timeout. */
export type ProbeRunner = (argv: readonly string[]) => Promise<ProbeOutput>;

/** The argv that runs a CLI found at `path` (a bundled bin runs through this Node). */
export function cliArgv(command: string, path: string, args: readonly string[]): string[] {
  const bundled = resolveBundledCommand(command);
  return bundled.args.length > 0 ? [bundled.command, ...bundled.args, ...args] : [path, ...args];
}

/** The installed CLI's version against the range its connector was checked with. */
export interface VersionCheck {
  /** `0.171.0`; null when not asked or not understood. */
  readonly version: string | null;
  /** The connector's checked range (`>=0.171.0 <0.172.0`); null when it names none. */
  readonly checked: string | null;
  /** Inside the range; null when either is unknown. */
  readonly inRange: boolean | null;
  /** Why the version is unknown (no answer within the bound, an exit code); null otherwise. */
  readonly problem: string | null;
}

/**
 * Asks the CLI for its version (`cliVersions.versionArgs`, default `--version`) and compares it
 * with `cliVersions.checked`. A connector without `cliVersions` is not asked (its CLI may not take
 * `--version`: bullswarm-sim does not).
 */
export async function checkVersion(
  connector: Pick<ConnectorV1, 'cliVersions'>,
  cli: { readonly command: string; readonly path: string | null },
  run: ProbeRunner,
  timeoutSec: number,
): Promise<VersionCheck> {
  const range = connector.cliVersions;
  if (range === undefined) {
    return { version: null, checked: null, inRange: null, problem: null };
  }
  const checked = range.checked;
  if (cli.path === null) return { version: null, checked, inRange: null, problem: 'the CLI is not there' };
  const args = range.versionArgs;
  const result = await run(cliArgv(cli.command, cli.path, args));
  const asked = `${args.join(' ')}`;
  if (result.timedOut) {
    return { version: null, checked, inRange: null, problem: `no answer to ${asked} within ${timeoutSec}s` };
  }
  if (result.startError !== undefined) {
    return {
      version: null,
      checked,
      inRange: null,
      problem: `${asked} could not start: ${result.startError}`,
    };
  }
  const version = findVersion(result.output) ?? null;
  if (!result.ok || version === null) {
    const line = firstLine(result.output);
    const how = result.ok ? 'printed no version' : `exited ${result.exitCode ?? 'on a signal'}`;
    return { version, checked, inRange: null, problem: `${asked} ${how}${line === '' ? '' : `: ${line}`}` };
  }
  return { version, checked, inRange: satisfiesVersionRange(version, checked), problem: null };
}

/** Whether the pool's account is signed in, as far as it can be told without a network call. */
export interface SignInCheck {
  readonly state: 'signed-in' | 'signed-out' | 'unknown';
  /** What the state rests on: the CLI's own words, the credential file, or why it is unknown. */
  readonly evidence: string;
}

/** What the sign-in check of one pool looks at. */
export interface SignInContext {
  readonly account: string;
  readonly accountEnv: Readonly<Record<string, string>>;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly bullswarmHome: string;
  readonly userHome: string;
}

/**
 * The connector's `signIn` rule (connector-v1): a `command` the CLI answers offline (Codex
 * `login status`, Claude Code `auth status`), or credential `files` and variables. Nothing here
 * reaches the network.
 */
export async function checkSignIn(
  connector: Pick<ConnectorV1, 'signIn'>,
  cli: { readonly command: string; readonly path: string | null } | undefined,
  context: SignInContext,
  run: ProbeRunner,
  timeoutSec: number,
): Promise<SignInCheck> {
  const rule = connector.signIn;
  if (rule === undefined) return { state: 'unknown', evidence: 'the connector does not say how to tell' };
  if (rule.type === 'command') {
    if (cli === undefined || cli.path === null) return { state: 'unknown', evidence: 'no CLI to ask' };
    const asked = rule.args.join(' ');
    const result = await run(cliArgv(cli.command, cli.path, rule.args));
    if (result.timedOut) return { state: 'unknown', evidence: `no answer to ${asked} within ${timeoutSec}s` };
    if (result.startError !== undefined) {
      return { state: 'unknown', evidence: `${asked} could not start: ${result.startError}` };
    }
    const signedOut = matchingLine(result.output, rule.signedOut);
    if (signedOut !== undefined) return { state: 'signed-out', evidence: `${asked}: ${signedOut}` };
    const signedIn = matchingLine(result.output, rule.signedIn);
    if (signedIn !== undefined) return { state: 'signed-in', evidence: `${asked}: ${signedIn}` };
    const line = firstLine(result.output);
    return { state: 'unknown', evidence: `${asked} said neither${line === '' ? '' : `: ${line}`}` };
  }
  const templates =
    context.account === 'default' && rule.defaultFiles !== undefined ? rule.defaultFiles : rule.files;
  const files: string[] = [];
  for (const template of templates) {
    const rendered = renderTemplate(template, {
      account: context.account,
      home: context.bullswarmHome,
      userHome: context.userHome,
      env: context.accountEnv,
    });
    if (rendered.value === undefined) continue;
    files.push(rendered.value);
    if (existsSync(rendered.value)) return { state: 'signed-in', evidence: rendered.value };
  }
  for (const name of rule.env) {
    const value = context.accountEnv[name] ?? context.env[name];
    if (value !== undefined && value !== '') return { state: 'signed-in', evidence: `${name} is set` };
  }
  const looked = [
    ...(files.length > 0 ? [`no ${files.join(' or ')}`] : []),
    ...(rule.env.length > 0 ? [`none of ${rule.env.join(', ')} set`] : []),
  ].join(' and ');
  return { state: rule.whenMissing, evidence: looked === '' ? 'nothing to look at' : looked };
}

function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .map((line) => line.trim())
      .find((line) => line !== '') ?? ''
  ).slice(0, 200);
}

function matchingLine(text: string, pattern: string): string | undefined {
  const regex = new RegExp(pattern);
  if (!regex.test(text)) return undefined;
  return (
    text
      .split('\n')
      .map((line) => line.trim())
      .find((line) => regex.test(line)) ?? regex.exec(text)?.[0]
  )?.slice(0, 200);
}
