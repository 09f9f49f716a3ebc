import type { Lane } from '@bullswarm/pacing';
import { DEFAULT_LANE_TIER } from '@bullswarm/pacing/internal';
import type { z } from 'zod';
import { dependencyLevels } from './dependency-graph';
import type { OutputSchema } from './output-schema';
import { DEFAULT_CONCURRENCY, DEFAULT_RETRY_ATTEMPTS, type programSchema } from './program-schema';
import type { StepForEach, StepGate, WorkflowProgram, WorkflowStep } from './workflow-program';

/** The validated program with every default filled in, its steps in file order with their levels. */
export function resolveProgram(
  data: z.output<typeof programSchema>,
  order: readonly number[],
  deps: readonly (readonly number[])[],
  promptTexts: ReadonlyMap<number, string>,
  retryOverride: number | undefined,
): WorkflowProgram {
  const levels = dependencyLevels(deps, order);
  const retryDefault = retryOverride ?? data.settings?.retryAttempts ?? DEFAULT_RETRY_ATTEMPTS;
  const steps = data.steps.map((step, index): WorkflowStep => {
    const lane = (step.lane ?? 'analyze') as Lane;
    let forEach: StepForEach | undefined;
    const fe = step.forEach;
    if (fe) {
      const cap = fe.concurrency === undefined ? {} : { concurrency: fe.concurrency };
      if (fe.items !== undefined) forEach = { kind: 'items', items: fe.items, ...cap };
      else if (fe.glob !== undefined) forEach = { kind: 'glob', glob: fe.glob, ...cap };
      else if (fe.from !== undefined) {
        const [, stepId, , ...path] = fe.from.split('.');
        forEach = { kind: 'from', from: fe.from, stepId: stepId as string, path, ...cap };
      }
    }
    let gate: StepGate | undefined;
    if (step.gate !== undefined) {
      gate =
        typeof step.gate === 'string' || Array.isArray(step.gate)
          ? { command: step.gate }
          : {
              command: step.gate.command,
              ...(step.gate.cwd === undefined ? {} : { cwd: step.gate.cwd }),
              ...(step.gate.timeoutSec === undefined ? {} : { timeoutSec: step.gate.timeoutSec }),
            };
    }
    return {
      id: step.id,
      ...(step.description === undefined ? {} : { description: step.description }),
      prompt: step.prompt ?? promptTexts.get(index),
      ...(step.promptFile === undefined ? {} : { promptFile: step.promptFile }),
      lane,
      effort: step.effort ?? DEFAULT_LANE_TIER[lane],
      files: step.files ?? [],
      dependsOn: [...new Set(step.dependsOn ?? [])],
      blindTo: [...new Set(step.blindTo ?? [])],
      ...(step.route === undefined ? {} : { route: step.route }),
      ...(step.outputSchema === undefined ? {} : { outputSchema: step.outputSchema as OutputSchema }),
      ...(gate === undefined ? {} : { gate }),
      ...(step.timeoutSec === undefined ? {} : { timeoutSec: step.timeoutSec }),
      retryAttempts: step.retryAttempts ?? retryDefault,
      ...(forEach === undefined ? {} : { forEach }),
      level: levels[index] as number,
    };
  });
  const levelCount = levels.reduce((max, level) => Math.max(max, level), 1);
  const byLevel: string[][] = Array.from({ length: levelCount }, () => []);
  for (const step of steps) (byLevel[step.level - 1] as string[]).push(step.id);
  const inputs: Record<string, { default?: unknown; description?: string; required: boolean }> = {};
  for (const [name, input] of Object.entries(data.inputs ?? {})) {
    inputs[name] = {
      ...(input.default === undefined ? {} : { default: input.default }),
      ...(input.description === undefined ? {} : { description: input.description }),
      required: input.required ?? false,
    };
  }
  return {
    schemaVersion: data.schemaVersion,
    ...(data.name === undefined ? {} : { name: data.name }),
    ...(data.description === undefined ? {} : { description: data.description }),
    inputs,
    settings: {
      concurrency: data.settings?.concurrency ?? DEFAULT_CONCURRENCY,
      retryAttempts: retryDefault,
      ...(data.settings?.timeoutSec === undefined ? {} : { timeoutSec: data.settings.timeoutSec }),
    },
    steps,
    levels: byLevel,
  };
}
