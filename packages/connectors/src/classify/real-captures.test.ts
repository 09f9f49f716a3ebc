import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadBuiltinConnectors } from '../loading';
import { satisfiesVersionRange } from '../manifest';

/** What the real CLIs printed, captured by `pnpm test:clis` (see __fixtures__/real/README.md). */
const REAL = fileURLToPath(new URL('../__fixtures__/real/', import.meta.url));
const captures = readdirSync(REAL, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

interface Verdict {
  readonly connector: string;
  readonly version: string;
  readonly kind: string;
  readonly why: string;
  readonly exitCode: number | null;
  readonly signal: string | null;
}

const connectors = new Map(
  (await loadBuiltinConnectors()).connectors.map((loaded) => [
    loaded.connector.connectorId,
    loaded.connector,
  ]),
);

describe('the built-in connectors read what the real CLIs printed', () => {
  it('has a capture of each CLI the conformance suite runs', () => {
    expect(captures.map((name) => name.split('@')[0])).toEqual([
      'claude-code',
      'codex',
      'gemini',
      'opencode',
    ]);
  });

  describe.each(captures)('%s', (name) => {
    const dir = join(REAL, name);
    const verdict = JSON.parse(readFileSync(join(dir, 'verdict.json'), 'utf8')) as Verdict;
    const stdout = readFileSync(join(dir, 'run.stdout'), 'utf8');
    const stderr = readFileSync(join(dir, 'run.stderr'), 'utf8');
    const connector = connectors.get(verdict.connector)!;

    it('is a version inside the connector’s checked range', () => {
      expect(satisfiesVersionRange(verdict.version, connector.cliVersions!.checked)).toBe(true);
    });

    it('parses and classifies as the run’s verdict', () => {
      const parser = connector.createOutputParser();
      parser.push(stdout);
      const parsed = parser.end();
      const outcome = connector.classifyOutcome({
        exitCode: verdict.exitCode,
        signal: verdict.signal,
        parsed,
        stderr,
        now: Date.parse('2026-12-01T12:00:00Z'),
        timeZone: 'UTC',
      });
      expect(outcome.kind).toBe(verdict.kind);
      // An attempt the CLI ended itself is described by the classifier; one bullswarm ended (a
      // watchdog's SIGTERM) by the watchdog.
      if (verdict.signal === null) expect(outcome.message).toBe(verdict.why);
    });

    it('tells progress from noise line by line, and names the network wait it saw', () => {
      const kinds = stdout
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => connector.activity!.classifyLine(line, 'stdout').kind);
      if (verdict.why.includes('no network')) {
        // Codex: progress first (thread and turn started), then only reconnect noise and the wait.
        expect(kinds.slice(0, 2)).toEqual(['progress', 'progress']);
        expect(kinds.slice(2)).not.toContain('progress');
        expect(kinds.at(-1)).toBe('network-wait');
      } else if (kinds.length > 0) {
        // A CLI that ended by itself spoke: its events are progress.
        expect(kinds).toContain('progress');
        expect(kinds).not.toContain('network-wait');
      }
    });
  });
});
