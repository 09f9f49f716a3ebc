import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDirs } from '@bullswarm/test-support/temp-dirs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { defineConnector } from './define-connector';
import { COMMAND_LOOKUP_TTL_MS, clearCommandLookupCache, findCommand } from './find-command';
import { loadBuiltinConnectors } from './loading';
import { minimalManifest } from './test-support/fixtures';

const dirs = tempDirs('bullswarm-find-command-');
afterAll(() => dirs.cleanup());
afterEach(() => clearCommandLookupCache());

describe('findCommand', () => {
  it('reuses a lookup within a process for its TTL, then looks again', () => {
    const bin = join(dirs.make(), 'bin');
    mkdirSync(bin);
    const now = 1_000_000;
    expect(findCommand('codex', bin, now)).toEqual({
      found: false,
      command: 'codex',
      problem: 'codex not on PATH',
    });
    writeFileSync(join(bin, 'codex'), '#!/bin/sh\n');
    chmodSync(join(bin, 'codex'), 0o755);
    // Installed meanwhile: the cached answer stands until the TTL has passed.
    expect(findCommand('codex', bin, now + COMMAND_LOOKUP_TTL_MS - 1).found).toBe(false);
    expect(findCommand('codex', bin, now + COMMAND_LOOKUP_TTL_MS)).toEqual({
      found: true,
      command: 'codex',
      path: join(bin, 'codex'),
    });
  });
});

describe('a manifest connector names the program it runs', () => {
  it('is invocation.command for the built-ins; a templated command is not checked ahead', async () => {
    const builtins = (await loadBuiltinConnectors()).connectors;
    const command = (id: string) => builtins.find((c) => c.connector.connectorId === id)?.connector.command;
    expect(['claude-code', 'codex', 'gemini', 'opencode', 'grok', 'sim'].map(command)).toEqual([
      'claude',
      'codex',
      'gemini',
      'opencode',
      'grok',
      'bullswarm-sim',
    ]);
    const base = minimalManifest();
    const templated = defineConnector({
      manifest: { ...base, invocation: { ...base.invocation, command: '{{env.AGENT_BIN}}' } },
      source: 'test',
    });
    expect(templated.command).toBeUndefined();
  });
});
