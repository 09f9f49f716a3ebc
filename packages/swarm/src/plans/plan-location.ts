import { existsSync } from 'node:fs';
import { basename, isAbsolute, join } from 'node:path';
import { PlanFileError } from '../errors/plan-file-error';
import { SwarmInputError } from '../errors/swarm-input-error';
import { findRepositoryRoot, repositoryRoot } from '../git/repository-root';
import { BULLSWARM_PLAN, type SwarmEnv } from '../settings/swarm-env';
import { PLAN_ID_PATTERN, type Plan, planSchema } from './plan-schema';
import { readJsonFile } from './read-json-file';

/** A plan's key: the repository (main worktree path) and the plan id. */
export interface PlanRef {
  /** Absolute path of the repository's main worktree (see `repositoryRoot`). */
  readonly repo: string;
  readonly id: string;
}

/** Where a plan and its records live. */
export interface PlanLocation extends PlanRef {
  /** `<repo>/plans/<id>` */
  readonly dir: string;
  /** `<repo>/plans/<id>/plan.json` */
  readonly planFile: string;
  /** `<repo>/plans/<id>/journal.jsonl` */
  readonly journalFile: string;
  /** `<repo>/plans/<id>/analysis_results` */
  readonly analysisDir: string;
  /** `<repo>/plans/<id>/analysis_results/handoff` */
  readonly handoffDir: string;
  /** `<repo-name>/<id>`: how people and errors name the plan. */
  readonly label: string;
}

/** The paths of a plan in a repository. */
export function planLocation(ref: PlanRef): PlanLocation {
  const dir = join(ref.repo, 'plans', ref.id);
  return {
    repo: ref.repo,
    id: ref.id,
    dir,
    planFile: join(dir, 'plan.json'),
    journalFile: join(dir, 'journal.jsonl'),
    analysisDir: join(dir, 'analysis_results'),
    handoffDir: join(dir, 'analysis_results', 'handoff'),
    label: planLabel(ref),
  };
}

/** `<repo-name>/<id>` */
export function planLabel(ref: PlanRef): string {
  return `${basename(ref.repo)}/${ref.id}`;
}

/**
 * Paths, relative to a checkout, that hold a plan's records rather than work: left out of the
 * uncommitted paths a packet records and compares.
 */
export function planRecordPrefixes(id: string): string[] {
  return [`plans/${id}/journal.jsonl`, `plans/${id}/analysis_results/`];
}

/** Options of {@link resolvePlanRef}. */
export interface ResolvePlanOptions {
  /** The directory the command runs in (its repository is tried first). */
  readonly cwd: string;
  readonly env?: SwarmEnv;
  /** Repositories whose lead records name a plan with this id (from the store). */
  readonly knownRepos?: (id: string) => readonly string[] | Promise<readonly string[]>;
}

const PLAN_REF_EXPECTED =
  '<id>, <repo>/<id> (the repository directory name) or /abs/path/to/repo/<id>, naming a plans/<id>/plan.json';

/**
 * Resolves a plan reference (else `$BULLSWARM_PLAN`) to a plan:
 * - `<id>`: the plan of that id in the repository of `cwd` when it has `plans/<id>/plan.json`;
 *   else the one repository whose lead record names that id (several → refused, listing the
 *   `<repo>/<id>` forms that tell them apart).
 * - `<repo>/<id>`: `<repo>` is the repository's directory name (matched against lead records and
 *   the repository of `cwd`), or an absolute path to it.
 *
 * @throws SwarmInputError when it is missing, malformed or ambiguous; PlanFileError when no such
 *   plan exists.
 */
export async function resolvePlanRef(
  ref: string | undefined,
  options: ResolvePlanOptions,
): Promise<PlanLocation> {
  const value = ref ?? options.env?.[BULLSWARM_PLAN];
  if (value === undefined || value.trim() === '') {
    throw new SwarmInputError({
      field: 'plan',
      expected: `${PLAN_REF_EXPECTED} (or set ${BULLSWARM_PLAN})`,
    });
  }
  const text = value.trim();
  const slash = text.lastIndexOf('/');
  const id = slash === -1 ? text : text.slice(slash + 1);
  if (!PLAN_ID_PATTERN.test(id)) {
    throw new SwarmInputError({ field: 'plan', expected: PLAN_REF_EXPECTED, received: text });
  }
  const here = findRepositoryRoot(options.cwd);
  const known = (await options.knownRepos?.(id)) ?? [];
  let repo: string | undefined;
  if (slash === -1) {
    if (here !== undefined && existsSync(join(here, 'plans', id, 'plan.json'))) repo = here;
    else if (known.length === 1) repo = known[0];
    else if (known.length > 1) {
      throw new SwarmInputError({
        field: 'plan',
        expected: `one of ${known.map((r) => `${basename(r)}/${id}`).join(', ')} (plans named "${id}" exist in several repositories)`,
        received: text,
      });
    }
  } else {
    const repoPart = text.slice(0, slash);
    if (isAbsolute(repoPart)) {
      repo = repositoryRoot(repoPart);
    } else {
      const candidates = new Set(known.filter((r) => basename(r) === repoPart));
      if (here !== undefined && basename(here) === repoPart) candidates.add(here);
      if (candidates.size > 1) {
        throw new SwarmInputError({
          field: 'plan',
          expected: `an absolute repository path: ${[...candidates].map((r) => `${r}/${id}`).join(', ')} share the name ${repoPart}`,
          received: text,
        });
      }
      repo = [...candidates][0];
    }
  }
  if (repo === undefined) {
    throw new PlanFileError({
      filePath: here === undefined ? `plans/${id}/plan.json` : join(here, 'plans', id, 'plan.json'),
      problem: `no plan "${text}" here or in any lead record: create plans/${id}/plan.json in the repository, or name it as ${PLAN_REF_EXPECTED}`,
    });
  }
  return planLocation({ repo, id });
}

/**
 * Reads and validates `plan.json` of a plan.
 * @throws PlanFileError naming the file and field.
 */
export function loadPlan(location: Pick<PlanLocation, 'planFile' | 'id'>): Plan {
  return parsePlanFile(location.planFile, location.id);
}

/** Reads and validates a `plan.json` file; `expectedId` must match its `id` when given. */
export function parsePlanFile(file: string, expectedId?: string): Plan {
  const plan = readJsonFile(file, planSchema, 'plan file');
  if (expectedId !== undefined && plan.id !== expectedId) {
    throw new PlanFileError({
      filePath: file,
      fieldPath: 'id',
      problem: `is "${plan.id}" but the plan directory is plans/${expectedId}: they must match`,
    });
  }
  return plan;
}
