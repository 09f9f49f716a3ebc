import { describe, expect, it } from 'vitest';
import type { ItemState, RunState, StepState } from '../state/run-state';
import { displayWidth } from './display-width';
import { renderRunView } from './render-run-view';

const T0 = Date.parse('2026-11-30T12:00:00Z');

function attempt(poolId: string, fields: Record<string, unknown> = {}) {
  return {
    attempt: 1,
    purpose: 'run' as const,
    poolId,
    poolLabel: poolId,
    model: null,
    reason: 'most-behind capable pool (surplus 30)',
    outputFile: `/tmp/out-${poolId}`,
    startedAt: T0,
    ...fields,
  };
}

function state(steps: StepState[], levels: string[][], fields: Partial<RunState> = {}): RunState {
  return {
    stateVersion: 1,
    engineVersion: 'program-v3/1',
    runId: 'wf-abc123',
    name: 'route-review',
    cwd: '/work',
    status: 'running',
    createdAt: T0,
    updatedAt: T0,
    drivenSince: T0,
    options: { concurrency: 4 },
    inputs: {},
    levels,
    lastEventSeq: 10,
    steps,
    ...fields,
  };
}

function item(slot: number, status: ItemState['status'], extra: Partial<ItemState> = {}): ItemState {
  return {
    slot,
    item: `src/f${slot}.ts`,
    label: `src/f${slot}.ts`,
    action: `review.${slot}`,
    status,
    attempts: status === 'pending' ? [] : [attempt('grok', { endedAt: T0 + 3000, kind: 'ok' })],
    poolLabel: status === 'pending' ? undefined : 'grok',
    startedAt: status === 'pending' ? undefined : T0,
    endedAt: status === 'ok' || status === 'failed' ? T0 + 28_900 : undefined,
    ...extra,
  } as ItemState;
}

describe('renderRunView', () => {
  it('draws phases, rows, marks, the summary and the needs-you block', () => {
    const view = renderRunView(
      state(
        [
          {
            id: 'discover',
            level: 1,
            fanOut: false,
            status: 'ok',
            startedAt: T0,
            endedAt: T0 + 12_300,
            unit: {
              status: 'ok',
              action: 'discover',
              attempts: [attempt('codex', { endedAt: T0 + 12_300, kind: 'ok' })],
              poolLabel: 'codex',
              startedAt: T0,
              endedAt: T0 + 12_300,
              schemaOk: true,
            },
          },
          {
            id: 'review',
            level: 2,
            fanOut: true,
            status: 'running',
            startedAt: T0 + 12_300,
            items: [
              item(0, 'running', { endedAt: undefined, attempts: [attempt('grok')] }),
              item(1, 'ok'),
              item(2, 'running', {
                poolLabel: 'opencode2',
                attempts: [
                  attempt('opencode2', {
                    endedAt: T0 + 40_100,
                    kind: 'process',
                    why: 'exit code 1',
                    willRetry: true,
                  }),
                ],
              }),
              item(3, 'failed', {
                why: 'exit code 1',
                attempts: [attempt('grok', { endedAt: T0 + 5000, kind: 'process', willRetry: false })],
              }),
            ],
          },
          {
            id: 'limited',
            level: 1,
            fanOut: false,
            status: 'needs-you',
            why: 'usage limit reached',
            backAt: T0 + 3_600_000,
            unit: {
              status: 'needs-you',
              action: 'limited',
              attempts: [],
              why: 'usage limit reached',
              backAt: T0 + 3_600_000,
            },
          },
          { id: 'after', level: 2, fanOut: false, status: 'blocked', blockedBy: ['limited'] },
        ],
        [
          ['discover', 'limited'],
          ['review', 'after'],
        ],
      ),
      { width: 100, now: T0 + 45_000 },
    );
    expect(view).toEqual([
      'bullswarm workflow · route-review · run wf-abc123',
      '',
      '▐ level 1/2 · discover, limited                                                          ↩ needs you',
      '  ✓ discover                       codex             12.3s   ok · output matches its schema',
      '  ↩ limited                        —                     —   back to you · usage limit reached',
      '',
      '▐ level 2/2 · review, after                                                                ⟡ running',
      '  ⟡ review[0/4] src/f0.ts          grok              45.0s   running',
      '  ✓ review[1/4] src/f1.ts          grok              28.9s   ok',
      '  ✗ review[2/4] src/f2.ts          opencode2         45.0s   fail · exit code 1',
      '    ↳ retrying on another pool',
      '  ✗ review[3/4] src/f3.ts          grok              28.9s   fail · exit code 1',
      '    ↳ no retry left',
      '  ⋈ after                          —                     —   waits for limited',
      '',
      `── summary ${'─'.repeat(89)}`,
      '✓ 2 · ✗ 1 · ↩ 1 · ⋈ 1 · ⟡ 2                                                            elapsed 45.0s',
      '',
      'needs you:',
      '  ✗ review[src/f3.ts]              exit code 1',
      '  ↩ limited                        back at 2026-11-30T13:00:00Z · usage limit reached',
      '  ⋈ after                          waits for limited',
    ]);
  });

  it('cuts every line to the width', () => {
    const steps: StepState[] = [
      {
        id: 'a-very-long-step-name-that-goes-on-and-on',
        level: 1,
        fanOut: false,
        status: 'failed',
        why: 'x'.repeat(200),
        unit: { status: 'failed', action: 'a', attempts: [], why: 'y'.repeat(200) },
      },
    ];
    for (const width of [30, 60, 80]) {
      const lines = renderRunView(state(steps, [[steps[0]?.id as string]]), { width, now: T0 });
      for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(width);
      expect(lines.some((line) => line.endsWith('…'))).toBe(true);
    }
  });

  it('collapses a large fan-out to a summary row plus its running and failed items', () => {
    const items = Array.from({ length: 47 }, (_, i) =>
      item(
        i,
        i === 5 ? 'failed' : i < 40 ? 'ok' : i < 44 ? 'running' : 'pending',
        i === 5 ? { why: 'stalled' } : {},
      ),
    );
    const lines = renderRunView(
      state(
        [{ id: 'review', level: 1, fanOut: true, status: 'running', startedAt: T0, items }],
        [['review']],
      ),
      { width: 120, now: T0 + 60_000 },
    );
    const rows = lines.filter((line) => line.startsWith('  '));
    expect(rows[0]).toMatch(/^ {2}⟡ review \(47 items\)\s+1m 0s {3}✓ 39 · ✗ 1 · ⟡ 4 · pending 3$/);
    expect(rows.filter((line) => /review\[\d+\/47\]/.test(line))).toHaveLength(5);
    expect(lines.join('\n')).toContain('review[5/47] src/f5.ts');
  });

  it('a finished run shows the report path; an interrupted one says how to resume', () => {
    const steps: StepState[] = [
      { id: 'a', level: 1, fanOut: false, status: 'ok', unit: { status: 'ok', action: 'a', attempts: [] } },
    ];
    const done = renderRunView(state(steps, [['a']], { status: 'finished', activeMs: 4200 }), {
      width: 80,
      now: T0,
      reportPath: '/h/workflows/wf-abc123/report.json',
    });
    expect(done.at(-1)).toBe('report: /h/workflows/wf-abc123/report.json');
    expect(done.at(-2)).toMatch(/elapsed 4\.2s$/);
    const stopped = renderRunView(state(steps, [['a']], { status: 'interrupted' }), { width: 80, now: T0 });
    expect(stopped.at(-1)).toBe('interrupted · resume with: bullswarm workflow resume wf-abc123');
  });

  it('a run no process drives draws its running work as interrupted, times stopped at its last event', () => {
    const steps: StepState[] = [
      {
        id: 'review',
        level: 1,
        fanOut: true,
        status: 'running',
        startedAt: T0,
        items: [item(0, 'ok'), item(1, 'running', { attempts: [attempt('grok')] })],
      },
    ];
    const killed = state(steps, [['review']], { updatedAt: T0 + 31_000 });
    const view = renderRunView(killed, { width: 100, now: T0 + 600_000, live: false });
    const text = view.join('\n');
    expect(text).not.toContain('⟡');
    expect(text).toMatch(/^▐ level 1\/1 · review {2,}‖ interrupted$/m);
    expect(text).toMatch(
      /^ {2}‖ review\[1\/2\] src\/f1\.ts {2,}grok {2,}31\.0s {3}interrupted · resume re-runs it$/m,
    );
    expect(text).toMatch(/^ {2}✓ review\[0\/2\] src\/f0\.ts {2,}grok {2,}28\.9s {3}ok$/m);
    expect(text).toMatch(/^✓ 1 · ✗ 0 · ↩ 0 · ⋈ 0 · ‖ 1 {2,}elapsed 31\.0s$/m);
    expect(view.at(-1)).toBe('interrupted · resume with: bullswarm workflow resume wf-abc123');
    // The same state while its driver lives is drawn running, with the wall clock.
    const running = renderRunView(killed, { width: 100, now: T0 + 40_000, live: true }).join('\n');
    expect(running).toMatch(/^ {2}⟡ review\[1\/2\] src\/f1\.ts {2,}grok {2,}40\.0s {3}running$/m);
    expect(running).toMatch(/elapsed 40\.0s$/m);
  });

  it('a retry in flight says it is a retry, on which pool and after what', () => {
    const failed = (poolId: string, fields: Record<string, unknown>) =>
      attempt(poolId, { endedAt: T0 + 4000, willRetry: true, ...fields });
    const steps: StepState[] = [
      {
        id: 'review',
        level: 1,
        fanOut: true,
        status: 'running',
        startedAt: T0,
        items: [
          item(0, 'running', {
            poolLabel: 'grok',
            attempts: [
              failed('opencode2', { kind: 'process', why: 'exit code 1' }),
              attempt('grok', { attempt: 2, startedAt: T0 + 4000 }),
            ],
          }),
          item(1, 'running', {
            poolLabel: 'codex',
            attempts: [
              failed('codex', {
                kind: 'ok',
                followedBy: 'gate-retry',
                retryWhy: 'gate `npm test` failed (exit 1)',
              }),
              attempt('codex', { purpose: 'gate-retry', startedAt: T0 + 4000 }),
            ],
          }),
        ],
      },
    ];
    const text = renderRunView(state(steps, [['review']]), { width: 120, now: T0 + 10_000 }).join('\n');
    expect(text).toMatch(
      /^ {2}⟡ review\[0\/2\] src\/f0\.ts {2,}grok {2,}10\.0s {3}running · attempt 2 on grok \(retry after exit code 1\)$/m,
    );
    expect(text).toMatch(
      /^ {2}⟡ review\[1\/2\] src\/f1\.ts {2,}codex {2,}10\.0s {3}running · attempt 2 on codex \(retry after a failed gate\)$/m,
    );
    expect(text).not.toContain('↳');
  });
});
