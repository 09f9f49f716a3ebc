import { closeSync, existsSync, fsyncSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { appendLine, openAppendOnly } from '@bullswarm/connectors/internal';
import type { Redactor } from '@bullswarm/connectors/redact';
import { PlanFileError } from '../errors/plan-file-error';
import { processRedactor } from '../store/swarm-redactor';

/**
 * The three kinds of journal entries (swarm-autonomy, "The record"):
 * - `delegation`: lane launches and results.
 * - `observation`: capacity verdicts, handoffs, successions.
 * - `intervention`: escalations and the developer's answers.
 */
export type JournalEntryType = 'delegation' | 'observation' | 'intervention';

/** One line of `plans/<id>/journal.jsonl`. */
export interface JournalEntry {
  /** ISO-8601 instant. */
  readonly at: string;
  readonly type: JournalEntryType;
  /**
   * What happened, noun.verb: `lane.launched`, `lane.result`, `capacity.checked`,
   * `handoff.written`, `handoff.accepted`, `lead.claimed`, `lead.handover`, `lead.takeover`,
   * `lead.released`, `lead.stepped-down`, `escalation.raised`, `escalation.answered`.
   */
  readonly event: string;
  /** The plan id. */
  readonly plan: string;
  /** The agent that did it, when known. */
  readonly by?: string;
  /** The lead epoch it happened at, when it matters. */
  readonly epoch?: number;
  /** Everything else about the event. */
  readonly [key: string]: unknown;
}

/**
 * Appends one entry to a plan's journal: one `write` of one line on a file opened for appending,
 * then fsync, so concurrent writers (the lead and its lanes) never interleave inside a line and a
 * crash leaves whole lines only. A line torn by a writer killed mid-write is sealed first (see
 * `appendLine` in `@bullswarm/connectors/internal`) and skipped by {@link readJournal}.
 *
 * The journal lives in the repository (it may be committed), so every string of the entry passes
 * through `redact` first (default: the token shapes and this process's credential values; callers
 * with a swarm context pass its `redact`, which knows every pool's account environment).
 */
export function appendJournal(
  journalFile: string,
  entry: Omit<JournalEntry, 'at'> & { readonly at?: string },
  now: number,
  redact: Redactor = processRedactor(),
): JournalEntry {
  const full = redact.value({ at: entry.at ?? new Date(now).toISOString(), ...entry } as JournalEntry);
  mkdirSync(dirname(journalFile), { recursive: true });
  const fd = openAppendOnly(journalFile, 0o644);
  try {
    appendLine(fd, `${JSON.stringify(full)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return full;
}

/**
 * Whether `line` failed to parse only because it stops early — a line torn by a writer killed
 * mid-write (the parser ran out of input: the error is at the line's end).
 */
function isTornLine(line: string, error: unknown): boolean {
  const message = (error as Error).message;
  if (/end of JSON input/.test(message)) return true;
  const at = /at position (\d+)/.exec(message);
  return line.startsWith('{') && at !== null && Number(at[1]) === line.length;
}

/**
 * Reads a plan's journal (empty when it does not exist yet). A line torn by a writer killed
 * mid-write (sealed by the next append, see {@link appendJournal}) is skipped.
 * @throws PlanFileError naming the line of an entry that is not JSON.
 */
export function readJournal(journalFile: string): JournalEntry[] {
  if (!existsSync(journalFile)) return [];
  const entries: JournalEntry[] = [];
  readFileSync(journalFile, 'utf8')
    .split('\n')
    .forEach((line, index) => {
      if (line.trim() === '') return;
      try {
        entries.push(JSON.parse(line) as JournalEntry);
      } catch (error) {
        if (isTornLine(line, error)) return;
        throw new PlanFileError({
          filePath: journalFile,
          fieldPath: `line ${index + 1}`,
          problem: `not a JSON entry (${(error as Error).message})`,
        });
      }
    });
  return entries;
}
