import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateProgram } from './validate-program';

const V = 'bullswarm.workflow.program.v3';

const validProgram = {
  schemaVersion: V,
  name: 'p',
  inputs: { target: { default: 'src' } },
  settings: { concurrency: 2 },
  steps: [
    {
      id: 'list',
      prompt: 'List {{inputs.target}}',
      outputSchema: { type: 'object', properties: { files: { type: 'array', items: { type: 'string' } } } },
    },
    {
      id: 'each',
      dependsOn: ['list'],
      forEach: { from: 'outputs.list.data.files' },
      prompt: 'Review {{item}}',
      files: ['out/{{item}}.md'],
      gate: { command: ['node', '-e', '1'], timeoutSec: 5 },
      route: { providers: { avoid: ['x'] }, independentOf: ['list'] },
    },
    { id: 'review', dependsOn: ['each'], blindTo: ['each'], prompt: 'Check. Change no file.' },
  ],
};

/** Replaces the value at a random path of `value` with `replacement` (or deletes it). */
function mutate(value: unknown, path: readonly number[], replacement: unknown, remove: boolean): unknown {
  if (path.length === 0 || value === null || typeof value !== 'object') return replacement;
  const [head, ...rest] = path as [number, ...number[]];
  if (Array.isArray(value)) {
    if (value.length === 0) return replacement;
    const at = head % value.length;
    const copy = [...value];
    if (rest.length === 0 && remove) copy.splice(at, 1);
    else copy[at] = mutate(copy[at], rest, replacement, remove);
    return copy;
  }
  const keys = Object.keys(value);
  if (keys.length === 0) return replacement;
  const key = keys[head % keys.length] as string;
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  if (rest.length === 0 && remove) delete copy[key];
  else copy[key] = mutate(copy[key], rest, replacement, remove);
  return copy;
}

const interesting = fc.oneof(
  fc.jsonValue(),
  fc.constantFrom(
    '{{item}}',
    '{{outputs.list.data}}',
    '{{outputs.each.items}}',
    '{{inputs.nope}}',
    '{{}}',
    'list',
    'each',
    '__proto__',
    'constructor',
    V,
    { type: 'object' },
    { type: 'object', required: ['z'] },
    [],
    {},
  ),
);

describe('validateProgram never throws', () => {
  it('on random JSON values', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const result = validateProgram(value);
        expect(typeof result.ok).toBe('boolean');
        if (!result.ok) expect(result.problems.length).toBeGreaterThan(0);
      }),
      { numRuns: 500 },
    );
  });

  it('on random mutations of a valid program', () => {
    expect(validateProgram(validProgram).problems).toEqual([]);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.array(fc.nat(), { maxLength: 6 }), interesting, fc.boolean()), {
          minLength: 1,
          maxLength: 4,
        }),
        (mutations) => {
          let value: unknown = validProgram;
          for (const [path, replacement, remove] of mutations)
            value = mutate(value, path, replacement, remove);
          const result = validateProgram(value, {
            pools: ['sim:a'],
            providers: ['sim'],
            tiers: ['low', 'medium', 'high'],
          });
          for (const problem of result.problems) {
            expect(problem.path.startsWith('$')).toBe(true);
            expect(problem.message.length).toBeGreaterThan(0);
          }
          if (result.ok) expect(result.program.steps.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
