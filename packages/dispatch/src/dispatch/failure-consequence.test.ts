import type { MeterWindow } from '@bullswarm/pacing';
import { formatTime } from '@bullswarm/pacing/internal';
import { describe, expect, it } from 'vitest';
import {
  type AttemptOutcome,
  decideFailure,
  type FailureContext,
  type FailureDecision,
  needsMeterRead,
} from './failure-consequence';

const NOW = Date.UTC(2026, 11, 1, 12);
const RESET = NOW + 3 * 3_600_000;

const base: FailureContext = {
  label: 'codex',
  now: NOW,
  policy: 'backoff',
  pinned: false,
  retriesLeft: 1,
  throttleBackoffs: 0,
  throttleWaitsMs: [20_000, 60_000],
  throttleMaxNamedWaitMs: 120_000,
  credentialGroup: 'openai:default',
};

const fullWindow: MeterWindow = { kind: 'five_hour', usedPct: 100, resetsAt: RESET } as MeterWindow;

type Row = readonly [
  rule: string,
  outcome: AttemptOutcome,
  context: Partial<FailureContext>,
  decision: FailureDecision,
];

/**
 * Every failure rule of docs/routing.md ("How failures are handled", for a workflow started by this
 * version and for a single bullswarm run), one row each: outcome and context in, decision out.
 */
const rules: readonly Row[] = [
  ['an answer ends the task', { kind: 'ok', why: 'ok' }, {}, { action: 'succeed' }],
  [
    'the caller’s cancel is never retried',
    { kind: 'canceled', why: 'canceled' },
    {},
    { action: 'end', kind: 'canceled', why: 'canceled' },
  ],
  [
    'a timeout is never retried, even with a retry left',
    { kind: 'timeout', why: 'timed out after 60s' },
    { retriesLeft: 1 },
    { action: 'end', kind: 'timeout', why: 'timed out after 60s' },
  ],
  [
    'a usage-limit notice marks the pool, re-reads its meter and comes back; nothing retries or moves',
    { kind: 'quota', why: 'usage limit' },
    { retriesLeft: 1 },
    { action: 'usage-limit' },
  ],
  [
    'a crash with a window the meter shows spent is a usage limit, back at the reset',
    { kind: 'process', why: 'exit 1' },
    { meterFull: fullWindow },
    {
      action: 'end',
      kind: 'quota',
      why: `usage limit: codex meter shows its 5-hour window at 100% until ${formatTime(RESET)} (the attempt ended: exit 1)`,
      backAt: RESET,
    },
  ],
  [
    'a throttle with a window the meter shows spent is a usage limit too',
    { kind: 'throttle', why: '429', waitMs: 20_000 },
    { meterFull: fullWindow },
    {
      action: 'end',
      kind: 'quota',
      why: `usage limit: codex meter shows its 5-hour window at 100% until ${formatTime(RESET)} (the attempt ended: 429)`,
      backAt: RESET,
    },
  ],
  [
    'a single run records a throttle and does not retry it; a named wait sets backAt',
    { kind: 'throttle', why: '429', waitMs: 30_000 },
    { policy: 'record' },
    {
      action: 'end',
      kind: 'throttle',
      why: '429 · recorded; a single run does not retry a throttle',
      waitMs: 30_000,
      backAt: NOW + 30_000,
    },
  ],
  [
    'a single run records a throttle without a named wait: no backAt',
    { kind: 'throttle', why: '429' },
    { policy: 'record' },
    { action: 'end', kind: 'throttle', why: '429 · recorded; a single run does not retry a throttle' },
  ],
  [
    'a workflow step backs off on the same pool, first for 20 s, without spending a retry',
    { kind: 'throttle', why: '429' },
    { retriesLeft: 0 },
    { action: 'back-off', waitMs: 20_000 },
  ],
  [
    'the second back-off waits 60 s',
    { kind: 'throttle', why: '429' },
    { throttleBackoffs: 1 },
    { action: 'back-off', waitMs: 60_000 },
  ],
  [
    'a named wait of at most 2 minutes replaces the back-off wait',
    { kind: 'throttle', why: '429', waitMs: 120_000 },
    {},
    { action: 'back-off', waitMs: 120_000 },
  ],
  [
    'a named wait over 2 minutes comes back at once, back at its end',
    { kind: 'throttle', why: '429', waitMs: 300_000 },
    {},
    {
      action: 'end',
      kind: 'throttle',
      why: `429 · the provider named a wait of 5 min (over 2 min): back at ${formatTime(NOW + 300_000)}`,
      waitMs: 300_000,
      backAt: NOW + 300_000,
    },
  ],
  [
    'after two back-offs a throttle comes back; it never moves to another pool',
    { kind: 'throttle', why: '429' },
    { throttleBackoffs: 2, retriesLeft: 1 },
    { action: 'end', kind: 'throttle', why: '429 · came back after 2 back-offs on codex' },
  ],
  [
    'a sign-in failure retries once outside the failed credential group',
    { kind: 'auth', why: 'auth_unavailable' },
    {},
    { action: 'retry-elsewhere', avoid: 'credential-group' },
  ],
  [
    'a pinned sign-in failure has no pool outside its credential group: no retry',
    { kind: 'auth', why: 'auth_unavailable' },
    { pinned: true },
    {
      action: 'end',
      kind: 'auth',
      why: 'auth_unavailable · no retry: codex sign-in failed in credential group openai:default',
    },
  ],
  [
    'a sign-in failure with no retry left comes back',
    { kind: 'auth', why: 'auth_unavailable' },
    { retriesLeft: 0 },
    { action: 'end', kind: 'auth', why: 'auth_unavailable' },
  ],
  [
    'a crash gets the one retry on another eligible pool (the same pool when it is the only one)',
    { kind: 'process', why: 'exit 1' },
    {},
    { action: 'retry-elsewhere', avoid: 'failed-pools' },
  ],
  [
    'an empty answer gets the one retry',
    { kind: 'empty', why: 'empty answer' },
    {},
    { action: 'retry-elsewhere', avoid: 'failed-pools' },
  ],
  [
    'a stall is a process failure like any other: the one retry',
    { kind: 'stalled', why: 'stalled: no output for 300s' },
    {},
    { action: 'retry-elsewhere', avoid: 'failed-pools' },
  ],
  [
    'a pinned crash still retries (on the pinned pool: routing keeps the pin)',
    { kind: 'process', why: 'exit 1' },
    { pinned: true },
    { action: 'retry-elsewhere', avoid: 'failed-pools' },
  ],
  [
    'a crash with the retry spent comes back with its own kind',
    { kind: 'stalled', why: 'stalled: no output for 300s' },
    { retriesLeft: 0 },
    { action: 'end', kind: 'stalled', why: 'stalled: no output for 300s' },
  ],
];

describe('decideFailure: the failure rules of docs/routing.md', () => {
  it.each(rules)('%s', (_rule, outcome, context, decision) => {
    expect(decideFailure(outcome, { ...base, ...context })).toEqual(decision);
  });

  it('reads the meter after every failure but a usage limit, a timeout or a cancel', () => {
    expect(['ok', 'canceled', 'timeout', 'quota'].map((kind) => needsMeterRead(kind as never))).toEqual([
      false,
      false,
      false,
      false,
    ]);
    for (const kind of ['throttle', 'auth', 'process', 'empty', 'stalled'] as const) {
      expect(needsMeterRead(kind)).toBe(true);
    }
  });
});
