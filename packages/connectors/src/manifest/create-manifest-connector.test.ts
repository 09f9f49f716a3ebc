import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDirs } from '@bullswarm/test-support/temp-dirs';
import { afterAll, describe, expect, it } from 'vitest';
import { SIM_CLI_PATH } from '../bundled-command';
import { ConnectorTemplateError } from '../errors';
import { loadBuiltinConnectors } from '../loading';
import type { ConnectorV1Request } from '../spec/v1';
import { minimalManifest } from '../test-support/fixtures';
import { findCallerMarker, isCallerEnv, isCallerMarker } from './caller-markers';
import { connectorManifestSchema } from './connector-manifest-schema';
import {
  createManifestConnector,
  defaultModelForTier,
  type ManifestConnector,
  poolCredentialGroup,
  renderMeterSource,
} from './create-manifest-connector';

const scratchDirs = tempDirs();
afterAll(() => scratchDirs.cleanup());

const builtins = new Map(
  (await loadBuiltinConnectors()).connectors.map((loaded) => [
    loaded.connector.connectorId,
    loaded.connector as ManifestConnector,
  ]),
);
const get = (id: string) => {
  const connector = builtins.get(id);
  if (!connector) throw new Error(`no builtin ${id}`);
  return connector;
};

const request = (overrides: Partial<ConnectorV1Request> = {}): ConnectorV1Request => ({
  prompt: 'Fix the failing test',
  model: 'm-1',
  cwd: '/work/repo',
  addDirs: ['/work/shared', '/work/docs'],
  accountEnv: {},
  bullswarmHome: '/home/me/.bullswarm',
  userHome: '/home/me',
  ...overrides,
});

describe('buildInvocation of the built-in providers', () => {
  it('claude-code: claude -p PROMPT --output-format stream-json --verbose --model --add-dir…', () => {
    const claude = get('claude-code');
    const accountEnv = claude.accountEnv({
      account: 'acme',
      bullswarmHome: '/home/me/.bullswarm',
      userHome: '/home/me',
    });
    expect(accountEnv).toEqual({ CLAUDE_CONFIG_DIR: '/home/me/.claude-acme' });
    expect(
      claude.buildInvocation(
        request({ accountEnv, account: 'acme', extraEnv: { BULLSWARM_POOL: 'claude-code:acme' } }),
      ),
    ).toEqual({
      command: 'claude',
      args: [
        '--permission-mode',
        'acceptEdits',
        '-p',
        'Fix the failing test',
        '--output-format',
        'stream-json',
        '--verbose',
        '--model',
        'm-1',
        '--add-dir',
        '/work/shared',
        '--add-dir',
        '/work/docs',
      ],
      env: { CLAUDE_CONFIG_DIR: '/home/me/.claude-acme', BULLSWARM_POOL: 'claude-code:acme' },
      cwd: '/work/repo',
    });
  });

  it('codex: codex exec … --json --skip-git-repo-check -m -C --add-dir -- PROMPT, stdin unused', () => {
    const invocation = get('codex').buildInvocation(request({ prompt: '--help is not a flag here' }));
    expect(invocation.command).toBe('codex');
    expect(invocation.args).toEqual([
      'exec',
      '--sandbox',
      'workspace-write',
      '--json',
      '--skip-git-repo-check',
      '-m',
      'm-1',
      '-C',
      '/work/repo',
      '--add-dir',
      '/work/shared',
      '--add-dir',
      '/work/docs',
      '--',
      '--help is not a flag here',
    ]);
    expect(invocation.stdin).toBeUndefined();
  });

  it('gemini, opencode and grok', () => {
    expect(get('gemini').buildInvocation(request({ addDirs: [] })).args).toEqual([
      '--approval-mode',
      'auto_edit',
      // Gemini CLI 0.61 overrides the approval mode to "default" in an untrusted folder without it.
      '--skip-trust',
      '-p',
      'Fix the failing test',
      '-o',
      'stream-json',
      '-m',
      'm-1',
    ]);
    expect(get('opencode').buildInvocation(request({ model: 'opencode/big-pickle' })).args).toEqual([
      'run',
      '--format',
      'json',
      '-m',
      'opencode/big-pickle',
      'Fix the failing test',
    ]);
    expect(get('grok').buildInvocation(request({ model: undefined, addDirs: [] })).args).toEqual([
      '--no-auto-update',
      '-p',
      'Fix the failing test',
      '--output-format',
      'json',
      '--cwd',
      '/work/repo',
    ]);
  });

  it('echo and sim run the bundled sim through the current node, with no PATH lookup', () => {
    const echo = get('echo').buildInvocation(request({ addDirs: [] }));
    expect(echo.command).toBe(process.execPath);
    expect(echo.args).toEqual([
      SIM_CLI_PATH,
      '--format',
      'text',
      '--cwd',
      '/work/repo',
      '-p',
      'Fix the failing test',
    ]);
    expect(echo.env).toEqual({ BULLSWARM_SIM_SCENARIO: 'echo', BULLSWARM_SIM_HOME: '' });
    const sim = get('sim');
    const accountEnv = sim.accountEnv({ account: 'default', bullswarmHome: '/b', userHome: '/home/me' });
    expect(accountEnv).toEqual({ BULLSWARM_SIM_HOME: '/b/sim/default' });
    expect(sim.accountEnv({ account: 'acme', bullswarmHome: '/b', userHome: '/home/me' })).toEqual({
      BULLSWARM_SIM_HOME: '/b/sim/acme',
    });
    expect(sim.buildInvocation(request({ accountEnv, addDirs: ['/x'] })).args).toEqual([
      SIM_CLI_PATH,
      '--format',
      'claude',
      '-p',
      'Fix the failing test',
      '--output-format',
      'stream-json',
      '--verbose',
      '--model',
      'm-1',
      '--cwd',
      '/work/repo',
      '--add-dir',
      '/x',
    ]);
  });

  it('is pure: same request, same invocation; no model means no model flag', () => {
    const claude = get('claude-code');
    expect(claude.buildInvocation(request())).toEqual(claude.buildInvocation(request()));
    expect(claude.buildInvocation(request({ model: undefined })).args).not.toContain('--model');
  });
});

describe('manifest connector fields', () => {
  it('carries the manifest data, with the credential group defaulting to the id', () => {
    const claude = get('claude-code');
    expect(claude).toMatchObject({
      specificationVersion: 'connector-v1',
      connectorId: 'claude-code',
      providerFamily: 'anthropic',
      credentialGroup: 'claude-code',
      pacingWindow: 'weekly',
      hasFiveHourWindow: true,
      callerEnv: ['CLAUDECODE'],
    });
    expect(poolCredentialGroup(claude)).toBe('claude-code:default');
    expect(poolCredentialGroup(claude, 'acme')).toBe('claude-code:acme');
    expect(defaultModelForTier(claude, 'high')).toBe('opus');
    expect(defaultModelForTier(get('sim'), 'low')).toBe('sim/lite:free');
    expect(get('sim').modelProfiles.low?.[0]).toEqual({ model: 'sim/lite:free', free: true, default: true });
    expect(defaultModelForTier(claude, 'extreme')).toBeUndefined();
  });

  it('picks the meter per account and renders its templates', () => {
    const claude = get('claude-code');
    expect(claude.experimental_meterForAccount?.('acme')).toEqual({
      type: 'claude-code',
      configDir: '{{env.CLAUDE_CONFIG_DIR}}',
    });
    expect(get('sim').experimental_meterForAccount?.('default')).toEqual(get('sim').meter);
    expect(claude.meterForAccount('default')).toEqual({
      type: 'claude-code',
      configDir: '{{userHome}}/.claude',
    });
    expect(
      renderMeterSource('claude-code', claude.meterForAccount('acme'), {
        env: { CLAUDE_CONFIG_DIR: '/h/.claude-acme' },
      }),
    ).toEqual({
      type: 'claude-code',
      configDir: '/h/.claude-acme',
    });
    const sim = get('sim');
    expect(
      renderMeterSource('sim', sim.meterForAccount('default'), {
        env: { BULLSWARM_SIM_HOME: '/b/sim/default' },
      }),
    ).toEqual({
      type: 'file',
      path: '/b/sim/default/meter.json',
    });
    expect(() => renderMeterSource('sim', sim.meter, { env: {} })).toThrow(ConnectorTemplateError);
  });

  it('tells the caller from its environment markers', () => {
    expect(isCallerEnv(get('claude-code'), { CLAUDECODE: '1' })).toBe(true);
    expect(isCallerEnv(get('claude-code'), { CLAUDECODE: '' })).toBe(false);
    expect(isCallerEnv(get('codex'), { CODEX_THREAD_ID: 't' })).toBe(true);
    expect(isCallerEnv(get('codex'), { CLAUDECODE: '1' })).toBe(false);
    const prefixed = createManifestConnector(
      connectorManifestSchema.parse({ ...minimalManifest(), callerEnv: ['FOO_AGENT_*'] }),
      { sourcePath: 'x' },
    );
    expect(isCallerEnv(prefixed, { FOO_AGENT_SESSION: 'abc' })).toBe(true);
    expect(isCallerEnv(prefixed, { FOO_AGENTS: 'abc' })).toBe(false);
    // One rule for recognising the caller and for stripping its variables from an agent's env.
    expect(findCallerMarker(['X', 'FOO_AGENT_*'], { X: '', FOO_AGENT_ID: '1' })).toBe('FOO_AGENT_*');
    expect(findCallerMarker(['FOO_AGENT_*'], { FOO_AGENT_ID: '' })).toBeUndefined();
    expect(isCallerMarker('FOO_AGENT_ID', ['FOO_AGENT_*'])).toBe(true);
    expect(isCallerMarker('FOO_AGENTS', ['FOO_AGENT_*'])).toBe(false);
    expect(isCallerMarker('CLAUDECODE', ['CLAUDECODE'])).toBe(true);
  });

  it('throws a ConnectorTemplateError naming the template when an env value is missing', () => {
    const connector = createManifestConnector(
      connectorManifestSchema.parse({
        ...minimalManifest(),
        invocation: { command: 'foo', args: ['--home', '{{env.FOO_HOME}}'], prompt: { mode: 'stdin' } },
      }),
      { sourcePath: 'x' },
    );
    expect(() => connector.buildInvocation(request())).toThrow(
      'connector "foo": template "{{env.FOO_HOME}}": {{env.FOO_HOME}} has no value (the variable is not set in the account or extra env)',
    );
    expect(connector.buildInvocation(request({ accountEnv: { FOO_HOME: '/f' } }))).toMatchObject({
      args: ['--home', '/f'],
      stdin: 'Fix the failing test',
    });
  });
});

describe('detect', () => {
  it('finds the binary on PATH and accounts from the globs', async () => {
    const root = scratchDirs.make('bullswarm-detect-');
    const bin = join(root, 'bin');
    const home = join(root, 'home');
    mkdirSync(bin);
    mkdirSync(join(home, '.claude-acme'), { recursive: true });
    mkdirSync(join(home, '.claude-zeta'), { recursive: true });
    mkdirSync(join(home, '.claude'), { recursive: true });
    writeFileSync(join(bin, 'claude'), '#!/bin/sh\n');
    chmodSync(join(bin, 'claude'), 0o755);
    const claude = get('claude-code');
    const found = await claude.detect?.({
      path: `/nonexistent:${bin}`,
      userHome: home,
      bullswarmHome: join(root, 'b'),
    });
    expect(found).toEqual({
      binaryPath: join(bin, 'claude'),
      accounts: [
        { account: 'default', evidencePath: join(bin, 'claude') },
        { account: 'acme', evidencePath: join(home, '.claude-acme') },
        { account: 'zeta', evidencePath: join(home, '.claude-zeta') },
      ],
    });
    const none = await get('codex').detect?.({ path: bin, userHome: home, bullswarmHome: root });
    expect(none).toEqual({ accounts: [] });
  });
});
