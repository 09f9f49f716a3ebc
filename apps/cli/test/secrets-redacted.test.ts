import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { nowEnv, writeTestHome } from '@bullswarm/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { bullswarm, tempDirs } from './support/cli';

const NOW = Date.parse('2026-11-30T12:00:00Z');
const dirs = tempDirs();
afterEach(() => dirs.cleanup());

// Planted values are assembled at run time so this file carries no token-shaped literal.
const GITHUB = `gh${'p'}_${'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5'}`;
const ANTHROPIC = `sk-ant-${'api03-'}${'Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2'}`;
const AWS = `AK${'IA'}${'Q3EGRVZ5MNX7TY2K'}`;
const PROCESS_SECRET = 'process-secret-value-77';
const POOL_SECRET = 'pool-secret-value-zz9';
const SECRETS = [GITHUB, ANTHROPIC, AWS, PROCESS_SECRET, POOL_SECRET];
const LEAK = `leak ${SECRETS.join(' ')}`;
const MARKED =
  'leak [redacted github-token] [redacted anthropic-key] [redacted aws-access-key] [redacted env:MY_DEPLOY_TOKEN] [redacted env:ACME_API_KEY]';

/** Every file bullswarm wrote under `home` (not the ones the test wrote: state.json, the sims' scenarios). */
function homeFiles(home: string): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.push(path);
    }
  };
  walk(home);
  return files.filter(
    (file) => !['state.json'].includes(relative(home, file)) && !file.endsWith('scenario.json'),
  );
}

function expectClean(text: string, where: string): void {
  for (const secret of SECRETS) expect(text, `${where}: ${secret}`).not.toContain(secret);
}

describe('nothing secret leaves bullswarm', () => {
  it("a token of each shape, the process's and a pool's credential values in an agent's stderr and answer and in inputs: run's terminal and --json, run.json, transcripts, workflow files, the store, notices and an unknown-pool echo are redacted", async () => {
    const root = dirs.make();
    const home = join(root, 'home');
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
    const env = { ...nowEnv(NOW), MY_DEPLOY_TOKEN: PROCESS_SECRET };
    const outputs: string[] = [];
    const cli = async (args: string[]) => {
      const result = await bullswarm(args, { home, cwd: root, env });
      outputs.push(result.stdout, result.stderr);
      return result;
    };

    const run = await cli(['run', '--lane', 'build', 'go']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toContain(MARKED);
    const json = await cli(['run', '--json', '--lane', 'build', 'go']);
    expect(JSON.parse(json.stdout).answer).toContain(MARKED);
    // A crash whose stderr line (the run's why) carries them.
    const crash = await cli(['run', '--lane', 'build', `die [sim:crash,message=${LEAK}]`]);
    expect(crash.exitCode).toBe(1);
    expect(crash.stderr).toContain(MARKED);

    const program = join(root, 'p.json');
    writeFileSync(
      program,
      JSON.stringify({
        schemaVersion: 'bullswarm.workflow.program.v3',
        inputs: { note: { default: 'none' } },
        steps: [{ id: 'a', prompt: 'say {{inputs.note}}' }],
      }),
    );
    const goal = await cli(['workflow', 'goal', program, '--input', `note=${LEAK}`, '--json']);
    expect(goal.exitCode, goal.stderr).toBe(0);
    const notify = await cli(['notify', 'lane-b', LEAK, '--as', 'lane-a']);
    expect(notify.exitCode, notify.stderr).toBe(0);
    const inbox = await cli(['inbox', '--as', 'lane-b', '--json']);
    expect(inbox.stdout).toContain(MARKED);
    for (const secret of SECRETS) {
      const unknown = await cli(['pools', 'disable', secret]);
      expect(unknown.exitCode).toBe(2);
      expect(unknown.stderr).toContain('[redacted ');
    }

    outputs.forEach((text, i) => {
      expectClean(text, `output ${i}`);
    });
    const files = homeFiles(home);
    for (const expected of [
      'run.json',
      'out-run-attempt-1',
      'out-run-attempt-1.stderr',
      'events.jsonl',
      'report.json',
      'program.json',
    ]) {
      expect(
        files.some((file) => file.endsWith(`/${expected}`)),
        expected,
      ).toBe(true);
    }
    // The store too (runs, notices and every other table), read as bytes.
    for (const file of files) expectClean(readFileSync(file, 'latin1'), relative(home, file));
  }, 180_000);
});
