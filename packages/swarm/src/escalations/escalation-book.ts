import { EscalationClassError } from '../errors/escalation-class-error';
import { SwarmInputError } from '../errors/swarm-input-error';
import { insertNotice } from '../notices/notice-box';
import { openParkIn, resumeParkIn } from '../parks/park-book';
import { appendJournal } from '../plans/journal';
import { loadPlan, type PlanLocation, type PlanRef, planLabel } from '../plans/plan-location';
import { checkAddress } from '../settings/agent-address';
import type { SwarmContext } from '../store/swarm-context';
import { checkTaskId } from '../tasks/task-book';

/** The escalation classes of the agent protocol. */
export type EscalationClass = 'C1' | 'C2' | 'C3' | 'C4' | 'C5' | 'C6' | 'C7';

/** Each class and when it goes to the developer (swarm-autonomy, "Critical-only escalation"). */
export const ESCALATION_CLASSES: Readonly<Record<EscalationClass, string>> = {
  C1: 'authority: outside the plan’s authorization or at a consent checkpoint',
  C2: 'consent screen: a permission, bypass, login, credential, MCP-consent or payment screen',
  C3: 'irreducible ambiguity: two materially different outcomes and nothing settles it',
  C4: 'quality conflict: a gate cannot pass without weakening it',
  C5: 'damage: shared state, data or another agent’s work lost or corrupted',
  C6: 'terms: a legal, licensing, vendor-terms or privacy question',
  C7: 'capacity exhausted: no declared account has room and none resets within the horizon',
};

/** One escalation and its answer. */
export interface Escalation {
  readonly id: number;
  readonly plan: PlanRef;
  /** The blocked task (its dependency chain is parked); undefined for a plan-wide item. */
  readonly task: string | undefined;
  readonly class: EscalationClass;
  readonly text: string;
  readonly raisedBy: string;
  readonly raisedAt: number;
  readonly answer: string | undefined;
  readonly answeredBy: string | undefined;
  /** The agent that relayed the answer: recorded as relayed, never as the developer's own words. */
  readonly relayedBy: string | undefined;
  readonly answeredAt: number | undefined;
}

/**
 * Parses an escalation class: `C1`–`C7` (any case).
 * @throws EscalationClassError when it is missing or not a class: a decision the agent owes.
 */
export function parseEscalationClass(value: string | undefined): EscalationClass {
  if (value === undefined || value.trim() === '') throw new EscalationClassError(undefined);
  const upper = value.trim().toUpperCase();
  if (!(upper in ESCALATION_CLASSES)) throw new EscalationClassError(value);
  return upper as EscalationClass;
}

/**
 * Escalations: critical items only, each naming its class; one open escalation per task and class
 * (its blocked record is the escalation, sent once). A critical item blocks its task's dependency
 * chain, not the swarm (see `planStatus`). Raising and answering are journalled as interventions.
 */
export interface EscalationBook {
  /**
   * Raise an escalation. `task`, when given, must be a task of the plan file (else a
   * `SwarmInputError` listing the plan's tasks, and nothing recorded).
   */
  raise(
    plan: PlanLocation,
    options: {
      readonly class: string | undefined;
      readonly text: string;
      readonly by: string;
      readonly task?: string;
      /** Also notify this address (the lead) with an `escalation` notice. */
      readonly notify?: string;
    },
  ): Promise<Escalation>;
  answer(
    plan: PlanLocation,
    options: {
      readonly id: number;
      readonly answer: string;
      readonly by?: string;
      readonly relayedBy?: string;
    },
  ): Promise<Escalation>;
  list(plan: PlanRef, filter?: { readonly open?: boolean }): Promise<Escalation[]>;
  get(id: number): Promise<Escalation | undefined>;
}

interface EscalationRow {
  id: number;
  plan_repo: string;
  plan_id: string;
  task_id: string | null;
  class: EscalationClass;
  text: string;
  raised_by: string;
  raised_at: number;
  answer: string | null;
  answered_by: string | null;
  relayed_by: string | null;
  answered_at: number | null;
}

function toEscalation(row: EscalationRow): Escalation {
  return {
    id: row.id,
    plan: { repo: row.plan_repo, id: row.plan_id },
    task: row.task_id ?? undefined,
    class: row.class,
    text: row.text,
    raisedBy: row.raised_by,
    raisedAt: row.raised_at,
    answer: row.answer ?? undefined,
    answeredBy: row.answered_by ?? undefined,
    relayedBy: row.relayed_by ?? undefined,
    answeredAt: row.answered_at ?? undefined,
  };
}

/** Creates the escalation book over a swarm context. */
export function createEscalationBook(context: SwarmContext): EscalationBook {
  const { sql } = context;
  const select = (id: number) => sql.get<EscalationRow>('SELECT * FROM swarm_escalations WHERE id = ?', [id]);
  const book: EscalationBook = {
    async raise(plan, options) {
      const klass = parseEscalationClass(options.class);
      const by = checkAddress(options.by, 'by');
      const task = options.task === undefined ? undefined : checkTaskId(options.task);
      if (task !== undefined) {
        const tasks = loadPlan(plan).tasks.map((t) => t.id);
        if (!tasks.includes(task)) {
          throw new SwarmInputError({
            field: 'task',
            expected: `a task of plan ${plan.label} (${tasks.join(', ')})`,
            received: task,
          });
        }
      }
      if (typeof options.text !== 'string' || options.text.trim() === '') {
        throw new SwarmInputError({
          field: 'text',
          expected: 'what is blocked and what it needs from the developer',
        });
      }
      const now = context.clock();
      // The text is stored, sent to the lead and journalled: redacted once, here.
      const text = context.redact.text(options.text);
      const escalation = await context.tx(async () => {
        const open = await sql.get<{ id: number }>(
          `SELECT id FROM swarm_escalations WHERE plan_repo = ? AND plan_id = ? AND task_id IS NOT DISTINCT FROM ? AND class = ? AND answered_at IS NULL`,
          [plan.repo, plan.id, task ?? null, klass],
        );
        if (open) {
          throw new SwarmInputError({
            field: 'class',
            expected: `a new item: escalation #${open.id} (${klass}${task ? ` on task ${task}` : ''}) is already open and is sent once; wait for its answer`,
            received: klass,
          });
        }
        const inserted = await sql.get<EscalationRow>(
          'INSERT INTO swarm_escalations (plan_repo, plan_id, task_id, class, text, raised_by, raised_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *',
          [plan.repo, plan.id, task ?? null, klass, text, by, now],
        );
        const id = inserted!.id;
        if (options.notify !== undefined && options.notify !== by) {
          await insertNotice(
            sql,
            {
              to: options.notify,
              from: by,
              plan,
              kind: 'escalation',
              text: `blocked ${klass}${task ? ` task ${task}` : ''}: ${text} (escalation #${id})`,
            },
            now,
            context.redact,
          );
        }
        return toEscalation(inserted!);
      });
      appendJournal(
        plan.journalFile,
        {
          type: 'intervention',
          event: 'escalation.raised',
          plan: plan.id,
          by,
          escalation: escalation.id,
          class: klass,
          ...(task === undefined ? {} : { task }),
          text,
        },
        now,
        context.redact,
      );
      return escalation;
    },
    async answer(plan, options) {
      if (typeof options.answer !== 'string' || options.answer.trim() === '') {
        throw new SwarmInputError({ field: 'answer', expected: "the developer's answer" });
      }
      if (options.relayedBy !== undefined) checkAddress(options.relayedBy, 'relayedBy');
      const now = context.clock();
      const answered = await context.tx(async () => {
        const row = await select(options.id);
        if (!row || row.plan_repo !== plan.repo || row.plan_id !== plan.id) {
          throw new SwarmInputError({
            field: 'id',
            expected: `an escalation of plan ${planLabel(plan)}`,
            received: String(options.id),
          });
        }
        if (row.answered_at !== null) {
          throw new SwarmInputError({
            field: 'id',
            expected: `an open escalation (#${row.id} was answered already)`,
            received: String(options.id),
          });
        }
        await sql.exec(
          'UPDATE swarm_escalations SET answer = ?, answered_by = ?, relayed_by = ?, answered_at = ? WHERE id = ?',
          [
            context.redact.text(options.answer),
            options.by ?? 'developer',
            options.relayedBy ?? null,
            now,
            row.id,
          ],
        );
        // The answer to a park's C7 escalation lifts the park (the developer's answer resumes it).
        const lifted =
          (await openParkIn(sql, plan))?.escalationId === row.id
            ? await resumeParkIn(sql, plan, options.by ?? 'developer', now)
            : undefined;
        return { escalation: toEscalation((await select(row.id))!), lifted };
      });
      const { escalation, lifted } = answered;
      if (lifted) {
        appendJournal(
          plan.journalFile,
          {
            type: 'observation',
            event: 'swarm.resumed',
            plan: plan.id,
            by: lifted.resumedBy,
            park: lifted.id,
            escalation: escalation.id,
            why: 'the developer answered the capacity escalation',
          },
          now,
          context.redact,
        );
      }
      appendJournal(
        plan.journalFile,
        {
          type: 'intervention',
          event: 'escalation.answered',
          plan: plan.id,
          by: escalation.answeredBy,
          escalation: escalation.id,
          class: escalation.class,
          answer: escalation.answer,
          relayed: escalation.relayedBy !== undefined,
          ...(escalation.relayedBy === undefined ? {} : { relayedBy: escalation.relayedBy }),
        },
        now,
        context.redact,
      );
      return escalation;
    },
    async list(plan, filter = {}) {
      return (
        await sql.query<EscalationRow>(
          `SELECT * FROM swarm_escalations WHERE plan_repo = ? AND plan_id = ? ${filter.open ? 'AND answered_at IS NULL' : ''} ORDER BY id`,
          [plan.repo, plan.id],
        )
      ).map(toEscalation);
    },
    async get(id) {
      const row = await select(id);
      return row ? toEscalation(row) : undefined;
    },
  };
  return book;
}
