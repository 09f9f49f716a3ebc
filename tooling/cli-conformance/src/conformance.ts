import { existsSync, readFileSync } from 'node:fs';
import { createOutputParser, satisfiesVersionRange } from '@bullswarm/connectors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepCapture } from './fixtures';
import { type InstalledCli, installCli, installedVersion } from './install-cli';
import { missingFromHelp, passedFlags, readManifest } from './manifest-flags';
import type { PinnedCli } from './pinned-clis';
import { bullswarm, createSandbox, RUN_BOUND_MS, RUN_CLOCKS, runCli, type Sandbox } from './run-bullswarm';

/** What one CLI's checks need beyond its pin. */
export interface CliExpectations {
  /** What `bullswarm doctor` must say of a fresh, empty HOME (the connector's `signIn` rule). */
  readonly signInWhenEmpty: 'signed-out' | 'unknown';
  /** More checks of this CLI, run after the common ones (same sandbox and install). */
  readonly more?: (context: CliContext) => void;
}

/** What the checks of one CLI share. */
export interface CliContext {
  readonly cli: PinnedCli;
  /** The install (the first caller installs; a failed install fails every caller). */
  installed(): Promise<InstalledCli>;
  sandbox(): Sandbox;
}

/** A one-line usage error of an argument parser (what a flag the CLI does not take produces). */
const USAGE_ERROR =
  /unknown (argument|option|flag)|unexpected argument|unrecognized (argument|option)|invalid value .* for|Usage: .*\[options\]/i;

/**
 * Registers the checks of one real CLI: it installs at its pinned version, the connector was checked
 * against that version, every flag bullswarm passes is accepted, an unauthenticated run with no
 * network to the vendor ends with a verdict through the built `bullswarm run`, and `bullswarm
 * doctor` reads it. The outputs are kept as fixtures beside the version (src/fixtures.ts).
 */
export function describeCliConformance(cli: PinnedCli, expectations: CliExpectations): void {
  const manifest = readManifest(cli.connector);
  let installing: Promise<InstalledCli> | undefined;
  let box: Sandbox | undefined;
  const context: CliContext = {
    cli,
    installed: () => {
      installing ??= installCli(cli);
      return installing;
    },
    sandbox: () => {
      if (box === undefined) throw new Error('the sandbox is made in beforeAll');
      return box;
    },
  };
  /** The outputs of this CLI so far, written at the end of each check that adds one. */
  const capture: Record<string, string> = {};
  const keep = (files: Record<string, string>) => {
    Object.assign(capture, files);
    keepCapture(cli.connector, cli.version, files);
  };

  describe(`${cli.npmPackage}@${cli.version} (connector ${cli.connector})`, () => {
    beforeAll(() => {
      box = createSandbox();
    });
    afterAll(() => box?.remove());

    it('installs from the npm registry into the cache outside the workspace (or reuses it) and prints its version', async () => {
      const installed = await context.installed();
      expect(installedVersion(installed)).toBe(cli.version);
      const args = manifest.cliVersions?.versionArgs ?? ['--version'];
      const version = await runCli(context.sandbox(), installed.binPath, args);
      expect(version.timedOut).toBe(false);
      expect(version.output).toContain(cli.version);
    });

    it('is inside the version range the connector says it was checked against', () => {
      expect(
        manifest.cliVersions,
        `providers/${cli.connector}/connector.json names no cliVersions`,
      ).toBeDefined();
      expect(satisfiesVersionRange(cli.version, manifest.cliVersions!.checked)).toBe(true);
    });

    const { subcommand, flags } = passedFlags(manifest.invocation);
    it(`accepts every flag bullswarm passes (${[...subcommand, ...flags.map((f) => (f.value === undefined ? f.flag : `${f.flag} ${f.value}`))].join(' ')})`, async () => {
      const installed = await context.installed();
      const help = await runCli(context.sandbox(), installed.binPath, [...subcommand, '--help']);
      expect(help.timedOut).toBe(false);
      expect(help.exitCode).toBe(0);
      keep({ 'help.txt': context.sandbox().normalize(help.output) });
      expect(missingFromHelp(help.output, flags)).toEqual([]);
      // The check can fail: a flag and a value this help does not list are named.
      const first = flags.find((f) => f.value !== undefined) ?? flags[0]!;
      expect(
        missingFromHelp(help.output, [
          { flag: '--bullswarm-no-such-flag' },
          { flag: first.flag, value: 'no-such-value' },
        ]),
      ).toEqual(['--bullswarm-no-such-flag', `${first.flag} no-such-value`]);
    });

    it('an unauthenticated run with no network to the vendor ends, through bullswarm run, with a one-line verdict (sign-in or process failure) within 3 minutes', async () => {
      const installed = await context.installed();
      const sandbox = context.sandbox();
      const added = await bullswarm(sandbox, ['pools', 'add', cli.connector, '--command', installed.binPath]);
      expect(added).toMatchObject({ exitCode: 0, stderr: '' });
      const args = [
        'run',
        '--lane',
        'analyze',
        '--worker-pool',
        cli.connector,
        '--retry-attempts',
        '0',
        ...cli.runArgs,
        '--json',
        'Reply with the single word PONG.',
      ];
      const run = await bullswarm(sandbox, args);
      expect(run.timedOut, `still running after ${RUN_BOUND_MS / 1000}s`).toBe(false);
      expect(run.exitCode).toBe(1);
      const json = JSON.parse(run.stdout) as {
        ok: boolean;
        kind: string;
        why: string;
        attempts: {
          kind: string;
          why: string;
          outputFile: string;
          exitCode: number | null;
          signal: string | null;
        }[];
      };
      expect(json.ok).toBe(false);
      expect(['auth', 'process']).toContain(json.kind);
      expect(json.why).not.toBe('');
      expect(json.why).not.toContain('\n');
      expect(json.attempts).toHaveLength(1);
      const attempt = json.attempts[0]!;
      const stdout = existsSync(attempt.outputFile) ? readFileSync(attempt.outputFile, 'utf8') : '';
      const stderrFile = `${attempt.outputFile}.stderr`;
      const stderr = existsSync(stderrFile) ? readFileSync(stderrFile, 'utf8') : '';
      keep({
        'run.stdout': sandbox.normalize(stdout),
        'run.stderr': sandbox.normalize(stderr),
        'verdict.json': `${JSON.stringify(
          {
            npmPackage: cli.npmPackage,
            version: cli.version,
            connector: cli.connector,
            outputFormat: manifest.outputFormat,
            capturedAt: new Date().toISOString().slice(0, 10),
            bullswarm: ['bullswarm', ...args],
            clocks: RUN_CLOCKS,
            kind: json.kind,
            why: sandbox.normalize(json.why),
            exitCode: attempt.exitCode,
            signal: attempt.signal,
          },
          null,
          2,
        )}\n`,
      });
      // The CLI got past its argument parsing: no usage error, and it spoke its output format
      // (or said who is not signed in).
      expect(`${json.why}\n${stderr}`).not.toMatch(USAGE_ERROR);
      const parser = createOutputParser(manifest.outputFormat as Parameters<typeof createOutputParser>[0]);
      parser.push(stdout);
      const parsed = parser.end();
      const recognized = parsed.events.total - parsed.events.ignored;
      expect(
        recognized > 0 || json.kind === 'auth',
        `${recognized} ${manifest.outputFormat} events and kind ${json.kind}`,
      ).toBe(true);
    });

    it(`bullswarm doctor finds it inside the checked range and says it is ${expectations.signInWhenEmpty}`, async () => {
      const installed = await context.installed();
      const doctor = await bullswarm(context.sandbox(), ['doctor', '--json']);
      expect(doctor.timedOut).toBe(false);
      const report = JSON.parse(doctor.stdout) as {
        pools: { id: string; cli: Record<string, unknown>; signIn: { state: string; evidence: string } }[];
      };
      const pool = report.pools.find((p) => p.id === cli.connector);
      expect(pool?.cli).toMatchObject({ path: installed.binPath, version: cli.version, inRange: true });
      expect(pool?.signIn.state, pool?.signIn.evidence).toBe(expectations.signInWhenEmpty);
      expect(doctor.exitCode).toBe(expectations.signInWhenEmpty === 'signed-out' ? 1 : 0);
    });

    expectations.more?.(context);
  });
}
