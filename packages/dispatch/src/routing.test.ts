import { describe, expect, it, vi } from 'vitest';

// Records which of the spawning modules get evaluated. Each mock passes the real module through,
// so importing the main entry below still works; only the evaluation is noted.
const evaluated = vi.hoisted(() => [] as string[]);
vi.mock('execa', async (importOriginal) => {
  evaluated.push('execa');
  return importOriginal();
});
vi.mock('./attempt/run-attempt', async (importOriginal) => {
  evaluated.push('run-attempt');
  return importOriginal();
});
vi.mock('./attempt/run-agent-process', async (importOriginal) => {
  evaluated.push('run-agent-process');
  return importOriginal();
});
vi.mock('./dispatch/dispatch-task', async (importOriginal) => {
  evaluated.push('dispatch-task');
  return importOriginal();
});

describe('@bullswarm/dispatch/routing', () => {
  it('routes without loading the attempt runner, dispatchTask or execa (also not through meters)', async () => {
    const routing = await import('./routing');
    expect(Object.keys(routing).sort()).toEqual(
      expect.arrayContaining([
        'buildPoolSnapshots',
        'detectCallerPools',
        'noPoolKind',
        'openRuntime',
        'routeTask',
      ]),
    );
    expect(evaluated).toEqual([]);

    // The main entry re-exports the same functions, and does load the spawning half.
    const main = await import('./index');
    expect(main.routeTask).toBe(routing.routeTask);
    expect(main.openRuntime).toBe(routing.openRuntime);
    expect(main.buildPoolSnapshots).toBe(routing.buildPoolSnapshots);
    expect(main.detectCallerPools).toBe(routing.detectCallerPools);
    expect(main.noPoolKind).toBe(routing.noPoolKind);
    expect(evaluated).toEqual(
      expect.arrayContaining(['execa', 'run-attempt', 'run-agent-process', 'dispatch-task']),
    );
  });
});
