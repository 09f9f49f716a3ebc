import { describe, expect, it } from 'vitest';
import { parseTemplateExpression, renderTemplate, type TemplateScope, templateTokens } from './template';

const scope: TemplateScope = {
  runId: 'wf-1',
  inputs: { target: 'src', n: 3 },
  hasItem: true,
  item: { path: 'a.ts', tags: ['x', 'y'] },
  output: (id) =>
    id === 'list'
      ? { data: { files: ['a.ts', 'b.ts'], meta: { count: 2 } } }
      : id === 'fan'
        ? { items: [{ ok: 1 }, null] }
        : undefined,
};

describe('templates', () => {
  it('renders every form; strings as themselves, anything else as JSON', () => {
    const result = renderTemplate(
      '{{runId}} {{ inputs.target }} {{inputs.n}} {{item.path}} {{item.tags.1}} {{item}} {{outputs.list.data.files.0}} {{outputs.list.data.meta}} {{outputs.fan.items}}',
      scope,
    );
    expect(result).toEqual({
      ok: true,
      text: 'wf-1 src 3 a.ts y {"path":"a.ts","tags":["x","y"]} a.ts {"count":2} [{"ok":1},null]',
    });
  });

  it('says which template has no value', () => {
    expect(renderTemplate('see {{outputs.list.data.files.7}}', scope)).toEqual({
      ok: false,
      error: 'template {{outputs.list.data.files.7}} has no value (no value at files.7)',
    });
    expect(renderTemplate('{{inputs.zz}}', scope).ok).toBe(false);
  });

  it('recognises nothing but the documented forms', () => {
    for (const bad of [
      'env.HOME',
      'inputs',
      'inputs.a.b',
      'outputs.x',
      'outputs.x.answer',
      'outputs.x.items.0',
      'runId.x',
      'item..a',
      'process.exit(1)',
    ]) {
      expect(parseTemplateExpression(bad).ref, bad).toBeUndefined();
    }
    expect(parseTemplateExpression('outputs.a-b.data.c_d.0').ref).toEqual({
      kind: 'output',
      stepId: 'a-b',
      field: 'data',
      path: ['c_d', '0'],
    });
  });

  it('reports a {{ that no }} closes, after the closed templates', () => {
    expect(templateTokens('a {{item}} b {{inputs.x').map((t) => [t.raw, t.ref === undefined])).toEqual([
      ['{{item}}', false],
      ['{{inputs.x', true],
    ]);
    expect(templateTokens('{{item\nnext line')[0]?.raw).toBe('{{item');
    expect(templateTokens('{{ inputs.x }} and }}')).toHaveLength(1);
    expect(templateTokens('use {{ item for the fan-out').map((t) => t.raw)).toEqual([
      '{{ item for the fan-out',
    ]);
    expect(templateTokens('{{{runId').map((t) => t.error)).toEqual([
      expect.stringContaining('"{{runId" is not closed with "}}"'),
    ]);
    expect(templateTokens('{{outputs.plan.data\n}').map((t) => t.raw)).toEqual(['{{outputs.plan.data']);
  });

  it('a leftover {{ that opens no known reference is literal text, as written', () => {
    for (const text of [
      'Handlebars opens a block with {{ and closes it with }',
      'a {{ {x} }} b',
      'items {{items and {{itemize and {{inputsx and {{run_id',
      'const o = {{\n  a: 1 } };',
    ]) {
      expect(templateTokens(text), text).toEqual([]);
      expect(renderTemplate(text, scope), text).toEqual({ ok: true, text });
    }
  });

  it('a known reference closed after a brace is reported as holding one, not as unclosed', () => {
    const [token] = templateTokens('x {{item.{a}}} y');
    expect(token?.raw).toBe('{{item.{a}}}');
    expect(token?.ref).toBeUndefined();
    expect(token?.error).toContain('"{{item.{a}}}" holds a brace, which no template can');
    expect(token?.error).not.toContain('not closed');
    expect(templateTokens('{{ inputs.x {\n}} z')[0]?.raw).toBe('{{ inputs.x {…');
  });

  it('a Handlebars block is an unknown template, as it was before unclosed {{ were checked', () => {
    const tokens = templateTokens('{{#each items}}- {{this}}\n{{/each}}');
    expect(tokens.map((t) => [t.raw, t.ref === undefined])).toEqual([
      ['{{#each items}}', true],
      ['{{this}}', true],
      ['{{/each}}', true],
    ]);
    expect(tokens[0]?.error).toContain('unknown template "{{#each items}}"');
  });
});
