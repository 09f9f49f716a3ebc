import fg from 'fast-glob';
import { renderTemplate, type TemplateScope, walk } from '../program/template';
import type { StepGate, WorkflowStep } from '../program/workflow-program';
import type { ItemState, RunState, StepState } from '../state/run-state';
import { unitFingerprint } from './fingerprint';
import { itemLabel } from './item-label';

/** A unit with its templates rendered: what it is asked, what it may change, its gate, its fingerprint. */
export interface PreparedUnit {
  readonly ok: boolean;
  readonly error?: string;
  readonly prompt: string;
  readonly files: readonly string[];
  readonly gate?: StepGate;
  readonly fingerprint: string;
}

/** A fan-out's items for this drive: reused, skipped as duplicates, or to run (with their prepared unit). */
export interface PlannedItems {
  readonly items: ItemState[];
  readonly nextSlot: number;
  readonly prepared: Map<number, PreparedUnit>;
  /** Items whose verified result (same fingerprint, ok) is kept from an earlier drive. */
  readonly reused: number;
}

/**
 * Renders what a unit is given: templates against the run's inputs and the outputs of the steps it
 * may see, a fan-out's items (list, glob or an upstream output), and the fingerprint that lets a
 * resume keep a verified item.
 */
export class UnitPreparer {
  constructor(
    private readonly state: RunState,
    private readonly stepStates: ReadonlyMap<string, StepState>,
    /** Globs a `forEach.glob` never expands into (node_modules, .git, the bullswarm home). */
    private readonly globIgnore: readonly string[],
  ) {}

  /** An upstream step's output as `def` may see it: nothing of a step it is blind to, nothing unfinished. */
  outputOf(def: WorkflowStep, id: string): { data?: unknown; items?: readonly unknown[] } | undefined {
    if (def.blindTo.includes(id)) return undefined;
    const st = this.stepStates.get(id);
    if (st?.status !== 'ok') return undefined;
    if (!st.fanOut) return st.unit?.data === undefined ? {} : { data: st.unit.data };
    const items = st.items ?? [];
    return {
      items: items.map((item) => {
        const source = item.sameAs === undefined ? item : items.find((other) => other.slot === item.sameAs);
        return source?.data ?? null;
      }),
    };
  }

  prepare(def: WorkflowStep, hasItem: boolean, item: unknown): PreparedUnit {
    const scope = this.scope(def, hasItem, item);
    const errors: string[] = [];
    const render = (text: string, field: string): string => {
      const result = renderTemplate(text, scope);
      if (result.ok) return result.text;
      errors.push(`${field}: ${result.error}`);
      return text;
    };
    const prompt = render(def.prompt ?? '', 'prompt');
    const files = def.files.map((glob, index) => render(glob, `files[${index}]`));
    let gate: StepGate | undefined;
    if (def.gate) {
      gate = {
        command:
          typeof def.gate.command === 'string'
            ? render(def.gate.command, 'gate')
            : def.gate.command.map((arg, index) => render(arg, `gate[${index}]`)),
        ...(def.gate.cwd === undefined ? {} : { cwd: render(def.gate.cwd, 'gate.cwd') }),
        ...(def.gate.timeoutSec === undefined ? {} : { timeoutSec: def.gate.timeoutSec }),
      };
    }
    const dependencyOutputs: Record<string, unknown> = {};
    for (const dep of def.dependsOn) dependencyOutputs[dep] = this.outputOf(def, dep) ?? null;
    const fingerprint = unitFingerprint({
      prompt,
      ...(hasItem ? { item } : {}),
      dependencyOutputs,
      settings: {
        lane: def.lane,
        effort: def.effort,
        files,
        blindTo: def.blindTo,
        route: def.route,
        outputSchema: def.outputSchema,
        gate,
        timeoutSec: def.timeoutSec,
      },
    });
    return {
      ok: errors.length === 0,
      ...(errors.length > 0 ? { error: errors.join('; ') } : {}),
      prompt,
      files,
      ...(gate === undefined ? {} : { gate }),
      fingerprint,
    };
  }

  /** A fan-out's item values (its list, the files its glob matches, or the list an upstream step output). */
  async expandItems(
    def: WorkflowStep,
  ): Promise<{ ok: true; items: readonly unknown[] } | { ok: false; why: string }> {
    const forEach = def.forEach;
    if (!forEach) return { ok: true, items: [] };
    if (forEach.kind === 'items') return { ok: true, items: forEach.items };
    if (forEach.kind === 'glob') {
      const rendered = renderTemplate(forEach.glob, this.scope(def, false, undefined));
      if (!rendered.ok) return { ok: false, why: `forEach.glob: ${rendered.error}` };
      const files = await fg(rendered.text, {
        cwd: this.state.cwd,
        onlyFiles: true,
        dot: false,
        ignore: [...this.globIgnore],
      });
      return { ok: true, items: files.sort() };
    }
    const output = this.outputOf(def, forEach.stepId);
    if (output?.data === undefined)
      return { ok: false, why: `forEach.from ${forEach.from}: step ${forEach.stepId} recorded no data` };
    const found = walk(output.data, forEach.path);
    if (!found.found) return { ok: false, why: `forEach.from ${forEach.from}: ${found.why}` };
    if (!Array.isArray(found.value)) {
      return { ok: false, why: `forEach.from ${forEach.from}: expected a list, got ${typeof found.value}` };
    }
    return { ok: true, items: found.value };
  }

  /**
   * The items of a fan-out for this drive, against those of earlier drives: an item whose
   * fingerprint was verified ok is kept, an unfinished one keeps its slot and attempts, a duplicate
   * value is skipped as the same as the first.
   */
  planItems(def: WorkflowStep, st: StepState, values: readonly unknown[]): PlannedItems {
    const previous = st.items ?? [];
    const verified = new Map<string, ItemState>();
    const unfinished = new Map<string, ItemState>();
    for (const item of previous) {
      if (!item.fingerprint || item.status === 'skipped') continue;
      if (item.status === 'ok') verified.set(item.fingerprint, item);
      else if (!unfinished.has(item.fingerprint)) unfinished.set(item.fingerprint, item);
    }
    let nextSlot = st.nextSlot ?? previous.reduce((max, item) => Math.max(max, item.slot + 1), 0);
    const seen = new Map<string, number>();
    const items: ItemState[] = [];
    const prepared = new Map<number, PreparedUnit>();
    let reused = 0;
    for (const value of values) {
      const unit = this.prepare(def, true, value);
      const fingerprint = unit.fingerprint;
      const original = seen.get(fingerprint);
      const base = { item: value, label: itemLabel(value), fingerprint };
      if (original !== undefined) {
        const slot = nextSlot++;
        items.push({
          ...base,
          slot,
          action: `${def.id}.${slot}`,
          status: 'skipped',
          sameAs: original,
          why: `same as item ${original}`,
          attempts: [],
        });
        continue;
      }
      const done = verified.get(fingerprint);
      if (done) {
        items.push(done);
        seen.set(fingerprint, done.slot);
        reused++;
        continue;
      }
      const before = unfinished.get(fingerprint);
      const slot = before?.slot ?? nextSlot++;
      items.push({
        ...base,
        slot,
        action: `${def.id}.${slot}`,
        status: 'pending',
        attempts: before?.attempts ?? [],
      });
      seen.set(fingerprint, slot);
      prepared.set(slot, unit);
    }
    return { items, nextSlot, prepared, reused };
  }

  private scope(def: WorkflowStep, hasItem: boolean, item: unknown): TemplateScope {
    return {
      runId: this.state.runId,
      inputs: this.state.inputs,
      hasItem,
      ...(hasItem ? { item } : {}),
      output: (id) => this.outputOf(def, id),
    };
  }
}
