import { describe, expect, it } from 'vitest';
import { MeterTemplateError } from '../errors/meter-template-error';
import { accountOfPoolId, expandTemplate } from './expand-template';

const values = {
  account: 'acme',
  home: '/h/.bullswarm',
  userHome: '/home/me',
  env: { CODEX_HOME: '/codex/acme', EMPTY: '' },
};

describe('expandTemplate', () => {
  it.each([
    ['{{userHome}}/.claude-{{account}}', '/home/me/.claude-acme'],
    ['{{home}}/meters/{{ account }}.json', '/h/.bullswarm/meters/acme.json'],
    ['{{env.CODEX_HOME}}', '/codex/acme'],
    ['{{env.MISSING}}', ''],
    ['{{env.EMPTY}}x', 'x'],
    ['no templates', 'no templates'],
    ['{single} braces stay', '{single} braces stay'],
  ])('%s → %s', (template, expected) => {
    expect(expandTemplate(template, values)).toBe(expected);
  });

  it('throws a MeterTemplateError naming the template, the variable and the valid names', () => {
    const error = (() => {
      try {
        expandTemplate('{{userHome}}/{{acount}}', values);
      } catch (e) {
        return e;
      }
    })();
    expect(MeterTemplateError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ template: '{{userHome}}/{{acount}}', variable: 'acount' });
    expect((error as Error).message).toContain('{{account}}, {{home}}, {{userHome}}, {{env.NAME}}');
    expect(() => expandTemplate('{{env.}}', values)).toThrow(/unknown template variable \{\{env\.\}\}/);
  });
});

describe('accountOfPoolId', () => {
  it.each([
    ['claude-code:acme', 'acme'],
    ['codex', 'default'],
    ['codex:', 'default'],
  ])('%s → %s', (poolId, account) => {
    expect(accountOfPoolId(poolId)).toBe(account);
  });
});
