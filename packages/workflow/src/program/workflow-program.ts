import type { Lane } from '@bullswarm/pacing';
import type { OutputSchema } from './output-schema';

/** A step's route as the engine uses it (`independentOf` is resolved to provider families at run time). */
export interface StepRoute {
  readonly providers?: { readonly use?: readonly string[]; readonly avoid?: readonly string[] };
  readonly pools?: { readonly use?: readonly string[]; readonly avoid?: readonly string[] };
  readonly independentOf?: readonly string[];
}

/** A gate, normalised: `command` is a string (run with `sh -c`) or an argv list (no shell). */
export interface StepGate {
  readonly command: string | readonly string[];
  /** Relative to the work tree. */
  readonly cwd?: string;
  readonly timeoutSec?: number;
}

/** Fan-out, normalised. */
export type StepForEach =
  | { readonly kind: 'items'; readonly items: readonly unknown[]; readonly concurrency?: number }
  | { readonly kind: 'glob'; readonly glob: string; readonly concurrency?: number }
  | {
      readonly kind: 'from';
      /** `outputs.<id>.data.<path>` as written. */
      readonly from: string;
      readonly stepId: string;
      readonly path: readonly string[];
      readonly concurrency?: number;
    };

/** One validated step with its defaults filled in. */
export interface WorkflowStep {
  readonly id: string;
  readonly description?: string;
  /** The prompt text (a promptFile's content once loaded; undefined only when validated without its directory). */
  readonly prompt: string | undefined;
  /** The promptFile as written, relative to the program file. */
  readonly promptFile?: string;
  readonly lane: Lane;
  readonly effort: string;
  /** Globs of what the step may write; empty = nothing. */
  readonly files: readonly string[];
  readonly dependsOn: readonly string[];
  readonly blindTo: readonly string[];
  readonly route?: StepRoute;
  readonly outputSchema?: OutputSchema;
  readonly gate?: StepGate;
  readonly timeoutSec?: number;
  /** Automatic retries (crash, stall, sign-in failure, failed gate), shared; default from settings. */
  readonly retryAttempts: number;
  readonly forEach?: StepForEach;
  /** Dependency level, 1-based (the live view's phases). */
  readonly level: number;
}

/** An input as declared. */
export interface WorkflowInput {
  readonly default?: unknown;
  readonly description?: string;
  readonly required: boolean;
}

/** A validated program with defaults filled in, steps in their written order. */
export interface WorkflowProgram {
  readonly schemaVersion: 'bullswarm.workflow.program.v3';
  readonly name?: string;
  readonly description?: string;
  readonly inputs: Readonly<Record<string, WorkflowInput>>;
  readonly settings: {
    readonly concurrency: number;
    readonly retryAttempts: number;
    readonly timeoutSec?: number;
  };
  readonly steps: readonly WorkflowStep[];
  /** Step ids per dependency level (index 0 = level 1). */
  readonly levels: readonly (readonly string[])[];
}
