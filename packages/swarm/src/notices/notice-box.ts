import type { Redactor } from '@bullswarm/connectors/redact';
import type { SqlSession, SqlValue } from '@bullswarm/store';
import { SwarmInputError } from '../errors/swarm-input-error';
import type { PlanRef } from '../plans/plan-location';
import { checkAddress } from '../settings/agent-address';
import type { SwarmContext } from '../store/swarm-context';
import { processRedactor } from '../store/swarm-redactor';

/**
 * What a notice is about:
 * - `text`: a one-way notice (milestones, `plan ready`, `PR open <url>`, `done`, capacity lines).
 * - `handoff`: `handoff <packet path>`.
 * - `lead-change`: the lead notice after a claim, handover, takeover or release (sent by bullswarm).
 * - `ask` / `reply`: a lane-to-lane question and its answer (`re` names the ask).
 * - `escalation`: a blocked task's escalation, for the lead.
 */
export type NoticeKind = 'text' | 'handoff' | 'lead-change' | 'ask' | 'reply' | 'escalation';

export const NOTICE_KINDS: readonly NoticeKind[] = [
  'text',
  'handoff',
  'lead-change',
  'ask',
  'reply',
  'escalation',
];

/** Longest notice text accepted (notices are small by construction). */
export const MAX_NOTICE_CHARS = 8000;

/** One stored notice. Its text is data: nothing in it changes a record. */
export interface Notice {
  readonly id: number;
  readonly to: string;
  readonly from: string | undefined;
  readonly plan: PlanRef | undefined;
  /** The plan's lead epoch when it was sent (a lead notice from a lower epoch than now is stale). */
  readonly epoch: number | undefined;
  readonly kind: NoticeKind;
  readonly text: string;
  /** For a reply: the ask it answers. */
  readonly re: number | undefined;
  /** For an ask: when it times out if nobody answered it (a reply from its recipient). */
  readonly timeoutAt: number | undefined;
  readonly createdAt: number;
  readonly readAt: number | undefined;
}

/** Options of {@link NoticeBox.send}. */
export interface SendNoticeOptions {
  /** A concrete address (resolve `lead` with `LeadBook.resolve` first). */
  readonly to: string;
  readonly text: string;
  readonly from?: string;
  readonly plan?: PlanRef;
  readonly epoch?: number;
  readonly kind?: NoticeKind;
  readonly re?: number;
  /** For an ask: how long it waits for its recipient's reply (default `BULLSWARM_ASK_TIMEOUT_SEC`, 1800 s). */
  readonly timeoutMs?: number;
}

/**
 * One-way notices, stored for the recipient and read once. Nothing polls: an agent reads its
 * inbox at its turn boundary.
 */
export interface NoticeBox {
  send(options: SendNoticeOptions): Promise<Notice>;
  /** The unread notices of an address, oldest first, marked read in the same transaction. */
  readInbox(address: string): Promise<Notice[]>;
  /** Every notice of an address (read or not), oldest first, without marking anything. */
  list(filter?: { readonly to?: string; readonly plan?: PlanRef }): Promise<Notice[]>;
  get(id: number): Promise<Notice | undefined>;
}

interface NoticeRow {
  id: number;
  recipient: string;
  sender: string | null;
  plan_repo: string | null;
  plan_id: string | null;
  epoch: number | null;
  kind: NoticeKind;
  text: string;
  re: number | null;
  timeout_at: number | null;
  created_at: number;
  read_at: number | null;
}

function toNotice(row: NoticeRow): Notice {
  return {
    id: row.id,
    to: row.recipient,
    from: row.sender ?? undefined,
    plan: row.plan_repo && row.plan_id ? { repo: row.plan_repo, id: row.plan_id } : undefined,
    epoch: row.epoch ?? undefined,
    kind: row.kind,
    text: row.text,
    re: row.re ?? undefined,
    timeoutAt: row.timeout_at ?? undefined,
    createdAt: row.created_at,
    readAt: row.read_at ?? undefined,
  };
}

/**
 * Inserts a notice (inside the caller's transaction); used by the lead book for lead notices. An
 * ask's timeout is `now + timeoutMs` (the caller resolves the default).
 */
export async function insertNotice(
  sql: SqlSession,
  options: SendNoticeOptions,
  now: number,
  redact: Redactor = processRedactor(),
): Promise<number> {
  const row = await sql.get<{ id: number }>(
    `INSERT INTO swarm_notices (recipient, sender, plan_repo, plan_id, epoch, kind, text, re, timeout_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    [
      options.to,
      options.from ?? null,
      options.plan?.repo ?? null,
      options.plan?.id ?? null,
      options.epoch ?? null,
      options.kind ?? 'text',
      redact.text(options.text),
      options.re ?? null,
      options.kind === 'ask' && options.timeoutMs !== undefined ? now + options.timeoutMs : null,
      now,
    ],
  );
  return Number(row!.id);
}

/**
 * The asks to `to` about `plan`, sent at or after `since`, whose timeout has passed at `now` and
 * that `to` has not answered (no `reply` notice from it naming the ask, then or since): what "an ask
 * to it times out" means, read from the notice records. Oldest first.
 */
export async function timedOutAsksIn(
  sql: SqlSession,
  query: { readonly to: string; readonly plan: PlanRef; readonly since: number; readonly now: number },
): Promise<Notice[]> {
  return (
    await sql.query<NoticeRow>(
      `SELECT * FROM swarm_notices AS ask
         WHERE ask.kind = 'ask' AND ask.recipient = @to AND ask.plan_repo = @repo AND ask.plan_id = @id
           AND ask.created_at >= @since AND ask.timeout_at IS NOT NULL AND ask.timeout_at <= @now
           AND NOT EXISTS (
             SELECT 1 FROM swarm_notices AS reply
             WHERE reply.kind = 'reply' AND reply.re = ask.id AND reply.sender = ask.recipient
           )
         ORDER BY ask.id`,
      {
        to: query.to,
        repo: query.plan.repo,
        id: query.plan.id,
        since: query.since,
        now: query.now,
      },
    )
  ).map(toNotice);
}

/** Creates the notice box over a swarm context. */
export function createNoticeBox(context: SwarmContext): NoticeBox {
  const { sql } = context;
  const box: NoticeBox = {
    async send(options) {
      checkAddress(options.to, 'to');
      if (options.from !== undefined) checkAddress(options.from, 'from');
      if (typeof options.text !== 'string' || options.text.trim() === '') {
        throw new SwarmInputError({ field: 'text', expected: 'a non-empty notice text' });
      }
      if (options.text.length > MAX_NOTICE_CHARS) {
        throw new SwarmInputError({
          field: 'text',
          expected: `at most ${MAX_NOTICE_CHARS} characters (notices are small; put details in a file and name its path)`,
          received: `${options.text.slice(0, 40)}… (${options.text.length} characters)`,
        });
      }
      if (options.kind !== undefined && !NOTICE_KINDS.includes(options.kind)) {
        throw new SwarmInputError({
          field: 'kind',
          expected: NOTICE_KINDS.join(', '),
          received: options.kind,
        });
      }
      if (options.kind === 'reply' && options.re === undefined) {
        throw new SwarmInputError({ field: 're', expected: 'the id of the ask a reply answers' });
      }
      if (options.timeoutMs !== undefined && options.kind !== 'ask') {
        throw new SwarmInputError({
          field: 'timeoutMs',
          expected: 'no timeout: only an ask waits for an answer',
          received: String(options.timeoutMs),
        });
      }
      if (options.timeoutMs !== undefined && !(Number.isFinite(options.timeoutMs) && options.timeoutMs > 0)) {
        throw new SwarmInputError({
          field: 'timeoutMs',
          expected: 'a positive number of milliseconds',
          received: String(options.timeoutMs),
        });
      }
      if (options.re !== undefined && (await box.get(options.re)) === undefined) {
        throw new SwarmInputError({
          field: 're',
          expected: 'the id of an existing notice',
          received: String(options.re),
        });
      }
      const now = context.clock();
      const timeoutMs =
        options.kind === 'ask' ? (options.timeoutMs ?? context.settings.askTimeoutMs) : undefined;
      const id = await context.tx(() =>
        insertNotice(
          sql,
          { ...options, ...(timeoutMs === undefined ? {} : { timeoutMs }) },
          now,
          context.redact,
        ),
      );
      return (await box.get(id))!;
    },
    async readInbox(address) {
      checkAddress(address, 'address');
      const now = context.clock();
      return context.tx(async () => {
        const rows = await sql.query<NoticeRow>(
          'SELECT * FROM swarm_notices WHERE recipient = ? AND read_at IS NULL ORDER BY id',
          [address],
        );
        if (rows.length > 0) {
          await sql.exec(
            'UPDATE swarm_notices SET read_at = ? WHERE recipient = ? AND read_at IS NULL AND id <= ?',
            [now, address, rows[rows.length - 1]!.id],
          );
        }
        return rows.map((row) => ({ ...toNotice(row), readAt: now }));
      });
    },
    async list(filter = {}) {
      const clauses: string[] = [];
      const params: SqlValue[] = [];
      if (filter.to !== undefined) {
        clauses.push('recipient = ?');
        params.push(filter.to);
      }
      if (filter.plan !== undefined) {
        clauses.push('plan_repo = ? AND plan_id = ?');
        params.push(filter.plan.repo, filter.plan.id);
      }
      const where = clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '';
      return (await sql.query<NoticeRow>(`SELECT * FROM swarm_notices ${where} ORDER BY id`, params)).map(
        toNotice,
      );
    },
    async get(id) {
      const row = await sql.get<NoticeRow>('SELECT * FROM swarm_notices WHERE id = ?', [id]);
      return row ? toNotice(row) : undefined;
    },
  };
  return box;
}
