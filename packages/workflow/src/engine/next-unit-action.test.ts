import { describe, expect, it } from 'vitest';
import {
  nextUnitAction,
  type UnitCheck,
  type UnitLoopContext,
  type UnitNextAction,
} from './next-unit-action';

const fresh: UnitLoopContext = { aborted: false, retriesLeft: 2, schemaRetried: false };
const gateKept = { kind: 'gate', why: 'gate exited 1' } as const;
const problems = [{ path: '$.n', message: 'expected number' }];
const schemaKept = { kind: 'schema', why: 'no match', schemaErrors: problems } as const;
const dispatchOk: UnitCheck = { stage: 'dispatch', ok: true, kind: 'ok', attempts: 1, noRetry: '' };
const noPool = (kind: string, attempts = 0, backAt?: number): UnitCheck => ({
  stage: 'dispatch',
  ok: false,
  kind,
  why: `${kind}: every pool refused`,
  attempts,
  ...(backAt === undefined ? {} : { backAt }),
  noRetry: 'claude:a quota full; codex:b not logged in',
});

// One row per branch of the unit's retry loop (packages/workflow/README.md, "What running a step means").
const rows: ReadonlyArray<readonly [string, UnitCheck, UnitLoopContext, UnitNextAction]> = [
  ['dispatch ok → next check', dispatchOk, fresh, { action: 'next-check' }],
  ['dispatch canceled → pending (resume runs it)', noPool('canceled', 1), fresh, { action: 'leave-pending' }],
  [
    'dispatch failed after the run stopped → pending',
    noPool('process', 1),
    { ...fresh, aborted: true },
    { action: 'leave-pending' },
  ],
  [
    'dispatch ok after the run stopped → next check',
    dispatchOk,
    { ...fresh, aborted: true },
    { action: 'next-check' },
  ],
  [
    'process failure → failed with dispatch kind and why',
    noPool('process', 3),
    fresh,
    { action: 'finish', status: 'failed', kind: 'process', why: 'process: every pool refused' },
  ],
  [
    'quota → needs-you with back-at',
    noPool('quota', 0, 5000),
    fresh,
    { action: 'finish', status: 'needs-you', kind: 'quota', why: 'quota: every pool refused', backAt: 5000 },
  ],
  [
    'no why → the kind is the why',
    { stage: 'dispatch', ok: false, kind: 'auth', attempts: 1, noRetry: '' },
    fresh,
    { action: 'finish', status: 'failed', kind: 'auth', why: 'auth' },
  ],
  [
    'gate retry found no pool → the gate failure, with the no-retry list',
    noPool('no-eligible-pool'),
    { ...fresh, kept: gateKept },
    {
      action: 'finish',
      status: 'failed',
      kind: 'gate',
      why: 'gate exited 1 · no retry: claude:a quota full; codex:b not logged in',
    },
  ],
  [
    'schema retry found no pool → the schema failure with its errors',
    noPool('unavailable'),
    { ...fresh, kept: schemaKept },
    {
      action: 'finish',
      status: 'failed',
      kind: 'schema',
      why: 'no match · no retry: claude:a quota full; codex:b not logged in',
      schemaErrors: problems,
    },
  ],
  [
    'retry started but failed → its own verdict, not the kept one',
    noPool('process', 1),
    { ...fresh, kept: gateKept },
    { action: 'finish', status: 'failed', kind: 'process', why: 'process: every pool refused' },
  ],
  [
    'retry with no pool for a kind that is not needs-you → its own verdict',
    noPool('engine'),
    { ...fresh, kept: gateKept },
    { action: 'finish', status: 'failed', kind: 'engine', why: 'engine: every pool refused' },
  ],
  ['files clean → next check', { stage: 'files' }, fresh, { action: 'next-check' }],
  [
    'files outside → failed files',
    { stage: 'files', outside: 'declared no files but changed: a.ts' },
    fresh,
    { action: 'finish', status: 'failed', kind: 'files', why: 'declared no files but changed: a.ts' },
  ],
  [
    'gate ok → next check',
    { stage: 'gate', ok: true, why: '', poolId: 'p' },
    fresh,
    { action: 'next-check' },
  ],
  [
    'gate failed with retries left → gate retry on the same pool, spending one',
    { stage: 'gate', ok: false, why: 'gate exited 1', poolId: 'p' },
    fresh,
    { action: 'retry', purpose: 'gate-retry', pin: 'same-pool', spendsRetry: true, kept: gateKept },
  ],
  [
    'gate failed, no retries left → failed gate',
    { stage: 'gate', ok: false, why: 'gate exited 1', poolId: 'p' },
    { ...fresh, retriesLeft: 0 },
    { action: 'finish', status: 'failed', kind: 'gate', why: 'gate exited 1' },
  ],
  [
    'gate failed with no pool to pin → failed gate',
    { stage: 'gate', ok: false, why: 'gate exited 1', poolId: null },
    fresh,
    { action: 'finish', status: 'failed', kind: 'gate', why: 'gate exited 1' },
  ],
  [
    'gate failed after the run stopped → pending',
    { stage: 'gate', ok: false, why: 'gate exited 1', poolId: 'p' },
    { ...fresh, aborted: true },
    { action: 'leave-pending' },
  ],
  [
    'schema matched → next check',
    { stage: 'schema', problems: [], why: '' },
    fresh,
    { action: 'next-check' },
  ],
  [
    'schema missed, first time → schema retry on the step pin, free',
    { stage: 'schema', problems, why: 'no match' },
    { ...fresh, retriesLeft: 0 },
    { action: 'retry', purpose: 'schema-retry', pin: 'step-pin', spendsRetry: false, kept: schemaKept },
  ],
  [
    'schema missed again → failed schema with its errors',
    { stage: 'schema', problems, why: 'no match' },
    { ...fresh, schemaRetried: true },
    { action: 'finish', status: 'failed', kind: 'schema', why: 'no match', schemaErrors: problems },
  ],
];

describe('nextUnitAction', () => {
  it.each(rows)('%s', (_name, check, context, expected) => {
    expect(nextUnitAction(check, context)).toEqual(expected);
  });

  it('sends every needs-you kind back to the user when no retry is under way', () => {
    for (const kind of ['quota', 'throttle', 'no-eligible-pool', 'unavailable']) {
      expect(nextUnitAction(noPool(kind), fresh)).toMatchObject({
        action: 'finish',
        status: 'needs-you',
        kind,
      });
    }
  });
});
