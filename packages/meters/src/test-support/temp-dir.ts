import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { MeterReadContext } from '../sources/meter-reader';

const created: string[] = [];

/** A fresh temp directory, removed after the current test. */
export async function tempDir(prefix = 'bullswarm-meters-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  created.push(dir);
  return dir;
}

afterEach(async () => {
  await Promise.all(created.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A read context with a fixed clock and an empty environment unless given. */
export function readContext(
  overrides: Partial<MeterReadContext> & { readonly at?: number } = {},
): MeterReadContext {
  const at = overrides.at ?? Date.parse('2026-05-23T04:00:00Z');
  return {
    poolId: 'codex',
    account: 'default',
    home: '/nonexistent/bullswarm-home',
    userHome: '/nonexistent/user-home',
    env: {},
    now: () => at,
    ...overrides,
  };
}
