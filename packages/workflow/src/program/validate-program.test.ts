import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProgramProblemKind } from '../errors/workflow-error';
import { validateProgram } from './validate-program';

const V = 'bullswarm.workflow.program.v3';

function program(steps: unknown[], extra: Record<string, unknown> = {}) {
  return { schemaVersion: V, ...extra, steps };
}

function problemsOf(json: unknown, options = {}) {
  const result = validateProgram(json, options);
  expect(result.ok).toBe(false);
  return result.problems.map((p) => ({ path: p.path, kind: p.kind }));
}

function expectOne(json: unknown, path: string, kind: ProgramProblemKind, options = {}) {
  expect(problemsOf(json, options)).toContainEqual({ path, kind });
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('validateProgram: a valid program', () => {
  it('fills in defaults and levels', () => {
    const result = validateProgram(
      program([
        { id: 'write-docs', lane: 'build', files: ['README.md'], prompt: 'Write README.md.' },
        {
          id: 'review-docs',
          dependsOn: ['write-docs'],
          blindTo: ['write-docs'],
          prompt: 'Check README.md. Change no file.',
        },
      ]),
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const [write, review] = result.program.steps;
    expect(write).toMatchObject({
      lane: 'build',
      effort: 'high',
      files: ['README.md'],
      retryAttempts: 1,
      level: 1,
    });
    expect(review).toMatchObject({
      lane: 'analyze',
      effort: 'medium',
      files: [],
      blindTo: ['write-docs'],
      level: 2,
    });
    expect(result.program.settings).toEqual({ concurrency: 4, retryAttempts: 1 });
    expect(result.program.levels).toEqual([['write-docs'], ['review-docs']]);
  });

  it('accepts every template form where it is valid', () => {
    const result = validateProgram(
      program(
        [
          {
            id: 'list',
            prompt: 'List files for {{inputs.target}} in run {{runId}}',
            outputSchema: {
              type: 'object',
              properties: { files: { type: 'array', items: { type: 'string' } } },
            },
          },
          {
            id: 'each',
            dependsOn: ['list'],
            forEach: { from: 'outputs.list.data.files', concurrency: 2 },
            prompt: 'Review {{item}} ({{outputs.list.data.files.0}})',
            outputSchema: { type: 'object' },
            gate: ['node', '-e', '{{item}}'],
          },
          {
            id: 'sum',
            dependsOn: ['each'],
            prompt: 'Summarise {{outputs.each.items}} of {{outputs.list.data}}',
          },
        ],
        { inputs: { target: { default: 'src' } } },
      ),
    );
    expect(result.problems).toEqual([]);
  });
});

describe('validateProgram: one test per problem kind, with its JSON path', () => {
  it('structure: a missing schemaVersion and an unknown field', () => {
    const problems = problemsOf({ steps: [{ id: 'a', prompt: 'x', colour: 'red' }] });
    expect(problems).toContainEqual({ path: '$.schemaVersion', kind: 'invalid-field' });
    expect(problems).toContainEqual({ path: '$.steps[0].colour', kind: 'invalid-field' });
  });

  it('a step without prompt or promptFile, or with both', () => {
    expectOne(program([{ id: 'a' }]), '$.steps[0]', 'invalid-field');
    expectOne(
      program([{ id: 'a', prompt: 'x', promptFile: 'p.md' }]),
      '$.steps[0].promptFile',
      'invalid-field',
    );
  });

  it('duplicate ids', () => {
    expectOne(
      program([
        { id: 'a', prompt: 'x' },
        { id: 'a', prompt: 'y' },
      ]),
      '$.steps[1].id',
      'duplicate-id',
    );
  });

  it('unknown dependsOn, blindTo and independentOf targets', () => {
    const problems = problemsOf(
      program([
        { id: 'a', prompt: 'x', dependsOn: ['nope'], blindTo: ['ghost'], route: { independentOf: ['gone'] } },
      ]),
    );
    expect(problems).toContainEqual({ path: '$.steps[0].dependsOn[0]', kind: 'unknown-step' });
    expect(problems).toContainEqual({ path: '$.steps[0].blindTo[0]', kind: 'unknown-step' });
    expect(problems).toContainEqual({ path: '$.steps[0].route.independentOf[0]', kind: 'unknown-step' });
  });

  it('independentOf a step that is not upstream', () => {
    expectOne(
      program([
        { id: 'a', prompt: 'x' },
        { id: 'b', prompt: 'y', route: { independentOf: ['a'] } },
      ]),
      '$.steps[1].route.independentOf[0]',
      'not-upstream',
    );
  });

  it('cycles, with the cycle in the message', () => {
    const result = validateProgram(
      program([
        { id: 'a', prompt: 'x', dependsOn: ['c'] },
        { id: 'b', prompt: 'x', dependsOn: ['a'] },
        { id: 'c', prompt: 'x', dependsOn: ['b'] },
        { id: 'd', prompt: 'x', dependsOn: ['d'] },
      ]),
    );
    expect(result.problems).toContainEqual({
      path: '$.steps[0].dependsOn',
      kind: 'cycle',
      message: 'dependency cycle: a → c → b → a',
    });
    expect(result.problems.map((p) => [p.path, p.kind])).toContainEqual(['$.steps[3].dependsOn[0]', 'cycle']);
  });

  it('unknown lanes, and unknown tiers, pools and providers when the home is known', () => {
    const json = program([
      {
        id: 'a',
        prompt: 'x',
        lane: 'deploy',
        effort: 'ultra',
        route: { pools: { use: ['sim:zz'] }, providers: { avoid: ['acme'] } },
      },
    ]);
    const known = { tiers: ['low', 'medium', 'high'], pools: ['sim:a'], providers: ['sim', 'echo'] };
    const problems = problemsOf(json, known);
    expect(problems).toContainEqual({ path: '$.steps[0].lane', kind: 'unknown-lane' });
    expect(problems).toContainEqual({ path: '$.steps[0].effort', kind: 'unknown-tier' });
    expect(problems).toContainEqual({ path: '$.steps[0].route.pools.use[0]', kind: 'unknown-pool' });
    expect(problems).toContainEqual({
      path: '$.steps[0].route.providers.avoid[0]',
      kind: 'unknown-provider',
    });
    // Without the home, only the lane is checked.
    expect(problemsOf(json)).toEqual([{ path: '$.steps[0].lane', kind: 'unknown-lane' }]);
  });

  it('a pool label in route.pools is unknown, and says which id it labels', () => {
    const json = program([{ id: 'a', prompt: 'x', route: { pools: { avoid: ['zed', 'nope'] } } }]);
    const result = validateProgram(json, { pools: ['sim:a', 'sim:z'], poolLabels: { 'sim:z': 'zed' } });
    expect(result.ok).toBe(false);
    const messages = result.ok ? [] : result.problems.map((p) => [p.path, p.message]);
    expect(messages).toEqual([
      [
        '$.steps[0].route.pools.avoid[0]',
        '"zed" is the label of pool sim:z; a program names pools by id (write "sim:z")',
      ],
      ['$.steps[0].route.pools.avoid[1]', 'unknown pool "nope"; this home has sim:a, sim:z'],
    ]);
  });

  it('an outputs reference to a step that is not a dependency', () => {
    const json = program([
      { id: 'a', prompt: 'x', outputSchema: { type: 'object' } },
      { id: 'b', prompt: 'use {{outputs.a.data.x}}' },
    ]);
    expectOne(json, '$.steps[1].prompt', 'output-not-upstream');
  });

  it('a transitive dependency counts as upstream', () => {
    const result = validateProgram(
      program([
        { id: 'a', prompt: 'x', outputSchema: { type: 'object' } },
        { id: 'b', prompt: 'y', dependsOn: ['a'] },
        { id: 'c', prompt: '{{outputs.a.data}}', dependsOn: ['b'] },
      ]),
    );
    expect(result.problems).toEqual([]);
  });

  it('an outputs reference to a step the step is blind to', () => {
    expectOne(
      program([
        { id: 'a', prompt: 'x', outputSchema: { type: 'object' } },
        { id: 'b', prompt: '{{outputs.a.data.x}}', dependsOn: ['a'], blindTo: ['a'] },
      ]),
      '$.steps[1].prompt',
      'output-blind',
    );
  });

  it('an outputs reference to a step without outputSchema', () => {
    expectOne(
      program([
        { id: 'a', prompt: 'x' },
        { id: 'b', prompt: '{{outputs.a.data.x}}', dependsOn: ['a'] },
      ]),
      '$.steps[1].prompt',
      'output-without-schema',
    );
  });

  it('{{item}} outside a fan-out', () => {
    expectOne(
      program([{ id: 'a', prompt: 'look at {{item}}' }]),
      '$.steps[0].prompt',
      'item-outside-fan-out',
    );
  });

  it('an unknown input', () => {
    expectOne(
      program([{ id: 'a', prompt: '{{inputs.nope}}' }], { inputs: { yes: {} } }),
      '$.steps[0].prompt',
      'unknown-input',
    );
  });

  it('a template of an unknown form', () => {
    expectOne(program([{ id: 'a', prompt: '{{env.HOME}}' }]), '$.steps[0].prompt', 'bad-template');
    expectOne(
      program([{ id: 'a', prompt: 'x', files: ['{{process.exit}}'] }]),
      '$.steps[0].files[0]',
      'bad-template',
    );
  });

  it('an unclosed template, with its JSON path and what is unclosed', () => {
    const json = program(
      [
        { id: 'a', prompt: 'write about {{inputs.x' },
        { id: 'b', forEach: { items: ['p'] }, prompt: 'check {{item}} and {{item', files: ['{{item'] },
      ],
      { inputs: { x: { default: 'y' } } },
    );
    const result = validateProgram(json);
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems;
    expect(problems.map((p) => ({ path: p.path, kind: p.kind }))).toEqual([
      { path: '$.steps[0].prompt', kind: 'bad-template' },
      { path: '$.steps[1].prompt', kind: 'bad-template' },
      { path: '$.steps[1].files[0]', kind: 'bad-template' },
    ]);
    expect(problems[0]?.message).toContain('"{{inputs.x" is not closed with "}}"');
    expect(problems[1]?.message).toContain('"{{item" is not closed with "}}"');
  });

  it('a {{ that opens no known reference is literal text in a prompt, promptFile, gate or files glob', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wf-validate-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'p.md'), 'Jinja opens an expression with {{ and a block with {%.\n');
    const result = validateProgram(
      program([
        {
          id: 'a',
          prompt: 'Explain that Handlebars escapes with {{ and that a {{ {x} }} is not a template.',
          files: ['out/{{ draft'],
          gate: 'test "$(printf "{{ %s" x)" != ""',
        },
        { id: 'b', promptFile: 'p.md', gate: { command: ['grep', '-q', '{{', 'p.md'] } },
      ]),
      { programDir: dir },
    );
    expect(result.problems).toEqual([]);
    expect(result.ok && result.program.steps[0]?.prompt).toBe(
      'Explain that Handlebars escapes with {{ and that a {{ {x} }} is not a template.',
    );
  });

  it('a Handlebars block is refused as an unknown template (as before), an unclosed {{item still reported', () => {
    const problems = validateProgram(
      program([
        { id: 'a', prompt: 'List:\n{{#each items}}- {{this}}\n{{/each}}' },
        { id: 'b', forEach: { items: ['p'] }, prompt: 'x {{ item.{name}}}', gate: ['test', '-f', '{{item'] },
      ]),
    ).problems;
    expect(problems.map((p) => [p.path, p.kind, p.message.split(';')[0]])).toEqual([
      ['$.steps[0].prompt', 'bad-template', 'unknown template "{{#each items}}"'],
      ['$.steps[0].prompt', 'bad-template', 'unknown template "{{this}}"'],
      ['$.steps[0].prompt', 'bad-template', 'unknown template "{{/each}}"'],
      ['$.steps[1].prompt', 'bad-template', '"{{ item.{name}}}" holds a brace, which no template can'],
      ['$.steps[1].gate[2]', 'bad-template', '"{{item" is not closed with "}}"'],
    ]);
  });

  it('a bad output schema, with the path inside it', () => {
    const problems = problemsOf(
      program([
        {
          id: 'a',
          prompt: 'x',
          outputSchema: { type: 'object', properties: { n: { type: 'float' }, m: { pattern: '^a' } } },
        },
      ]),
    );
    expect(problems).toContainEqual({
      path: '$.steps[0].outputSchema.properties.n.type',
      kind: 'bad-output-schema',
    });
    expect(problems).toContainEqual({
      path: '$.steps[0].outputSchema.properties.m.pattern',
      kind: 'bad-output-schema',
    });
    expectOne(
      program([{ id: 'a', prompt: 'x', outputSchema: { type: 'array' } }]),
      '$.steps[0].outputSchema.type',
      'bad-output-schema',
    );
  });

  it('a missing promptFile (relative to the program directory), and templates inside one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wf-validate-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'prompts'));
    writeFileSync(join(dir, 'prompts', 'b.md'), 'Check {{inputs.missing}}');
    const json = program([
      { id: 'a', promptFile: 'prompts/a.md' },
      { id: 'b', promptFile: 'prompts/b.md' },
    ]);
    const problems = problemsOf(json, { programDir: dir });
    expect(problems).toEqual([
      { path: '$.steps[0].promptFile', kind: 'missing-prompt-file' },
      { path: '$.steps[1].promptFile', kind: 'unknown-input' },
    ]);
  });

  it('a forEach.from path into a step without outputSchema, or not upstream', () => {
    expectOne(
      program([
        { id: 'a', prompt: 'x' },
        { id: 'b', prompt: '{{item}}', dependsOn: ['a'], forEach: { from: 'outputs.a.data.files' } },
      ]),
      '$.steps[1].forEach.from',
      'output-without-schema',
    );
    expectOne(
      program([
        { id: 'a', prompt: 'x', outputSchema: { type: 'object' } },
        { id: 'b', prompt: '{{item}}', forEach: { from: 'outputs.a.data.files' } },
      ]),
      '$.steps[1].forEach.from',
      'output-not-upstream',
    );
  });

  it('forEach with none or two of items, glob, from', () => {
    expectOne(program([{ id: 'a', prompt: 'x', forEach: {} }]), '$.steps[0].forEach', 'invalid-field');
    expectOne(
      program([{ id: 'a', prompt: 'x', forEach: { items: [1], glob: '*.ts' } }]),
      '$.steps[0].forEach',
      'invalid-field',
    );
  });

  it('a glob that leaves the work tree', () => {
    expectOne(
      program([{ id: 'a', prompt: '{{item}}', forEach: { glob: '../*.ts' } }]),
      '$.steps[0].forEach.glob',
      'bad-glob',
    );
    expectOne(program([{ id: 'a', prompt: 'x', files: ['/etc/passwd'] }]), '$.steps[0].files[0]', 'bad-glob');
  });

  it('a step output inside a shell gate string', () => {
    expectOne(
      program([
        { id: 'a', prompt: 'x', outputSchema: { type: 'object' } },
        { id: 'b', prompt: 'y', dependsOn: ['a'], gate: 'echo {{outputs.a.data.cmd}}' },
      ]),
      '$.steps[1].gate',
      'unsafe-shell-template',
    );
  });

  it('reports several problems at once', () => {
    const problems = problemsOf(
      program([
        { id: 'a', prompt: 'x', lane: 'nope' },
        { id: 'a', prompt: '{{item}}', dependsOn: ['zz'] },
        { id: 'c', prompt: '{{inputs.q}}', outputSchema: { type: 'string' } },
      ]),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        { path: '$.steps[0].lane', kind: 'unknown-lane' },
        { path: '$.steps[1].id', kind: 'duplicate-id' },
        { path: '$.steps[1].dependsOn[0]', kind: 'unknown-step' },
        { path: '$.steps[1].prompt', kind: 'item-outside-fan-out' },
        { path: '$.steps[2].prompt', kind: 'unknown-input' },
        { path: '$.steps[2].outputSchema.type', kind: 'bad-output-schema' },
      ]),
    );
    expect(problems.length).toBeGreaterThanOrEqual(6);
  });

  it('refuses non-objects and absurd nesting without throwing', () => {
    expect(problemsOf(null)).toEqual([{ path: '$', kind: 'invalid-field' }]);
    expect(problemsOf([1, 2])[0]?.path).toBe('$');
    let deep: unknown = 'x';
    for (let i = 0; i < 5000; i++) deep = [deep];
    const problems = problemsOf(program([{ id: 'a', prompt: 'x', forEach: { items: [deep] } }]));
    expect(problems[0]?.kind).toBe('invalid-field');
  });
});
