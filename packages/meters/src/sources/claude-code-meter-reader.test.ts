import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MeterReadError } from '../errors/meter-read-error';
import { readError } from '../test-support/read-error';
import { readContext, tempDir } from '../test-support/temp-dir';
import { closedLoopbackUrl, startUsageServer } from '../test-support/usage-server';
import { createClaudeCodeMeterReader } from './claude-code-meter-reader';
import { captureClaudeStatusline, claudeStatuslinePath } from './claude-statusline';

const TOKEN = 'sk-ant-oat01-secret-token-value';
const fixtures = new URL('../__fixtures__/claude/', import.meta.url);
const now = Date.parse('2026-01-28T05:00:00Z');

async function fixtureJson(name: string): Promise<unknown> {
  return JSON.parse(await readFile(new URL(name, fixtures), 'utf8'));
}

async function configDirWithCredentials(oauth: Record<string, unknown> = {}): Promise<string> {
  const dir = await tempDir();
  await writeFile(
    join(dir, '.credentials.json'),
    JSON.stringify({
      claudeAiOauth: {
        accessToken: TOKEN,
        refreshToken: 'sk-ant-ort01-refresh',
        expiresAt: now + 3_600_000,
        scopes: ['user:inference', 'user:profile'],
        subscriptionType: 'max',
        ...oauth,
      },
    }),
  );
  return dir;
}

function expectNoToken(error: MeterReadError) {
  const everything = `${error.message} ${error.status} ${error.location} ${JSON.stringify(error)} ${String(error.cause)}`;
  expect(everything).not.toContain(TOKEN);
}

describe('claude-code reader: OAuth usage endpoint (loopback server; the real endpoint is unreachable here)', () => {
  it('reads the documented response sample into five_hour and weekly windows', async () => {
    const server = await startUsageServer();
    server.respond(200, await fixtureJson('oauth-usage.json'));
    const configDir = await configDirWithCredentials();
    const reader = createClaudeCodeMeterReader({ configDir, usageBaseUrl: server.baseUrl });
    const result = await reader.read(readContext({ at: now }));
    expect(result).toEqual({
      kind: 'reading',
      readAt: now,
      windows: [
        {
          kind: 'five_hour',
          usedPct: 61,
          resetsAt: Date.parse('2026-01-28T07:59:59.571Z'),
          windowMinutes: 300,
        },
        {
          kind: 'weekly',
          usedPct: 22,
          resetsAt: Date.parse('2026-02-03T09:59:59.571Z'),
          windowMinutes: 10_080,
        },
      ],
    });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.path).toBe('/api/oauth/usage');
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(server.requests[0]?.headers['anthropic-beta']).toBe('oauth-2025-04-20');
  });

  it('leaves out null windows and keeps a window without reset (before first use)', async () => {
    const server = await startUsageServer();
    server.respond(200, {
      five_hour: null,
      seven_day: { utilization: 0, resets_at: null },
      seven_day_opus: null,
    });
    const reader = createClaudeCodeMeterReader({
      configDir: await configDirWithCredentials(),
      usageBaseUrl: server.baseUrl,
    });
    const result = await reader.read(readContext({ at: now }));
    expect(result.kind === 'reading' && result.windows).toEqual([
      { kind: 'weekly', usedPct: 0, windowMinutes: 10_080 },
    ]);
  });

  it.each([
    [429, 'http 429', true],
    [401, 'http 401', false],
    [403, 'http 403', false],
    [503, 'http 503', true],
  ])('turns HTTP %i into a typed read error (%s) without the token', async (status, text, retryable) => {
    const server = await startUsageServer();
    server.respond(status, { type: 'error', error: { type: 'rate_limit_error', message: 'nope' } });
    const reader = createClaudeCodeMeterReader({
      configDir: await configDirWithCredentials(),
      usageBaseUrl: server.baseUrl,
    });
    const error = await readError(reader.read(readContext({ at: now })));
    expect(error).toMatchObject({
      sourceType: 'claude-code',
      reason: 'http-status',
      status: text,
      httpStatus: status,
      isRetryable: retryable,
      location: `${server.baseUrl}/api/oauth/usage`,
    });
    expectNoToken(error);
  });

  it('names the field of a malformed 200 answer', async () => {
    const server = await startUsageServer();
    server.respond(200, { five_hour: { utilization: 'high', resets_at: null } });
    const reader = createClaudeCodeMeterReader({
      configDir: await configDirWithCredentials(),
      usageBaseUrl: server.baseUrl,
    });
    const error = await readError(reader.read(readContext({ at: now })));
    expect(error).toMatchObject({ reason: 'bad-response', fieldPath: 'five_hour.utilization' });
  });

  it('reports an unreachable endpoint as a network error', async () => {
    const closedUrl = await closedLoopbackUrl();
    const reader = createClaudeCodeMeterReader({
      configDir: await configDirWithCredentials(),
      usageBaseUrl: closedUrl,
    });
    const error = await readError(reader.read(readContext({ at: now })));
    expect(error).toMatchObject({
      reason: 'network',
      status: 'usage endpoint unreachable',
      isRetryable: true,
    });
    expectNoToken(error);
  });

  it('checks the stored token before calling: expired, missing scope, missing file', async () => {
    const server = await startUsageServer();
    server.respond(200, await fixtureJson('oauth-usage.json'));
    const read = async (configDir: string) =>
      readError(
        createClaudeCodeMeterReader({ configDir, usageBaseUrl: server.baseUrl }).read(
          readContext({ at: now }),
        ),
      );

    const expired = await read(await configDirWithCredentials({ expiresAt: now - 1 }));
    expect(expired).toMatchObject({ reason: 'token-expired', status: 'oauth token expired' });
    const scoped = await read(await configDirWithCredentials({ scopes: ['user:inference'] }));
    expect(scoped).toMatchObject({
      reason: 'missing-scope',
      status: 'missing scope user:profile',
      isRetryable: false,
    });
    const emptyDir = await tempDir();
    const missing = await read(emptyDir);
    expect(missing).toMatchObject({
      reason: 'no-credentials',
      location: join(emptyDir, '.credentials.json'),
    });
    const noToken = await tempDir();
    await writeFile(join(noToken, '.credentials.json'), '{"claudeAiOauth":{}}');
    expect(await read(noToken)).toMatchObject({
      reason: 'no-credentials',
      fieldPath: 'claudeAiOauth.accessToken',
    });
    for (const error of [expired, scoped]) expectNoToken(error);
    expect(server.requests).toHaveLength(0);
  });

  it('finds the config dir through $CLAUDE_CONFIG_DIR and ~/.claude when the source leaves it empty', async () => {
    const server = await startUsageServer();
    server.respond(200, await fixtureJson('oauth-usage.json'));
    const configDir = await configDirWithCredentials();
    const viaEnv = await createClaudeCodeMeterReader({
      configDir: '{{env.CLAUDE_CONFIG_DIR}}',
      usageBaseUrl: server.baseUrl,
    }).read(readContext({ at: now, env: { CLAUDE_CONFIG_DIR: configDir } }));
    expect(viaEnv.kind).toBe('reading');
    const viaEnvFallback = await createClaudeCodeMeterReader({
      configDir: '',
      usageBaseUrl: server.baseUrl,
    }).read(readContext({ at: now, env: { CLAUDE_CONFIG_DIR: configDir } }));
    expect(viaEnvFallback.kind).toBe('reading');
    expect(server.requests).toHaveLength(2);
    const userHome = await tempDir();
    const error = await readError(
      createClaudeCodeMeterReader({ configDir: '', usageBaseUrl: server.baseUrl }).read(
        readContext({ at: now, userHome }),
      ),
    );
    expect(error.location).toBe(join(userHome, '.claude', '.credentials.json'));
  });
});

describe('claude-code reader: statusLine capture', () => {
  it('captureClaudeStatusline writes a bullswarm reading from statusLine stdin (epoch seconds)', async () => {
    const configDir = await tempDir();
    const stdin = await readFile(new URL('statusline-stdin.json', fixtures), 'utf8');
    const written = await captureClaudeStatusline(stdin, configDir, { now: () => now });
    const onDisk = JSON.parse(await readFile(claudeStatuslinePath(configDir), 'utf8'));
    expect(onDisk).toEqual(written);
    expect(onDisk).toEqual({
      readAt: new Date(now).toISOString(),
      windows: [
        { kind: 'five_hour', usedPct: 23.5, resetsAt: 1_738_425_600_000 },
        { kind: 'weekly', usedPct: 41, resetsAt: 1_738_857_600_000 },
      ],
    });
  });

  it('leaves the capture alone when stdin has no rate_limits, and rejects non-JSON stdin', async () => {
    const configDir = await tempDir();
    await captureClaudeStatusline(
      { rate_limits: { five_hour: { used_percentage: 5, resets_at: 1738425600 } } },
      configDir,
      {
        now: () => now,
      },
    );
    const before = await readFile(claudeStatuslinePath(configDir), 'utf8');
    expect(await captureClaudeStatusline('{"model":{"id":"x"}}', configDir)).toBeUndefined();
    expect(await readFile(claudeStatuslinePath(configDir), 'utf8')).toBe(before);
    await expect(captureClaudeStatusline('not json', configDir)).rejects.toThrow(
      /statusLine stdin is not JSON/,
    );
  });

  it('uses a fresh capture without calling the endpoint, and the endpoint once it is older', async () => {
    const server = await startUsageServer();
    server.respond(200, await fixtureJson('oauth-usage.json'));
    const configDir = await configDirWithCredentials();
    await captureClaudeStatusline(
      await readFile(new URL('statusline-stdin.json', fixtures), 'utf8'),
      configDir,
      {
        now: () => now,
      },
    );
    const reader = createClaudeCodeMeterReader({
      configDir,
      usageBaseUrl: server.baseUrl,
      statuslineMaxAgeMs: 60_000,
    });
    const fresh = await reader.read(readContext({ at: now + 60_000 }));
    expect(fresh.kind === 'reading' && fresh.windows.map((w) => w.usedPct)).toEqual([23.5, 41]);
    expect(server.requests).toHaveLength(0);
    const old = await reader.read(readContext({ at: now + 60_001 }));
    expect(old.kind === 'reading' && old.windows.map((w) => w.usedPct)).toEqual([61, 22]);
    expect(server.requests).toHaveLength(1);
  });

  it('falls back to an old capture when the account has no credentials file (keychain logins)', async () => {
    const configDir = await tempDir();
    await captureClaudeStatusline(
      { rate_limits: { seven_day: { used_percentage: 70, resets_at: 1738857600 } } },
      configDir,
      {
        now: () => now,
      },
    );
    const result = await createClaudeCodeMeterReader({ configDir, statuslineMaxAgeMs: 1 }).read(
      readContext({ at: now + 86_400_000 }),
    );
    expect(result).toEqual({
      kind: 'reading',
      readAt: now,
      windows: [{ kind: 'weekly', usedPct: 70, resetsAt: 1_738_857_600_000, windowMinutes: 10_080 }],
    });
  });
});
