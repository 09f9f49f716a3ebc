import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Every scenario bullswarm-sim can play. */
export const SIM_SCENARIOS = [
  'ok',
  'echo',
  'slow',
  'wait',
  'stall',
  'write',
  'write-slowly',
  'read-only-loop',
  'usage-limit',
  'throttle',
  'auth',
  'empty',
  'crash',
  'probe-404',
  'probe-error',
  'json',
] as const;

export type SimScenarioName = (typeof SIM_SCENARIOS)[number];

/** A scenario and its parameters (e.g. `{name:'slow', params:{ms:3000, tickMs:500}}`). */
export type SimScenario = {
  readonly name: SimScenarioName;
  readonly params: Readonly<Record<string, unknown>>;
};

/** Where the scenario came from (logged). */
export type SimScenarioOrigin =
  | 'prompt'
  | 'scenario.json sequence'
  | 'scenario.json default'
  | 'env'
  | 'fallback';

/** A scenario problem; the message names the source (prompt, file, env) and what is valid. */
export class SimScenarioError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SimScenarioError';
  }
}

function checkName(name: unknown, where: string): SimScenarioName {
  if (typeof name !== 'string' || !SIM_SCENARIOS.includes(name as SimScenarioName)) {
    throw new SimScenarioError(
      `bullswarm-sim: ${where}: unknown scenario ${JSON.stringify(name)}; valid: ${SIM_SCENARIOS.join(', ')}`,
    );
  }
  return name as SimScenarioName;
}

/**
 * A scenario in string or object form: `"stall"` or `{"scenario": "slow", "ms": 3000}` (the key
 * `name` is accepted for `scenario`); every other key is a parameter.
 */
export function scenarioFromValue(value: unknown, where: string): SimScenario {
  if (typeof value === 'string') return { name: checkName(value, where), params: {} };
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const { scenario, name, ...params } = value as Record<string, unknown>;
    return { name: checkName(scenario ?? name, `${where}.scenario`), params };
  }
  throw new SimScenarioError(
    `bullswarm-sim: ${where}: expected a scenario name or {"scenario": name, …params}, got ${JSON.stringify(value)}`,
  );
}

const DIRECTIVE = /\[sim:([a-z0-9-]+)((?:,[A-Za-z][A-Za-z0-9]*=[^,\]]*)*)\]/;

function paramValue(text: string): unknown {
  if (/^-?\d+(?:\.\d+)?$/.test(text)) return Number(text);
  if (text === 'true') return true;
  if (text === 'false') return false;
  return text;
}

/** The `[sim:<scenario>(,key=value)*]` directive in a prompt, if any. */
export function scenarioFromPrompt(prompt: string): SimScenario | undefined {
  const match = DIRECTIVE.exec(prompt);
  if (!match) return undefined;
  const params: Record<string, unknown> = {};
  for (const pair of (match[2] ?? '').split(',').slice(1)) {
    const eq = pair.indexOf('=');
    params[pair.slice(0, eq)] = paramValue(pair.slice(eq + 1));
  }
  return { name: checkName(match[1], 'prompt directive'), params };
}

/** The prompt without its `[sim:…]` directive (what `echo` and the default answer use). */
export function stripDirective(prompt: string): string {
  return prompt.replace(DIRECTIVE, '').trim();
}

type ScenarioFile = { default?: unknown; sequence?: unknown; spendPct?: unknown };

/**
 * Claims the next entry of `sequence` for this invocation. Each index is claimed by creating
 * `<simHome>/.sim-sequence-<hash>/<index>` with O_EXCL, so concurrent sims never get the same
 * entry; the hash is of the sequence itself, so writing a different sequence starts over.
 */
function claimSequenceIndex(simHome: string, sequence: readonly unknown[]): number | undefined {
  const hash = createHash('sha256').update(JSON.stringify(sequence)).digest('hex').slice(0, 12);
  const directory = join(simHome, `.sim-sequence-${hash}`);
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  for (let index = 0; index < sequence.length; index += 1) {
    try {
      writeFileSync(join(directory, String(index)), `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      return index;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return undefined;
}

/** The outcome of scenario selection. */
export type SelectedScenario = SimScenario & {
  readonly origin: SimScenarioOrigin;
  readonly fileSpendPct?: number;
};

/**
 * Picks the scenario, first match wins:
 * 1. a `[sim:<scenario>(,key=value)*]` directive in the prompt;
 * 2. `$BULLSWARM_SIM_HOME/scenario.json` `{"default", "sequence": [...]}`: the next unclaimed
 *    sequence entry, else `default`;
 * 3. `BULLSWARM_SIM_SCENARIO` (a name or JSON);
 * 4. `ok`.
 * scenario.json's top-level `spendPct` is returned as `fileSpendPct` (the default spend per
 * successful run when the scenario has no `spendPct` of its own).
 */
export function selectScenario(
  prompt: string,
  env: Readonly<Record<string, string | undefined>>,
): SelectedScenario {
  const fromPrompt = scenarioFromPrompt(prompt);
  const simHome = env.BULLSWARM_SIM_HOME || undefined;
  let file: ScenarioFile | undefined;
  const filePath = simHome === undefined ? undefined : join(simHome, 'scenario.json');
  if (filePath !== undefined) {
    let text: string | undefined;
    try {
      text = readFileSync(filePath, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    if (text !== undefined) {
      try {
        file = JSON.parse(text) as ScenarioFile;
      } catch (error) {
        throw new SimScenarioError(
          `bullswarm-sim: ${filePath}: not valid JSON (${(error as Error).message})`,
        );
      }
      if (typeof file !== 'object' || file === null || Array.isArray(file)) {
        throw new SimScenarioError(`bullswarm-sim: ${filePath}: expected an object {"default", "sequence"}`);
      }
      if (file.sequence !== undefined && !Array.isArray(file.sequence)) {
        throw new SimScenarioError(`bullswarm-sim: ${filePath}: sequence: expected an array of scenarios`);
      }
      if (file.spendPct !== undefined && typeof file.spendPct !== 'number') {
        throw new SimScenarioError(`bullswarm-sim: ${filePath}: spendPct: expected a number`);
      }
    }
  }
  const fileSpendPct = typeof file?.spendPct === 'number' ? { fileSpendPct: file.spendPct } : {};
  if (fromPrompt) return { ...fromPrompt, origin: 'prompt', ...fileSpendPct };
  if (file && simHome !== undefined) {
    const sequence = (file.sequence as unknown[] | undefined) ?? [];
    if (sequence.length > 0) {
      const index = claimSequenceIndex(simHome, sequence);
      if (index !== undefined) {
        return {
          ...scenarioFromValue(sequence[index], `${filePath}: sequence[${index}]`),
          origin: 'scenario.json sequence',
          ...fileSpendPct,
        };
      }
    }
    if (file.default !== undefined) {
      return {
        ...scenarioFromValue(file.default, `${filePath}: default`),
        origin: 'scenario.json default',
        ...fileSpendPct,
      };
    }
  }
  const fromEnv = env.BULLSWARM_SIM_SCENARIO;
  if (fromEnv !== undefined && fromEnv !== '') {
    let value: unknown = fromEnv;
    if (fromEnv.trim().startsWith('{') || fromEnv.trim().startsWith('"')) {
      try {
        value = JSON.parse(fromEnv);
      } catch (error) {
        throw new SimScenarioError(
          `bullswarm-sim: BULLSWARM_SIM_SCENARIO: not valid JSON (${(error as Error).message})`,
        );
      }
    }
    return { ...scenarioFromValue(value, 'BULLSWARM_SIM_SCENARIO'), origin: 'env', ...fileSpendPct };
  }
  return { name: 'ok', params: {}, origin: 'fallback', ...fileSpendPct };
}
