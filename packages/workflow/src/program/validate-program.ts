import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { LANES } from '@bullswarm/pacing';
import type { ProgramProblem, ProgramProblemKind } from '../errors/workflow-error';
import { createUpstreamQuery, topologicalOrder } from './dependency-graph';
import { isPlainObject, ownValue } from './json-path';
import { checkOutputSchema } from './output-schema';
import { addIssue, deepestPath } from './program-issues';
import { programSchema, STEP_ID_PATTERN } from './program-schema';
import { resolveProgram } from './resolve-program';
import { type TemplateRef, templateTokens } from './template';
import type { WorkflowProgram } from './workflow-program';

/** What `validateProgram` checks names against; a list left out is not checked. */
export interface ValidateProgramOptions {
  /** Pool ids of the home (`route.pools.use/avoid`). */
  readonly pools?: readonly string[];
  /**
   * The home's display labels, pool id → label. A program names pools by their durable id; a
   * label in `route.pools` is still an unknown pool, but its message says which id it labels.
   */
  readonly poolLabels?: Readonly<Record<string, string>>;
  /** Provider families of the home's connectors (`route.providers.use/avoid`). */
  readonly providers?: readonly string[];
  /** Effort tiers known to the home (`effort`). */
  readonly tiers?: readonly string[];
  /** Lanes (default: pacing's `analyze`, `build`, `chore`). */
  readonly lanes?: readonly string[];
  /**
   * The program file's directory: `promptFile`s are read from it (a missing one is a problem) and
   * their templates checked. Without it, promptFiles are not read.
   */
  readonly programDir?: string;
  /** Reads a prompt file (default `fs.readFileSync(path, 'utf8')`). */
  readonly readFile?: (path: string) => string;
  /**
   * The automatic retries of every step that does not set its own `retryAttempts` (`workflow goal
   * --retry-attempts`): wins over `settings.retryAttempts`. 0 to `MAX_RETRY_ATTEMPTS`.
   */
  readonly retryAttempts?: number;
}

/** The result of {@link validateProgram}. */
export type ValidateProgramResult =
  | { readonly ok: true; readonly program: WorkflowProgram; readonly problems: readonly [] }
  | { readonly ok: false; readonly program?: undefined; readonly problems: readonly ProgramProblem[] };

/** JSON deeper than this is refused before anything else looks at it. */
export const MAX_PROGRAM_DEPTH = 200;

interface StepFacts {
  readonly index: number;
  readonly raw: Record<string, unknown>;
  readonly id: string | undefined;
  readonly fanOut: boolean;
  readonly hasSchema: boolean;
  deps: number[];
  blind: Set<number>;
}

/**
 * Validates a program (any JSON value) and reports EVERY problem at once, each with the JSON path
 * of its field (`$.steps[2].dependsOn[0]`): the structure (zod), duplicate ids, unknown
 * `dependsOn`/`blindTo`/`independentOf` targets, cycles, unknown lanes, tiers, pools and providers
 * (the lists in `options`), templates (an unknown form or input, `{{item}}` outside a fan-out, an
 * `outputs.<id>` that is not upstream, that the step is blind to, or that has no `outputSchema`),
 * `forEach.from` paths under the same rules, output schemas outside the supported subset, missing
 * promptFiles, and string gates that would put step outputs into a shell.
 *
 * Pure (apart from reading promptFiles when `programDir` is given), never throws on any JSON input,
 * and linear in the program's size except for upstream checks of non-direct references (bitsets).
 *
 * @example
 * ```ts
 * const result = validateProgram(JSON.parse(text), { programDir: dirname(file), pools: ['sim:a'] });
 * if (!result.ok) for (const p of result.problems) console.error(`${p.path}: ${p.message}`);
 * ```
 */
export function validateProgram(json: unknown, options: ValidateProgramOptions = {}): ValidateProgramResult {
  const problems: ProgramProblem[] = [];
  const add = (path: string, kind: ProgramProblemKind, message: string) => {
    problems.push({ path, kind, message });
  };
  const tooDeep = deepestPath(json, MAX_PROGRAM_DEPTH);
  if (tooDeep !== undefined) {
    add(tooDeep, 'invalid-field', `the program nests deeper than ${MAX_PROGRAM_DEPTH} levels`);
    return { ok: false, problems };
  }
  const parsed = programSchema.safeParse(json);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) addIssue(issue, json, add);
  }
  if (!isPlainObject(json)) {
    if (parsed.success || problems.length === 0) add('$', 'invalid-field', 'expected a program object');
    return { ok: false, problems };
  }

  const lanes = new Set(options.lanes ?? LANES);
  const tiers = options.tiers ? new Set(options.tiers) : undefined;
  const pools = options.pools ? new Set(options.pools) : undefined;
  const labelledIds = new Map(Object.entries(options.poolLabels ?? {}).map(([id, label]) => [label, id]));
  const providers = options.providers ? new Set(options.providers) : undefined;
  const rawInputs = ownValue(json, 'inputs');
  const inputNames = new Set(isPlainObject(rawInputs) ? Object.keys(rawInputs) : []);
  const rawSteps = ownValue(json, 'steps');
  const stepList = Array.isArray(rawSteps) ? rawSteps : [];

  // Pass 1: ids.
  const ids = new Map<string, number>();
  const facts: StepFacts[] = [];
  stepList.forEach((raw, index) => {
    const step = isPlainObject(raw) ? raw : {};
    const id = ownValue(step, 'id');
    const validId = typeof id === 'string' && STEP_ID_PATTERN.test(id) ? id : undefined;
    if (validId !== undefined) {
      const first = ids.get(validId);
      if (first !== undefined) {
        add(
          `$.steps[${index}].id`,
          'duplicate-id',
          `duplicate step id "${validId}" (first used at $.steps[${first}].id); step ids must be unique`,
        );
      } else {
        ids.set(validId, index);
      }
    }
    facts.push({
      index,
      raw: step,
      id: validId,
      fanOut: isPlainObject(ownValue(step, 'forEach')),
      hasSchema: isPlainObject(ownValue(step, 'outputSchema')),
      deps: [],
      blind: new Set(),
    });
  });
  const lookup = (id: unknown): number | undefined => (typeof id === 'string' ? ids.get(id) : undefined);

  // Pass 2: references between steps.
  for (const fact of facts) {
    const base = `$.steps[${fact.index}]`;
    const dependsOn = ownValue(fact.raw, 'dependsOn');
    if (Array.isArray(dependsOn)) {
      dependsOn.forEach((target, k) => {
        if (typeof target !== 'string') return;
        const at = lookup(target);
        if (at === undefined) {
          add(
            `${base}.dependsOn[${k}]`,
            'unknown-step',
            `dependsOn names "${target}", which is not a step id`,
          );
        } else if (at === fact.index) {
          add(`${base}.dependsOn[${k}]`, 'cycle', `step "${target}" depends on itself`);
        } else if (!fact.deps.includes(at)) {
          fact.deps.push(at);
        }
      });
    }
    const blindTo = ownValue(fact.raw, 'blindTo');
    if (Array.isArray(blindTo)) {
      blindTo.forEach((target, k) => {
        if (typeof target !== 'string') return;
        const at = lookup(target);
        if (at === undefined) {
          add(`${base}.blindTo[${k}]`, 'unknown-step', `blindTo names "${target}", which is not a step id`);
        } else if (at === fact.index) {
          add(`${base}.blindTo[${k}]`, 'invalid-field', 'a step cannot be blind to itself');
        } else {
          fact.blind.add(at);
        }
      });
    }
  }

  const deps = facts.map((fact) => fact.deps);
  const topo = topologicalOrder(deps);
  for (const cycle of topo.cycles) {
    if (cycle.length === 1) continue; // a self-dependency was reported where it was written
    const first = cycle[0] as number;
    const names = [...cycle, first].map((i) => facts[i]?.id ?? `#${i}`);
    add(`$.steps[${first}].dependsOn`, 'cycle', `dependency cycle: ${names.join(' → ')}`);
  }
  const isUpstream = createUpstreamQuery(deps, topo.order);

  // Pass 3: everything else per step.
  const promptTexts = new Map<number, string>();
  for (const fact of facts) {
    const base = `$.steps[${fact.index}]`;
    const step = fact.raw;

    const prompt = ownValue(step, 'prompt');
    const promptFile = ownValue(step, 'promptFile');
    if (prompt === undefined && promptFile === undefined) {
      add(base, 'invalid-field', 'a step needs a prompt or a promptFile');
    } else if (prompt !== undefined && promptFile !== undefined) {
      add(`${base}.promptFile`, 'invalid-field', 'give prompt or promptFile, not both');
    }
    if (typeof promptFile === 'string' && promptFile !== '' && options.programDir !== undefined) {
      const file = resolve(options.programDir, promptFile);
      try {
        const text = (options.readFile ?? ((path: string) => readFileSync(path, 'utf8')))(file);
        promptTexts.set(fact.index, text);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException | undefined)?.code;
        add(
          `${base}.promptFile`,
          'missing-prompt-file',
          code === 'ENOENT'
            ? `prompt file ${file} does not exist (promptFile is relative to the program file)`
            : `prompt file ${file} cannot be read (${code ?? String(error)})`,
        );
      }
    }

    const lane = ownValue(step, 'lane');
    if (typeof lane === 'string' && !lanes.has(lane)) {
      add(`${base}.lane`, 'unknown-lane', `unknown lane "${lane}"; expected one of ${[...lanes].join(', ')}`);
    }
    const effort = ownValue(step, 'effort');
    if (typeof effort === 'string' && tiers && !tiers.has(effort)) {
      add(
        `${base}.effort`,
        'unknown-tier',
        `unknown effort tier "${effort}"; this home knows ${[...tiers].join(', ')}`,
      );
    }

    const route = ownValue(step, 'route');
    if (isPlainObject(route)) {
      checkUseAvoid(route, 'pools', pools, `${base}.route`, 'unknown-pool', 'pool', add, labelledIds);
      checkUseAvoid(route, 'providers', providers, `${base}.route`, 'unknown-provider', 'provider', add);
      const independentOf = ownValue(route, 'independentOf');
      if (Array.isArray(independentOf)) {
        independentOf.forEach((target, k) => {
          if (typeof target !== 'string') return;
          const at = lookup(target);
          const path = `${base}.route.independentOf[${k}]`;
          if (at === undefined)
            add(path, 'unknown-step', `independentOf names "${target}", which is not a step id`);
          else if (at === fact.index || !isUpstream(fact.index, at)) {
            add(
              path,
              'not-upstream',
              `independentOf names "${target}", which is not upstream of this step; add it to dependsOn (directly or through another step)`,
            );
          }
        });
      }
    }

    const outputSchema = ownValue(step, 'outputSchema');
    if (outputSchema !== undefined) {
      for (const problem of checkOutputSchema(outputSchema, `${base}.outputSchema`)) {
        add(problem.path, 'bad-output-schema', problem.message);
      }
    }

    // Template and output references.
    const checkRef = (ref: TemplateRef, raw: string, path: string, shell: boolean) => {
      switch (ref.kind) {
        case 'runId':
          return;
        case 'input':
          if (!inputNames.has(ref.name)) {
            add(
              path,
              'unknown-input',
              `${raw} names input "${ref.name}", which the program does not declare in inputs` +
                (inputNames.size > 0 ? ` (declared: ${[...inputNames].join(', ')})` : ''),
            );
          }
          return;
        case 'item':
          if (!fact.fanOut)
            add(path, 'item-outside-fan-out', `${raw} is only available in a step with forEach`);
          else if (shell) add(path, 'unsafe-shell-template', shellMessage(raw));
          return;
        case 'output':
          if (shell) {
            add(path, 'unsafe-shell-template', shellMessage(raw));
            return;
          }
          checkOutputRef(ref.stepId, ref.field, raw, path);
      }
    };
    const checkOutputRef = (stepId: string, field: 'data' | 'items', raw: string, path: string) => {
      const at = ids.get(stepId);
      if (at === undefined) {
        add(path, 'unknown-step', `${raw} names step "${stepId}", which is not a step id`);
        return;
      }
      const target = facts[at] as StepFacts;
      if (at === fact.index || !isUpstream(fact.index, at)) {
        add(
          path,
          'output-not-upstream',
          `${raw} reads step "${stepId}", which is not among this step's dependencies (add it to dependsOn)`,
        );
      } else if (fact.blind.has(at)) {
        add(path, 'output-blind', `${raw} reads step "${stepId}", which this step is blindTo`);
      }
      if (!target.hasSchema) {
        add(
          path,
          'output-without-schema',
          `${raw} reads structured output of step "${stepId}", which declares no outputSchema`,
        );
      } else if (field === 'data' && target.fanOut) {
        add(
          path,
          'bad-template',
          `step "${stepId}" is a fan-out; read its outputs as {{outputs.${stepId}.items}}`,
        );
      } else if (field === 'items' && !target.fanOut) {
        add(
          path,
          'bad-template',
          `step "${stepId}" is not a fan-out; read its output as {{outputs.${stepId}.data}}`,
        );
      }
    };
    const checkText = (text: unknown, path: string, shell = false) => {
      if (typeof text !== 'string') return;
      for (const token of templateTokens(text)) {
        if (token.ref === undefined) add(path, 'bad-template', token.error ?? `bad template ${token.raw}`);
        else checkRef(token.ref, token.raw, path, shell);
      }
    };

    checkText(prompt, `${base}.prompt`);
    const fileText = promptTexts.get(fact.index);
    if (fileText !== undefined) checkText(fileText, `${base}.promptFile`);
    const files = ownValue(step, 'files');
    if (Array.isArray(files)) {
      files.forEach((glob, k) => {
        checkText(glob, `${base}.files[${k}]`);
        if (typeof glob === 'string') checkRelativeGlob(glob, `${base}.files[${k}]`, add);
      });
    }
    const gate = ownValue(step, 'gate');
    const gateCommand = isPlainObject(gate) ? ownValue(gate, 'command') : gate;
    const gatePath = isPlainObject(gate) ? `${base}.gate.command` : `${base}.gate`;
    if (typeof gateCommand === 'string') checkText(gateCommand, gatePath, true);
    else if (Array.isArray(gateCommand)) {
      gateCommand.forEach((arg, k) => {
        checkText(arg, `${gatePath}[${k}]`);
      });
    }
    if (isPlainObject(gate)) checkText(ownValue(gate, 'cwd'), `${base}.gate.cwd`);

    const forEach = ownValue(step, 'forEach');
    if (isPlainObject(forEach)) {
      const given = ['items', 'glob', 'from'].filter((key) => ownValue(forEach, key) !== undefined);
      if (given.length !== 1) {
        add(
          `${base}.forEach`,
          'invalid-field',
          given.length === 0
            ? 'forEach needs one of items, glob or from'
            : `forEach takes one of items, glob or from, not ${given.join(' and ')}`,
        );
      }
      const glob = ownValue(forEach, 'glob');
      if (typeof glob === 'string') {
        for (const token of templateTokens(glob)) {
          if (token.ref === undefined) add(`${base}.forEach.glob`, 'bad-template', token.error ?? token.raw);
          else if (token.ref.kind !== 'input' && token.ref.kind !== 'runId') {
            add(
              `${base}.forEach.glob`,
              'bad-template',
              `${token.raw}: a glob may use only {{inputs.<name>}}`,
            );
          } else checkRef(token.ref, token.raw, `${base}.forEach.glob`, false);
        }
        checkRelativeGlob(glob, `${base}.forEach.glob`, add);
      }
      const from = ownValue(forEach, 'from');
      if (typeof from === 'string') {
        const match = /^outputs\.([A-Za-z0-9][A-Za-z0-9_-]*)\.data((?:\.[A-Za-z0-9_-]+)*)$/.exec(from);
        if (match)
          checkOutputRef(match[1] as string, 'data', `forEach.from "${from}"`, `${base}.forEach.from`);
      }
    }
  }

  if (problems.length > 0 || !parsed.success || topo.order === undefined) {
    if (problems.length === 0) add('$', 'invalid-field', 'the program is not valid');
    return { ok: false, problems };
  }
  return {
    ok: true,
    program: resolveProgram(parsed.data, topo.order, deps, promptTexts, options.retryAttempts),
    problems: [],
  };
}

function shellMessage(raw: string): string {
  return (
    `${raw} would put a step output or fan-out item into a shell command line; ` +
    'use the argv form of gate (["cmd", "arg", …], no shell) for such values'
  );
}

function checkRelativeGlob(
  glob: string,
  path: string,
  add: (path: string, kind: ProgramProblemKind, message: string) => void,
): void {
  if (isAbsolute(glob) || glob.split(/[\\/]/).includes('..')) {
    add(
      path,
      'bad-glob',
      `"${glob}" must be relative to the work tree and stay inside it (no leading "/", no "..")`,
    );
  }
}

function checkUseAvoid(
  route: Record<string, unknown>,
  key: 'pools' | 'providers',
  known: ReadonlySet<string> | undefined,
  base: string,
  kind: ProgramProblemKind,
  noun: string,
  add: (path: string, kind: ProgramProblemKind, message: string) => void,
  labelledIds: ReadonlyMap<string, string> = new Map(),
): void {
  const value = ownValue(route, key);
  if (!known || !isPlainObject(value)) return;
  for (const side of ['use', 'avoid'] as const) {
    const list = ownValue(value, side);
    if (!Array.isArray(list)) continue;
    list.forEach((name, k) => {
      if (typeof name === 'string' && !known.has(name)) {
        const labelled = labelledIds.get(name);
        add(
          `${base}.${key}.${side}[${k}]`,
          kind,
          labelled === undefined
            ? `unknown ${noun} "${name}"; this home has ${[...known].join(', ') || 'none'}`
            : `"${name}" is the label of pool ${labelled}; a program names pools by id (write "${labelled}")`,
        );
      }
    });
  }
}
