import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  type ConnectorV1ParsedOutput,
  loadConfiguredConnectors,
  loadConnectors,
  resolveConnector,
} from '@bullswarm/connectors';
import { describe, expect, it } from 'vitest';
import template, { createTemplate } from './index';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const NOW = Date.parse('2026-11-30T12:00:00Z');

function parse(text: string, chunk = 7): ConnectorV1ParsedOutput {
  const parser = template.createOutputParser();
  for (let i = 0; i < text.length; i += chunk) parser.push(text.slice(i, i + chunk));
  return parser.end();
}

describe('bullswarm-connector-template', () => {
  it('is a valid connector-v1', () => {
    expect(resolveConnector(template)).toBe(template);
    expect(template.connectorId).toBe('template');
    expect(template.credentialGroup).toBe('template');
  });

  it('parses its stream whatever the chunk size, never reading tool output', () => {
    const parsed = parse(fixture('success.ndjson'));
    expect(parsed).toEqual(parse(fixture('success.ndjson'), 1));
    expect(parsed).toMatchObject({
      answer: 'Renamed the helper and updated 3 call sites.',
      sessionId: 's-1',
      model: 'tpl-large',
      usage: { inputTokens: 1200, outputTokens: 14 },
      notices: [],
      isError: false,
    });
    expect(parsed.events.kinds).toEqual({ session: 1, delta: 2, tool: 1, done: 1 });
  });

  it('builds the invocation: prompt on stdin, model, workdir, one --allow-dir per directory', () => {
    const connector = createTemplate({ command: '/opt/tpl/bin/template-agent', extraArgs: ['--quiet'] });
    const accountEnv = connector.accountEnv({ account: 'work', bullswarmHome: '/b', userHome: '/home/me' });
    expect(
      connector.buildInvocation({
        prompt: 'Rename the helper',
        model: 'tpl-large',
        cwd: '/repo',
        addDirs: ['/a', '/b'],
        accountEnv,
        bullswarmHome: '/b',
      }),
    ).toEqual({
      command: '/opt/tpl/bin/template-agent',
      args: [
        'run',
        '--stream',
        'ndjson',
        '--quiet',
        '--model',
        'tpl-large',
        '--workdir',
        '/repo',
        '--allow-dir',
        '/a',
        '--allow-dir',
        '/b',
      ],
      env: { TEMPLATE_AGENT_HOME: '/home/me/.template-agent-work' },
      cwd: '/repo',
      stdin: 'Rename the helper',
    });
  });

  it('classifies by machine code, then by bullswarm rules', () => {
    const classify = (parsed: ConnectorV1ParsedOutput, exitCode: number, stderr = '') =>
      template.classifyOutcome({ exitCode, signal: null, parsed, stderr, now: NOW, timeZone: 'UTC' });
    expect(classify(parse(fixture('success.ndjson')), 0).kind).toBe('ok');
    expect(classify(parse(fixture('quota.ndjson')), 1)).toEqual({
      kind: 'quota',
      message: 'usage limit: Monthly allowance used up.',
      evidence: 'Monthly allowance used up.',
      resetsAt: Date.parse('2026-12-01T00:00:00Z'),
    });
    expect(classify(parse(fixture('throttle.ndjson')), 1)).toMatchObject({
      kind: 'throttle',
      waitMs: 30_000,
    });
    expect(classify(parse(''), 1, 'error: session token rejected').kind).toBe('auth');
    expect(classify(parse(''), 0).kind).toBe('empty');
  });

  it('is discovered by name from a project, imported from its build, default unwrapped', async () => {
    const { connectors, errors } = await loadConfiguredConnectors(
      ['bullswarm-connector-template'],
      packageDir,
    );
    expect(errors).toEqual([]);
    expect(connectors.map((c) => [c.connector.connectorId, c.origin, c.source])).toEqual([
      ['template', 'configured', 'bullswarm-connector-template'],
    ]);
    const all = await loadConnectors({
      configEntries: ['bullswarm-connector-template'],
      projectDir: packageDir,
    });
    expect(all.connectors.get('template')?.displayName).toBe('Template agent');
    expect(all.connectors.has('claude-code')).toBe(true);
  });
});
