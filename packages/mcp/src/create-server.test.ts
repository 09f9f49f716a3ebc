import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nowEnv, writeTestHome } from '@bullswarm/test-support';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createBullswarmMcpServer, MCP_TOOL_NAMES } from './create-server';
import { PROGRESS_SEC, resolveProgressIntervalMs } from './progress';

const NOW = Date.parse('2026-11-30T12:00:00Z');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The server in this process, connected to the SDK's client over its in-memory transport. */
async function connected() {
  const home = mkdtempSync(join(tmpdir(), 'bullswarm-mcp-'));
  dirs.push(home);
  writeTestHome(home, {
    now: NOW,
    pools: [
      { connector: 'sim', account: 'a', windows: [{ kind: 'weekly', usedPct: 10, resetsInMin: 5040 }] },
    ],
  });
  const logs: string[] = [];
  const mcp = createBullswarmMcpServer({
    home,
    env: { ...nowEnv(NOW), PATH: process.env.PATH },
    cwd: home,
    userHome: home,
    log: (line) => logs.push(line),
    version: '0.0.0-test',
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await mcp.server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  return { client, mcp, logs };
}

describe('createBullswarmMcpServer', () => {
  it('serves the tools of MCP_TOOL_NAMES, each described and annotated', async () => {
    const { client, mcp } = await connected();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([...MCP_TOOL_NAMES]);
    for (const tool of tools) {
      expect(tool.description).toBeTruthy();
      expect(Object.keys(tool.annotations ?? {}).sort()).toEqual([
        'destructiveHint',
        'idempotentHint',
        'openWorldHint',
        'readOnlyHint',
      ]);
    }
    await client.close();
    await mcp.shutdown();
  });

  it('a bad lane is a tool error in the CLI words; the next call still answers', async () => {
    const { client, mcp } = await connected();
    const bad = (await client.callTool({ name: 'route', arguments: { lane: 'deploy' } })) as CallToolResult;
    expect(bad).toEqual({
      content: [
        { type: 'text', text: 'error: lane "deploy" is not a lane: expected one of analyze, build, chore' },
      ],
      isError: true,
    });
    const ok = (await client.callTool({ name: 'route', arguments: { lane: 'analyze' } })) as CallToolResult;
    expect(ok.isError).toBeFalsy();
    expect((ok.content[0] as { text: string }).text).toMatch(/^OK \[sim:a\] /);
    await client.close();
    await mcp.shutdown();
  });
});

describe('resolveProgressIntervalMs', () => {
  it('takes 0.01 to 3600 seconds; unset is the default; anything else names the variable', () => {
    expect(resolveProgressIntervalMs({})).toBeUndefined();
    expect(resolveProgressIntervalMs({ [PROGRESS_SEC]: '0.05' })).toBe(50);
    expect(resolveProgressIntervalMs({ [PROGRESS_SEC]: '3600' })).toBe(3_600_000);
    for (const value of ['0', '3601', 'soon', '-1']) {
      expect(() => resolveProgressIntervalMs({ [PROGRESS_SEC]: value })).toThrow(PROGRESS_SEC);
    }
  });
});
