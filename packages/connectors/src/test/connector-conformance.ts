import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { resolveConnectorEntry } from '../loading/load-configured-connectors';
import { loadManifestFile } from '../loading/load-manifest-file';
import { resolveConnector } from '../resolve-connector';
import type {
  ConnectorV1,
  ConnectorV1Outcome,
  ConnectorV1OutcomeKind,
  ConnectorV1ParsedOutput,
} from '../spec/v1';
import { ConformanceError } from './conformance-error';

/**
 * One captured run of the agent CLI: what it printed and how it exited. Give the output inline
 * (`stdout`) or as a file (`file`, read as UTF-8: a capture in `src/__fixtures__/`).
 */
export interface ConformanceSample {
  /** What the CLI wrote to standard output. */
  readonly stdout?: string;
  /** A file holding what the CLI wrote to standard output (instead of `stdout`). */
  readonly file?: string | URL;
  /** What the CLI wrote to standard error (default empty). */
  readonly stderr?: string;
  /** The exit code (default 0 for a success sample, 1 for the others); null when killed by a signal. */
  readonly exitCode?: number | null;
  /** A success sample's exact answer text (default: any answer that is not empty). */
  readonly answer?: string;
  /** A usage-limit sample's reset as the provider named it (epoch ms or ISO-8601), when it names one. */
  readonly resetsAt?: number | string;
  /** A throttle sample's named wait in milliseconds, when the provider names one. */
  readonly waitMs?: number;
  /** How the sample reads in check names (default `<kind> sample <n>`). */
  readonly name?: string;
}

/** One sample or several of a kind. */
export type ConformanceSamples = ConformanceSample | readonly ConformanceSample[];

/** What {@link connectorConformanceChecks} checks a connector against. */
export interface ConnectorConformanceOptions {
  /** The connector (usually the package's default export). */
  readonly connector: unknown;
  /**
   * The package's directory: when given, the package is resolved and imported exactly as
   * `bullswarm connectors add <dir>` does (so it must be built), and must be this connector.
   */
  readonly packageDir?: string;
  /** A connector.json the package ships: it must validate and carry the connector's id. */
  readonly manifestFile?: string;
  /** Captured output of the CLI, at least one of each kind. */
  readonly samples: {
    /** A run that answered: must classify `ok` with a non-empty answer. */
    readonly success: ConformanceSamples;
    /** A spent usage window (quota, credits): must classify `quota`. */
    readonly usageLimit: ConformanceSamples;
    /** A transient rate limit or overload: must classify `throttle`. */
    readonly throttle: ConformanceSamples;
    /** A sign-in failure (expired or missing credentials): must classify `auth`. */
    readonly signIn: ConformanceSamples;
  };
  /** The instant the samples are classified at (epoch ms; relative resets count from it). Default now. */
  readonly now?: number;
  /** The zone for clock times a notice prints without one (default `UTC`). */
  readonly timeZone?: string;
}

/** One check: a name for the test and a function that throws {@link ConformanceError} when it fails. */
export interface ConformanceCheck {
  readonly name: string;
  readonly run: () => void | Promise<void>;
}

const KINDS = [
  ['success', 'ok', 0],
  ['usageLimit', 'quota', 1],
  ['throttle', 'throttle', 1],
  ['signIn', 'auth', 1],
] as const satisfies readonly (readonly [
  keyof ConnectorConformanceOptions['samples'],
  ConnectorV1OutcomeKind,
  number,
])[];

const LABELS: Record<(typeof KINDS)[number][0], string> = {
  success: 'success',
  usageLimit: 'usage-limit',
  throttle: 'throttle',
  signIn: 'sign-in',
};

/** Chunk sizes every sample is also fed in: a parser must not care where the stream is cut. */
const CHUNK_SIZES = [1, 7, 64];

function fail(check: string, problem: string, cause?: unknown): never {
  throw new ConformanceError({ check, problem, ...(cause === undefined ? {} : { cause }) });
}

function sampleStdout(sample: ConformanceSample, check: string): string {
  if (sample.stdout !== undefined && sample.file !== undefined)
    fail(check, 'give the sample as `stdout` or as `file`, not both');
  if (sample.stdout !== undefined) return sample.stdout;
  if (sample.file === undefined) fail(check, 'the sample has neither `stdout` nor `file`');
  try {
    return readFileSync(sample.file, 'utf8');
  } catch (cause) {
    return fail(
      check,
      `cannot read the sample file ${String(sample.file)}: ${(cause as Error).message}`,
      cause,
    );
  }
}

function parse(connector: ConnectorV1, text: string, chunk: number): ConnectorV1ParsedOutput {
  const parser = connector.createOutputParser();
  for (let index = 0; index < text.length; index += chunk) parser.push(text.slice(index, index + chunk));
  return parser.end();
}

function describeOutcome(outcome: ConnectorV1Outcome): string {
  return `"${outcome.kind}" (${outcome.message})`;
}

function toEpoch(value: number | string, check: string): number {
  const epoch = typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(epoch)) fail(check, `resetsAt ${JSON.stringify(value)} is not an instant`);
  return epoch;
}

/** The connector, checked as bullswarm checks a package's export (or the check fails). */
function asConnector(value: unknown, check: string): ConnectorV1 {
  try {
    return resolveConnector(value, 'connector');
  } catch (cause) {
    return fail(check, (cause as Error).message, cause);
  }
}

/**
 * The conformance suite of a connector package: call it from a test file and run each check as a
 * test. It checks that the connector is a valid connector-v1 (and, when given, that its
 * connector.json validates and that the package loads as `bullswarm connectors add` loads it),
 * that it builds an invocation, and that its parser and classifier turn the author's captured
 * success, usage-limit, throttle and sign-in samples into `ok`, `quota`, `throttle` and `auth`
 * whatever the chunks the output arrives in. No test framework is imported: the checks are plain
 * functions that throw {@link ConformanceError}.
 *
 * @example
 * import { describe, it } from 'vitest';
 * import { connectorConformanceChecks } from '@bullswarm/connectors/test';
 * import connector from './index';
 *
 * describe('conformance', () => {
 *   for (const check of connectorConformanceChecks({
 *     connector,
 *     samples: {
 *       success: { file: new URL('./__fixtures__/success.ndjson', import.meta.url) },
 *       usageLimit: { file: new URL('./__fixtures__/quota.ndjson', import.meta.url) },
 *       throttle: { file: new URL('./__fixtures__/throttle.ndjson', import.meta.url) },
 *       signIn: { stdout: '', stderr: 'error: session token rejected' },
 *     },
 *   }))
 *     it(check.name, check.run);
 * });
 */
export function connectorConformanceChecks(options: ConnectorConformanceOptions): ConformanceCheck[] {
  const now = options.now ?? Date.now();
  const timeZone = options.timeZone ?? 'UTC';
  const checks: ConformanceCheck[] = [];
  const manifestCheck = 'manifest: a valid connector-v1';
  checks.push({
    name: manifestCheck,
    run: async () => {
      const connector = asConnector(options.connector, manifestCheck);
      if (options.manifestFile === undefined) return;
      let manifestId: string;
      try {
        manifestId = (await loadManifestFile(options.manifestFile)).connectorId;
      } catch (cause) {
        fail(manifestCheck, (cause as Error).message, cause);
      }
      if (manifestId !== connector.connectorId)
        fail(
          manifestCheck,
          `${options.manifestFile}: id "${manifestId}" is not the connector's id "${connector.connectorId}"`,
        );
    },
  });

  if (options.packageDir !== undefined) {
    const packageDir = options.packageDir;
    const check = 'package: loads as `bullswarm connectors add` loads it';
    checks.push({
      name: check,
      run: async () => {
        const connector = asConnector(options.connector, check);
        const packageJson = JSON.parse(readFileSync(`${packageDir}/package.json`, 'utf8')) as {
          keywords?: unknown;
        };
        if (!Array.isArray(packageJson.keywords) || !packageJson.keywords.includes('bullswarm-connector'))
          fail(check, `${packageDir}/package.json: keywords needs "bullswarm-connector"`);
        let loaded: ConnectorV1;
        try {
          loaded = (await resolveConnectorEntry(packageDir, packageDir)).connector;
        } catch (cause) {
          fail(check, `${(cause as Error).message} (build the package first)`, cause);
        }
        if (loaded.connectorId !== connector.connectorId)
          fail(
            check,
            `the package's default export is connector "${loaded.connectorId}", not "${connector.connectorId}"`,
          );
      },
    });
  }

  const invocationCheck = 'invocation: a command line with the prompt';
  checks.push({
    name: invocationCheck,
    run: () => {
      const connector = asConnector(options.connector, invocationCheck);
      const prompt = 'conformance prompt 7f3a';
      const accountEnv = connector.accountEnv({ account: 'default', bullswarmHome: '/b', userHome: '/u' });
      const invocation = connector.buildInvocation({
        prompt,
        cwd: '/work',
        addDirs: [],
        accountEnv,
        bullswarmHome: '/b',
        userHome: '/u',
      });
      if (typeof invocation.command !== 'string' || invocation.command === '')
        fail(invocationCheck, 'command: expected a non-empty string');
      if (!Array.isArray(invocation.args) || invocation.args.some((arg) => typeof arg !== 'string'))
        fail(invocationCheck, 'args: expected an array of strings');
      const passed = invocation.stdin === prompt || invocation.args.some((arg) => arg.includes(prompt));
      if (!passed) fail(invocationCheck, 'the prompt is neither on stdin nor in an argument');
    },
  });

  for (const [key, expected, defaultExit] of KINDS) {
    const given = options.samples?.[key];
    const samples: readonly ConformanceSample[] =
      given === undefined ? [] : Array.isArray(given) ? given : [given as ConformanceSample];
    const label = LABELS[key];
    if (samples.length === 0) {
      const check = `samples: at least one ${label} sample`;
      checks.push({ name: check, run: () => fail(check, `samples.${key} is missing: add a captured one`) });
      continue;
    }
    samples.forEach((sample, index) => {
      const name = sample.name ?? `${label} sample ${index + 1}`;
      const chunkCheck = `parser: ${name} parses the same in any chunks`;
      checks.push({
        name: chunkCheck,
        run: () => {
          const connector = asConnector(options.connector, chunkCheck);
          const text = sampleStdout(sample, chunkCheck);
          const whole = parse(connector, text, Math.max(1, text.length));
          for (const size of CHUNK_SIZES) {
            if (!isDeepStrictEqual(parse(connector, text, size), whole))
              fail(
                chunkCheck,
                `fed in chunks of ${size} characters, the parser's result differs from the whole`,
              );
          }
        },
      });
      const outcomeCheck = `outcome: ${name} is ${expected}`;
      checks.push({
        name: outcomeCheck,
        run: () => {
          const connector = asConnector(options.connector, outcomeCheck);
          const parsed = parse(connector, sampleStdout(sample, outcomeCheck), 7);
          const outcome = connector.classifyOutcome({
            exitCode: sample.exitCode === undefined ? defaultExit : sample.exitCode,
            signal: null,
            parsed,
            stderr: sample.stderr ?? '',
            now,
            timeZone,
          });
          if (outcome.kind !== expected)
            fail(outcomeCheck, `expected outcome "${expected}", got ${describeOutcome(outcome)}`);
          if (expected === 'ok') {
            if (sample.answer !== undefined && parsed.answer !== sample.answer)
              fail(
                outcomeCheck,
                `answer ${JSON.stringify(parsed.answer)} is not ${JSON.stringify(sample.answer)}`,
              );
            if (parsed.answer === '') fail(outcomeCheck, 'the answer is empty');
          }
          if (expected === 'quota' && sample.resetsAt !== undefined) {
            const want = toEpoch(sample.resetsAt, outcomeCheck);
            if (outcome.resetsAt !== want)
              fail(
                outcomeCheck,
                `resetsAt ${outcome.resetsAt === undefined ? 'missing' : new Date(outcome.resetsAt).toISOString()}, expected ${new Date(want).toISOString()}`,
              );
          }
          if (expected === 'throttle' && sample.waitMs !== undefined && outcome.waitMs !== sample.waitMs)
            fail(outcomeCheck, `waitMs ${outcome.waitMs ?? 'missing'}, expected ${sample.waitMs}`);
        },
      });
    });
  }
  return checks;
}
