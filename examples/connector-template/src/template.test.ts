import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type ConnectorV1ParsedOutput,
  loadConfiguredConnectors,
  resolveConnector,
} from '@bullswarm/connectors';
import { connectorConformanceChecks } from '@bullswarm/connectors/test';
import { describe, expect, it } from 'vitest';
import connector, { createTemplate } from './index';

const fixture = (name: string) => new URL(`./__fixtures__/${name}`, import.meta.url);
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const packageName = (JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { name: string })
  .name;
const NOW = Date.parse('2026-11-30T12:00:00Z');

function parse(text: string, chunk = 7): ConnectorV1ParsedOutput {
  const parser = connector.createOutputParser();
  for (let i = 0; i < text.length; i += chunk) parser.push(text.slice(i, i + chunk));
  return parser.end();
}

// bullswarm's conformance suite: the manifest and connector.json are valid, the package loads as
// `bullswarm connectors add` loads it, and every captured sample classifies as its kind.
describe('conformance', () => {
  for (const check of connectorConformanceChecks({
    connector,
    packageDir,
    manifestFile: join(packageDir, 'connector.json'),
    samples: {
      success: { file: fixture('success.ndjson'), answer: 'Renamed the helper and updated 3 call sites.' },
      usageLimit: { file: fixture('quota.ndjson'), resetsAt: '2026-12-01T00:00:00Z' },
      throttle: { file: fixture('throttle.ndjson'), waitMs: 30_000 },
      signIn: [{ file: fixture('sign-in.ndjson') }, { stdout: '', stderr: 'error: session token rejected' }],
    },
    now: NOW,
  }))
    it(check.name, check.run);
});

describe(packageName, () => {
  it('is a valid connector-v1 named after connector.json', () => {
    expect(resolveConnector(connector)).toBe(connector);
    expect(connector.connectorId).toBe('template');
    expect(connector.credentialGroup).toBe('template');
  });

  it('parses its stream whatever the chunk size, never reading tool output', () => {
    const parsed = parse(readFileSync(fixture('success.ndjson'), 'utf8'));
    expect(parsed).toMatchObject({
      answer: 'Renamed the helper and updated 3 call sites.',
      sessionId: 's-1',
      model: 'template-large',
      usage: { inputTokens: 1200, outputTokens: 14 },
      notices: [],
      isError: false,
    });
    expect(parsed.events.kinds).toEqual({ session: 1, delta: 2, tool: 1, done: 1 });
  });

  it('builds the invocation: prompt on stdin, model, workdir, one --allow-dir per directory', () => {
    const custom = createTemplate({ command: '/opt/bin/template-agent', extraArgs: ['--quiet'] });
    const accountEnv = custom.accountEnv({ account: 'work', bullswarmHome: '/b', userHome: '/home/me' });
    expect(
      custom.buildInvocation({
        prompt: 'Rename the helper',
        model: 'template-large',
        cwd: '/repo',
        addDirs: ['/a', '/b'],
        accountEnv,
        bullswarmHome: '/b',
      }),
    ).toEqual({
      command: '/opt/bin/template-agent',
      args: [
        'run',
        '--stream',
        'ndjson',
        '--quiet',
        '--model',
        'template-large',
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
    expect(custom.meter).toMatchObject({ type: 'command', command: '/opt/bin/template-agent' });
  });

  it('classifies an exit 0 without an answer as empty', () => {
    const outcome = connector.classifyOutcome({
      exitCode: 0,
      signal: null,
      parsed: parse(''),
      stderr: '',
      now: NOW,
      timeZone: 'UTC',
    });
    expect(outcome.kind).toBe('empty');
  });

  it('is discovered by name from a project, imported from its build, default unwrapped', async () => {
    const { connectors, errors } = await loadConfiguredConnectors([packageName], packageDir);
    expect(errors).toEqual([]);
    expect(connectors.map((c) => [c.connector.connectorId, c.origin, c.source])).toEqual([
      ['template', 'configured', packageName],
    ]);
  });
});
