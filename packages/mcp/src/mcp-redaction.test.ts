import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nowEnv, writeTestHome } from '@bullswarm/test-support';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createBullswarmMcpServer } from './create-server';

const NOW = Date.parse('2026-11-30T12:00:00Z');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

// Planted values are assembled at run time so this file carries no token-shaped literal.
const GITHUB = `gh${'p'}_${'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5'}`;
const ANTHROPIC = `sk-ant-${'api03-'}${'Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2'}`;
const AWS = `AK${'IA'}${'Q3EGRVZ5MNX7TY2K'}`;
const PROCESS_SECRET = 'process-secret-value-77';
const POOL_SECRET = 'pool-secret-value-zz9';
const SECRETS = [GITHUB, ANTHROPIC, AWS, PROCESS_SECRET, POOL_SECRET];
const LEAK = `leak ${SECRETS.join(' ')}`;

function texts(result: CallToolResult): string {
  return result.content.map((block) => (block as { text?: string }).text ?? '').join('\n');
}

describe('the MCP server lets no secret out', () => {
  it('tool results (an agent answer, errors echoing input, notices) and the run files it writes are redacted', async () => {
    const home = mkdtempSync(join(tmpdir(), 'bullswarm-mcp-'));
    dirs.push(home);
    writeTestHome(home, {
      now: NOW,
      pools: [
        {
          connector: 'sim',
          account: 'a',
          env: { ACME_API_KEY: POOL_SECRET },
          windows: [{ kind: 'weekly', usedPct: 10, resetsInMin: 5040 }],
          scenario: { default: { scenario: 'ok', answer: LEAK, stderr: LEAK } },
        },
      ],
    });
    const logs: string[] = [];
    const mcp = createBullswarmMcpServer({
      home,
      env: { ...nowEnv(NOW), PATH: process.env.PATH, MY_DEPLOY_TOKEN: PROCESS_SECRET },
      cwd: home,
      userHome: home,
      log: (line) => logs.push(line),
      version: '0.0.0-test',
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcp.server.connect(serverSide);
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      const run = (await client.callTool({
        name: 'run',
        arguments: { lane: 'build', prompt: 'go' },
      })) as CallToolResult;
      expect(run.isError).toBeFalsy();
      const unknown = (await client.callTool({
        name: 'route',
        arguments: { lane: 'build', pool: GITHUB },
      })) as CallToolResult;
      const notify = (await client.callTool({
        name: 'notify',
        arguments: { to: 'lane-b', as: 'lane-a', text: LEAK },
      })) as CallToolResult;
      const inbox = (await client.callTool({ name: 'inbox', arguments: { as: 'lane-b' } })) as CallToolResult;
      const answers = [run, unknown, notify, inbox].map(texts).join('\n');
      for (const secret of SECRETS) expect(answers, secret).not.toContain(secret);
      expect(texts(run)).toContain(
        'leak [redacted github-token] [redacted anthropic-key] [redacted aws-access-key] [redacted env:MY_DEPLOY_TOKEN] [redacted env:ACME_API_KEY]',
      );
      expect(texts(inbox)).toContain('[redacted env:ACME_API_KEY]');
      const [runId] = readdirSync(join(home, 'runs'));
      const runDir = join(home, 'runs', runId as string);
      for (const name of readdirSync(runDir)) {
        const text = readFileSync(join(runDir, name), 'utf8');
        for (const secret of SECRETS) expect(text, `${name}: ${secret}`).not.toContain(secret);
      }
      for (const secret of SECRETS) expect(logs.join('\n')).not.toContain(secret);
    } finally {
      await client.close();
      await mcp.shutdown();
    }
  }, 60_000);
});
