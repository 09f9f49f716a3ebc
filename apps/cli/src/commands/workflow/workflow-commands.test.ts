import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nowEnv, requireTmux, runTmuxTests, type TestPool, writeTestHome } from '@bullswarm/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { bullswarm, CLI_PATH, startBullswarm, tempDirs } from '../../../test/support/cli';

const NOW = Date.parse('2026-11-30T12:00:00Z');
const V = 'bullswarm.workflow.program.v3';
const EXAMPLES = new URL('../../../../../examples/workflows/', import.meta.url).pathname;
const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const weekly = (usedPct: number) => [{ kind: 'weekly' as const, usedPct, resetsInMin: 5040 }];

/** A home with sim pools, a work tree and a sim log. */
function workflowHome(pools: TestPool[]) {
  const root = dirs.make('bullswarm-cli-workflow-');
  const home = join(root, 'home');
  const work = join(root, 'work');
  mkdirSync(work, { recursive: true });
  writeTestHome(home, { now: NOW, pools });
  const env = { ...nowEnv(NOW), BULLSWARM_SIM_LOG: join(root, 'sim.log') };
  const run = (args: string[], extraEnv: Record<string, string> = {}) =>
    bullswarm(args, { home, env: { ...env, ...extraEnv }, cwd: work });
  const write = (name: string, json: unknown) => {
    const file = join(root, name);
    writeFileSync(file, JSON.stringify(json, null, 2));
    return file;
  };
  return { root, home, work, run, write };
}

function events(stdout: string): { type: string; [key: string]: unknown }[] {
  return stdout
    .trim()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
}

describe('bullswarm workflow validate', () => {
  it('exits 0 for a valid program', async () => {
    const h = workflowHome([{ connector: 'sim', account: 'a', windows: weekly(10) }]);
    const result = await h.run(['workflow', 'validate', join(EXAMPLES, 'docs-write-review.json')]);
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    expect(result.stdout).toMatch(/^ok: .*docs-write-review\.json · 2 steps in 2 levels\n$/);
  });

  it('exits 2 with every problem and its JSON path, checking the home’s pools', async () => {
    const h = workflowHome([{ connector: 'sim', account: 'a', windows: weekly(10) }]);
    const file = h.write('bad.json', {
      schemaVersion: V,
      steps: [
        { id: 'a', prompt: '{{item}}', lane: 'deploy', route: { pools: { use: ['sim:zz'] } } },
        { id: 'a', prompt: 'x', dependsOn: ['ghost'] },
      ],
    });
    const result = await h.run(['workflow', 'validate', file]);
    expect(result).toMatchObject({ exitCode: 2, stdout: '' });
    const lines = result.stderr.trim().split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        `error: ${file}: $.steps[0].lane: unknown lane "deploy"; expected one of analyze, build, chore`,
        expect.stringMatching(
          /^error: .*: \$\.steps\[0\]\.route\.pools\.use\[0\]: unknown pool "sim:zz"; this home has sim:a$/,
        ),
        expect.stringMatching(
          /: \$\.steps\[0\]\.prompt: \{\{item\}\} is only available in a step with forEach$/,
        ),
        expect.stringMatching(/: \$\.steps\[1\]\.id: duplicate step id "a"/),
        expect.stringMatching(/: \$\.steps\[1\]\.dependsOn\[0\]: dependsOn names "ghost"/),
      ]),
    );
    expect(lines.at(-1)).toBe(`5 problems in ${file}`);
    const json = await h.run(['workflow', 'validate', file, '--json']);
    expect(json.exitCode).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, file, problems: expect.any(Array) });
  });

  it('exits 2 naming the file when it is not JSON', async () => {
    const h = workflowHome([]);
    const file = join(h.root, 'broken.json');
    writeFileSync(file, '{"schemaVersion": ');
    const result = await h.run(['workflow', 'validate', file]);
    expect(result).toMatchObject({ exitCode: 2, stdout: '' });
    expect(result.stderr).toMatch(new RegExp(`^error: program file ${file} is not valid JSON`));
  });
});

describe('workflow program errors go to stderr with the error: prefix', () => {
  it('a missing file, bad JSON, a cycle, an unknown dependsOn; --json gives a missing file its own kind', async () => {
    const h = workflowHome([{ connector: 'sim', account: 'a', windows: weekly(10) }]);
    const nope = join(h.root, 'nope.json');
    const missing = await h.run(['workflow', 'goal', nope]);
    expect(missing).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: `error: program file ${nope} does not exist\n`,
    });
    const missingJson = await h.run(['workflow', 'goal', nope, '--json']);
    expect(missingJson).toMatchObject({ exitCode: 2, stderr: '' });
    expect(JSON.parse(missingJson.stdout)).toEqual({
      ok: false,
      file: nope,
      problems: [{ path: '$', kind: 'missing-file', message: `program file ${nope} does not exist` }],
    });
    const broken = join(h.root, 'broken.json');
    writeFileSync(broken, '{"schemaVersion": ');
    const bad = await h.run(['workflow', 'goal', broken]);
    expect(bad).toMatchObject({ exitCode: 2, stdout: '' });
    expect(bad.stderr).toMatch(/^error: program file .*broken\.json is not valid JSON/);
    expect(JSON.parse((await h.run(['workflow', 'goal', broken, '--json'])).stdout).problems[0].kind).toBe(
      'invalid-json',
    );
    const cycle = h.write('cycle.json', {
      schemaVersion: V,
      steps: [
        { id: 'a', prompt: 'x', dependsOn: ['b'] },
        { id: 'b', prompt: 'y', dependsOn: ['a'] },
        { id: 'c', prompt: 'z', dependsOn: ['ghost'] },
      ],
    });
    const result = await h.run(['workflow', 'goal', cycle]);
    expect(result).toMatchObject({ exitCode: 2, stdout: '' });
    const lines = result.stderr.trim().split('\n');
    expect(lines.filter((line) => line.startsWith(`error: ${cycle}: $.steps[`))).toHaveLength(
      lines.length - 1,
    );
    expect(result.stderr).toMatch(/cycle/);
    expect(result.stderr).toMatch(/dependsOn names "ghost"/);
    expect(lines.at(-1)).toMatch(/^\d+ problems in /);
  });
});

describe('bullswarm check-output-schema', () => {
  it('exits 0 for a match, 1 with the mismatches, 2 for bad input', async () => {
    const h = workflowHome([]);
    const schema = h.write('schema.json', {
      type: 'object',
      required: ['files'],
      properties: { files: { type: 'array', items: { type: 'string' } } },
    });
    const good = h.write('good.json', { files: ['a.ts'] });
    const bad = h.write('bad.json', { files: [1, 'b'] });
    expect((await h.run(['check-output-schema', schema, good])).exitCode).toBe(0);
    const mismatch = await h.run(['check-output-schema', schema, bad]);
    expect(mismatch.exitCode).toBe(1);
    expect(mismatch.stdout).toContain('$.files[0]: expected string, got integer 1');
    const missing = await h.run(['check-output-schema', schema, join(h.root, 'nope.json')]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('nope.json does not exist');
  });
});

describe('bullswarm workflow goal, list, show, watch', () => {
  it('runs the shipped example: JSONL events off a terminal, then list, show and watch see it', async () => {
    const h = workflowHome([
      {
        connector: 'sim',
        account: 'a',
        windows: weekly(10),
        scenario: {
          sequence: [{ scenario: 'write', file: 'README.md', content: '# Demo\n' }],
          default: { scenario: 'ok', answer: '1. ok 2. ok — no findings' },
        },
      },
    ]);
    const result = await h.run([
      'workflow',
      'goal',
      join(EXAMPLES, 'docs-write-review.json'),
      '--input',
      'subject=demo',
    ]);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const lines = events(result.stdout);
    expect(lines[0]).toMatchObject({ type: 'run.started', name: 'docs-write-review' });
    expect(lines.at(-1)).toMatchObject({ type: 'run.finished', status: 'finished' });
    expect(lines.filter((event) => event.type === 'step.finished').map((e) => [e.step, e.status])).toEqual([
      ['write-docs', 'ok'],
      ['review-docs', 'ok'],
    ]);
    expect(readFileSync(join(h.work, 'README.md'), 'utf8')).toBe('# Demo\n');
    const runId = lines[0]?.runId as string;

    const list = await h.run(['workflow', 'list']);
    expect(list.exitCode).toBe(0);
    expect(list.stdout).toMatch(
      new RegExp(`^${runId}\\s+docs-write-review\\s+ok\\s+✓ 2 ✗ 0 ↩ 0 ⋈ 0\\s+2026-`, 'm'),
    );

    const show = await h.run(['workflow', 'show', runId]);
    expect(show.exitCode).toBe(0);
    expect(show.stdout).toContain('▐ level 1/2 · write-docs');
    expect(show.stdout).toMatch(/✓ write-docs\s+sim:a/);
    const report = JSON.parse((await h.run(['workflow', 'show', runId, '--json'])).stdout);
    expect(report).toMatchObject({ runId, outcome: 'ok', exitCode: 0, counts: { ok: 2 } });
    expect(existsSync(join(h.home, 'workflows', runId, 'report.json'))).toBe(true);

    const watch = await h.run(['workflow', 'watch', runId]);
    expect(watch.exitCode).toBe(0);
    expect(events(watch.stdout)).toEqual(lines);
  });

  it('a fan-out at concurrency 64 with a gate per item prints no MaxListenersExceededWarning', async () => {
    const h = workflowHome([{ connector: 'sim', account: 'a', windows: weekly(10) }]);
    // 64 units in flight at once on the run's one stop signal: each agent, backoff wait and gate
    // listens for it while it runs. The gate holds each unit a while, so the gates overlap.
    const file = h.write('wide.json', {
      schemaVersion: V,
      settings: { concurrency: 64 },
      steps: [
        {
          id: 'each',
          prompt: 'item {{item}}',
          gate: 'sleep 1',
          forEach: { items: Array.from({ length: 64 }, (_, i) => i) },
        },
      ],
    });
    const result = await h.run(['workflow', 'goal', file, '--json']);
    expect(result.stderr).not.toContain('MaxListenersExceededWarning');
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ outcome: 'ok', counts: { ok: 64 } });
  });

  it('watch of a live run polls many times without a MaxListenersExceededWarning', async () => {
    const h = workflowHome([
      {
        connector: 'sim',
        account: 'a',
        windows: weekly(10),
        scenario: { default: { scenario: 'slow', ms: 1500, tickMs: 100 } },
      },
    ]);
    const file = h.write('p.json', { schemaVersion: V, steps: [{ id: 'slow', prompt: 'Take your time' }] });
    const goal = startBullswarm(['workflow', 'goal', file, '--json'], {
      home: h.home,
      env: { ...nowEnv(NOW), BULLSWARM_SIM_LOG: join(h.root, 'sim.log') },
      cwd: h.work,
    });
    const workflows = join(h.home, 'workflows');
    let runId: string | undefined;
    for (let i = 0; i < 1000 && runId === undefined; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      runId = existsSync(workflows)
        ? readdirSync(workflows).find((name) => {
            const state = join(workflows, name, 'state.json');
            return existsSync(state) && readFileSync(state, 'utf8').includes('"owner"');
          })
        : undefined;
    }
    expect(runId).toBeDefined();
    // A 2 ms poll over a 1.5 s step: hundreds of sleeps on the one abort signal of the command.
    const watch = await h.run(['workflow', 'watch', runId as string], {
      BULLSWARM_WORKFLOW_WATCH_POLL_SEC: '0.002',
    });
    const finished = await goal;
    expect(finished.exitCode).toBe(0);
    expect(watch.stderr).not.toContain('MaxListenersExceededWarning');
    expect(watch.stderr).toBe('');
    expect(watch.exitCode).toBe(0);
    expect(events(watch.stdout).at(-1)).toMatchObject({ type: 'run.finished', status: 'finished' });
    expect(events(watch.stdout).filter((event) => event.type === 'attempt.started')).toHaveLength(1);

    const bad = await h.run(['workflow', 'watch', runId as string], {
      BULLSWARM_WORKFLOW_WATCH_POLL_SEC: 'soon',
    });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('BULLSWARM_WORKFLOW_WATCH_POLL_SEC="soon" is not valid');
    // Past what a Node timer holds (it would fire every 1 ms): refused with the range, not a busy poll.
    const huge = await h.run(['workflow', 'watch', runId as string], {
      BULLSWARM_WORKFLOW_WATCH_POLL_SEC: '3000000',
    });
    expect(huge.exitCode).toBe(2);
    expect(huge.stderr).toContain(
      'BULLSWARM_WORKFLOW_WATCH_POLL_SEC="3000000" is not valid: expected a number of seconds from 0.001 to 60',
    );
    expect(huge.stderr).not.toContain('TimeoutOverflowWarning');
    const help = await h.run(['workflow', 'watch', '--help']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain('BULLSWARM_WORKFLOW_WATCH_POLL_SEC');
    expect(help.stdout).toContain('from 0.001 to 60');
  });

  it('show and watch refuse a blind step of the same run (its worker env), and nothing else', async () => {
    const h = workflowHome([
      {
        connector: 'sim',
        account: 'a',
        windows: weekly(10),
        scenario: {
          sequence: [{ scenario: 'ok', answer: 'the writer says SECRET-42' }],
          default: { scenario: 'ok', answer: '1. ok' },
        },
      },
    ]);
    const file = h.write('p.json', {
      schemaVersion: V,
      steps: [
        { id: 'writer', prompt: 'Write' },
        { id: 'review', dependsOn: ['writer'], blindTo: ['writer'], prompt: 'Review' },
      ],
    });
    const run = JSON.parse((await h.run(['workflow', 'goal', file, '--json'])).stdout);
    expect(run.outcome).toBe('ok');
    const blind = { BULLSWARM_WORKFLOW_RUN: run.runId, BULLSWARM_WORKFLOW_STEP: 'review' };
    for (const args of [
      ['workflow', 'show', run.runId],
      ['workflow', 'show', run.runId, '--json'],
      ['workflow', 'watch', run.runId],
    ]) {
      const refused = await h.run(args, blind);
      expect(refused.exitCode).toBe(2);
      expect(refused.stdout).not.toContain('SECRET-42');
      expect(refused.stderr).toContain(
        `refused: this process runs the blind step review of run ${run.runId} (blind to writer)`,
      );
    }
    // The writer's own step, or a worker of another run, is not blind to anything here: off a
    // terminal, watch replays the events, the writer's answer preview among them.
    const writer = await h.run(['workflow', 'watch', run.runId], {
      ...blind,
      BULLSWARM_WORKFLOW_STEP: 'writer',
    });
    expect(writer.exitCode).toBe(0);
    expect(writer.stdout).toContain('SECRET-42');
    const other = await h.run(['workflow', 'show', run.runId, '--json'], {
      ...blind,
      BULLSWARM_WORKFLOW_RUN: 'wf-other1',
    });
    expect(other.exitCode).toBe(0);
  });

  it('--json prints only the report; a step that came back exits 1', async () => {
    const h = workflowHome([
      {
        connector: 'sim',
        account: 'a',
        windows: weekly(10),
        scenario: { default: { scenario: 'usage-limit', resetsInMin: 30 } },
      },
    ]);
    const file = h.write('p.json', {
      schemaVersion: V,
      name: 'limited',
      steps: [{ id: 'try', prompt: 'Try' }],
    });
    const result = await h.run(['workflow', 'goal', file, '--json']);
    expect(result.exitCode).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ outcome: 'needs-you', exitCode: 1 });
    expect(report.needsYou[0]).toMatchObject({
      step: 'try',
      status: 'needs-you',
      kind: 'quota',
      backAt: NOW + 30 * 60_000,
    });
  });

  it('--retry-attempts sets the retries of every step that sets none (default 1), 0 to 5', async () => {
    const h = workflowHome([
      { connector: 'sim', account: 'a', windows: weekly(10), scenario: { default: 'crash' } },
    ]);
    const file = h.write('p.json', { schemaVersion: V, steps: [{ id: 'try', prompt: 'Try' }] });
    const attempts = async (flags: string[]) => {
      const result = await h.run(['workflow', 'goal', file, '--json', ...flags]);
      expect(result.exitCode).toBe(1);
      const report = JSON.parse(result.stdout);
      return report.steps[0].attempts as number;
    };
    expect(await attempts([])).toBe(2);
    expect(await attempts(['--retry-attempts', '0'])).toBe(1);
    expect(await attempts(['--retry-attempts', '3'])).toBe(4);
    const bad = await h.run(['workflow', 'goal', file, '--retry-attempts', '6']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--retry-attempts "6" is not valid: expected a whole number from 0 to 5');
  });

  it('--dry-run prints the pool each step would get and why', async () => {
    const h = workflowHome([
      { connector: 'sim', account: 'a', windows: weekly(10) },
      { connector: 'sim', account: 'b', windows: weekly(30) },
    ]);
    const result = await h.run([
      'workflow',
      'goal',
      join(EXAMPLES, 'docs-write-review.json'),
      '--dry-run',
      '--worker-pool',
      'sim:b',
    ]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('write-docs   OK [sim:b] pinned to sim:b (--worker-pool)');
    expect(existsSync(join(h.home, 'workflows'))).toBe(false);
  });

  it('usage errors exit 2: an unknown input, a bad --input, an unknown pool, a concurrency out of range', async () => {
    const h = workflowHome([{ connector: 'sim', account: 'a', windows: weekly(10) }]);
    const example = join(EXAMPLES, 'docs-write-review.json');
    const unknown = await h.run(['workflow', 'goal', example, '--input', 'colour=red']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain(
      '--input colour: the program declares no input "colour" (it declares subject)',
    );
    expect((await h.run(['workflow', 'goal', example, '--input', 'novalue'])).exitCode).toBe(2);
    const pool = await h.run(['workflow', 'goal', example, '--worker-pool', 'nope']);
    expect(pool.exitCode).toBe(2);
    expect(pool.stderr).toContain('--worker-pool nope');
    // One message for every value out of range, above or below, a dry run included.
    for (const value of ['65', '0', '99999999999999999999', 'four']) {
      for (const dryRun of [[], ['--dry-run']]) {
        const bad = await h.run(['workflow', 'goal', example, '--concurrency', value, ...dryRun]);
        expect(bad.exitCode).toBe(2);
        expect(bad.stderr).toContain(
          `--concurrency "${value}" is not valid: expected a whole number from 1 to 64`,
        );
        expect(bad.stdout).toBe('');
      }
    }
    expect(existsSync(join(h.home, 'workflows'))).toBe(false);
  });
});

describe('bullswarm workflow settings', () => {
  it('a bad BULLSWARM_* setting exits 2 naming it before any run folder is created', async () => {
    const h = workflowHome([{ connector: 'sim', account: 'a', windows: weekly(10) }]);
    const file = h.write('one.json', { schemaVersion: V, steps: [{ id: 'a', prompt: 'x' }] });
    for (const [variable, value] of [
      ['BULLSWARM_THROTTLE_BACKOFF_SEC', 'xyz'],
      ['BULLSWARM_WORKER_NO_PROGRESS_SEC', 'zero'],
      ['BULLSWARM_WORKER_SILENCE_SEC', '-1'],
    ] as const) {
      const result = await h.run(['workflow', 'goal', file, '--json'], { [variable]: value });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain(`${variable}=${JSON.stringify(value)} is not valid: expected`);
      const resume = await h.run(['workflow', 'resume', 'wf-abcd1234'], { [variable]: value });
      expect(resume.exitCode).toBe(2);
      expect(resume.stderr).toContain(variable);
    }
    expect(existsSync(join(h.home, 'workflows'))).toBe(false);
  });
});

describe('bullswarm workflow restart and resume', () => {
  it('racing resumes of a killed run: one drives it, the others exit 2 naming it; no item runs twice', async () => {
    const h = workflowHome([
      {
        connector: 'sim',
        account: 'a',
        windows: weekly(10),
        scenario: { default: { scenario: 'slow', ms: 800, tickMs: 100 } },
      },
    ]);
    const file = h.write('p.json', {
      schemaVersion: V,
      settings: { concurrency: 2 },
      steps: [
        { id: 'each', prompt: 'ITEM<{{item}}> go', forEach: { items: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] } },
      ],
    });
    const env = { ...nowEnv(NOW), BULLSWARM_SIM_LOG: join(h.root, 'sim.log') };
    const goal = startBullswarm(['workflow', 'goal', file, '--json'], { home: h.home, env, cwd: h.work });
    const workflows = join(h.home, 'workflows');
    const verdicts = (runId: string) =>
      readFileSync(join(workflows, runId, 'events.jsonl'), 'utf8')
        .split('\n')
        .filter((line) => line.includes('"unit.finished"')).length;
    let runId: string | undefined;
    for (let i = 0; i < 3000; i++) {
      runId = existsSync(workflows) ? readdirSync(workflows)[0] : undefined;
      if (runId !== undefined && existsSync(join(workflows, runId, 'events.jsonl')) && verdicts(runId) >= 2)
        break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(runId).toBeDefined();
    goal.kill('SIGKILL');
    await goal.catch(() => {});
    const killedAt = Date.now();
    const before = verdicts(runId as string);
    expect(before).toBeLessThan(10);

    const resumes = await Promise.all(
      [0, 1, 2, 3].map(() =>
        bullswarm(['workflow', 'resume', runId as string, '--json'], { home: h.home, env, cwd: h.work }),
      ),
    );
    // Four resumes at once over ~3 s of remaining work: one drives, the others find it driven.
    expect(resumes.filter((r) => r.exitCode === 0).length).toBeGreaterThanOrEqual(1);
    expect(resumes.filter((r) => r.exitCode === 2).length).toBeGreaterThanOrEqual(1);
    for (const loser of resumes.filter((r) => r.exitCode !== 0)) {
      expect(loser.exitCode).toBe(2);
      expect(loser.stderr).toMatch(
        new RegExp(`^error: run ${runId} is being driven by process \\d+; watch it`),
      );
    }
    const lines = readFileSync(join(workflows, runId as string, 'events.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { seq: number; type: string; slot?: number });
    const seqs = lines.map((event) => event.seq);
    expect(new Set(seqs).size).toBe(seqs.length);
    const slots = lines.filter((event) => event.type === 'unit.finished').map((event) => event.slot);
    expect(slots.sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // Agent starts after the kill, per item: never two.
    const starts = new Map<string, number>();
    for (const line of readFileSync(join(h.root, 'sim.log'), 'utf8').split('\n')) {
      if (line === '') continue;
      const entry = JSON.parse(line) as { argv: string[]; startedAt: string | number };
      const item = /ITEM<(\d+)>/.exec(entry.argv.join(' '))?.[1];
      if (item === undefined || new Date(entry.startedAt).getTime() < killedAt) continue;
      starts.set(item, (starts.get(item) ?? 0) + 1);
    }
    for (const [item, count] of starts) expect(count, `item ${item}`).toBe(1);
    expect(starts.size).toBeGreaterThanOrEqual(10 - before - 2);
  }, 120_000);

  it('restart --worker-pool re-runs the failed step pinned, then what was blocked', async () => {
    const h = workflowHome([
      { connector: 'sim', account: 'a', windows: weekly(10), scenario: { default: 'crash' } },
      { connector: 'sim', account: 'b', windows: weekly(30) },
    ]);
    const file = h.write('p.json', {
      schemaVersion: V,
      settings: { retryAttempts: 0 },
      steps: [
        { id: 'build', prompt: 'Build' },
        { id: 'check', dependsOn: ['build'], prompt: 'Check', route: { pools: { use: ['sim:b'] } } },
      ],
    });
    const first = await h.run(['workflow', 'goal', file]);
    expect(first.exitCode).toBe(1);
    const runId = events(first.stdout)[0]?.runId as string;
    const restart = await h.run(['workflow', 'restart', runId, 'build', '--worker-pool', 'sim:b', '--json']);
    expect(restart.exitCode).toBe(0);
    const report = JSON.parse(restart.stdout);
    expect(report.steps.map((s: { id: string; status: string }) => [s.id, s.status])).toEqual([
      ['build', 'ok'],
      ['check', 'ok'],
    ]);
    expect(report.steps[0].reason).toMatch(/^pinned to sim:b \(step restart\)/);
  });

  it('resume --when-ready waits with a countdown until the back-at, then resumes', async () => {
    const h = workflowHome([
      {
        connector: 'sim',
        account: 'a',
        windows: weekly(10),
        scenario: { sequence: [{ scenario: 'usage-limit', resetsInMin: 10 }], default: 'ok' },
      },
      { connector: 'sim', account: 'b', windows: weekly(30) },
    ]);
    const file = h.write('p.json', {
      schemaVersion: V,
      steps: [
        { id: 'try', prompt: 'Try' },
        { id: 'next', dependsOn: ['try'], prompt: 'Next' },
      ],
    });
    const first = await h.run(['workflow', 'goal', file, '--json']);
    expect(first.exitCode).toBe(1);
    const report = JSON.parse(first.stdout);
    const backAt = report.needsYou[0].backAt as number;
    expect(backAt).toBe(NOW + 10 * 60_000);
    // bullswarm's clock is 1.5 s before the back-at: the wait is short and real.
    const resumed = await h.run(['workflow', 'resume', report.runId, '--when-ready', '--json'], {
      BULLSWARM_NOW: new Date(backAt - 1500).toISOString(),
    });
    // Under a minute the countdown reads in seconds (it read "resuming in 0m").
    expect(resumed.stderr).toMatch(
      /waiting until 2026-11-30T12:10:00Z \(the earliest back-at\) · resuming in [12]s\n/,
    );
    expect(resumed.stderr).not.toContain('resuming in 0m');
    expect(resumed.stderr).toContain('back at 2026-11-30T12:10:00Z: resuming');
    expect(resumed.exitCode).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ outcome: 'ok', counts: { ok: 2 } });
  });

  it('a run saved by another engine version is view-only: resume exits 2, show still works', async () => {
    const h = workflowHome([
      { connector: 'sim', account: 'a', windows: weekly(10), scenario: { default: 'crash' } },
    ]);
    const file = h.write('p.json', {
      schemaVersion: V,
      settings: { retryAttempts: 0 },
      steps: [{ id: 'a', prompt: 'x' }],
    });
    const runId = events((await h.run(['workflow', 'goal', file])).stdout)[0]?.runId as string;
    const statePath = join(h.home, 'workflows', runId, 'state.json');
    writeFileSync(
      statePath,
      JSON.stringify({ ...JSON.parse(readFileSync(statePath, 'utf8')), engineVersion: 'program-v2/3' }),
    );
    const resume = await h.run(['workflow', 'resume', runId]);
    expect(resume.exitCode).toBe(2);
    expect(resume.stderr).toContain('view-only');
    // --when-ready refuses it the same way before reading any back-at.
    const whenReady = await h.run(['workflow', 'resume', runId, '--when-ready']);
    expect(whenReady.exitCode).toBe(2);
    expect(whenReady.stderr).toContain(`run ${runId} was saved by engine program-v2/3`);
    expect(whenReady.stderr).toContain('view-only');
    expect(whenReady.stderr).not.toContain('back-at');
    const show = await h.run(['workflow', 'show', runId]);
    expect(show.exitCode).toBe(0);
    expect(show.stdout).toContain('view-only, it cannot be resumed');
    expect((await h.run(['workflow', 'list'])).stdout).toMatch(/failed \(view-only\)/);
  });
});

// Skipped without tmux on PATH, unless BULLSWARM_REQUIRE_TMUX=1 (CI), which makes it fail instead.
describe.runIf(runTmuxTests())('bullswarm workflow goal on a terminal (tmux)', () => {
  it('draws the live view in place and exits with the run', async () => {
    const TMUX = requireTmux();
    const h = workflowHome([
      {
        connector: 'sim',
        account: 'a',
        windows: weekly(10),
        scenario: { default: { scenario: 'slow', ms: 600, tickMs: 100 } },
      },
    ]);
    const file = h.write('p.json', {
      schemaVersion: V,
      name: 'tty',
      steps: [
        { id: 'first', prompt: 'One' },
        { id: 'second', dependsOn: ['first'], blindTo: ['first'], prompt: 'Two' },
      ],
    });
    const script = join(h.root, 'run.sh');
    writeFileSync(
      script,
      [
        `export BULLSWARM_HOME='${h.home}' BULLSWARM_NOW='${new Date(NOW).toISOString()}' BULLSWARM_SIM_LOG='${join(h.root, 'sim.log')}'`,
        `cd '${h.work}'`,
        `'${process.execPath}' '${CLI_PATH}' workflow goal '${file}'`,
        'echo "__DONE__ $?"',
        'sleep 600',
      ].join('\n'),
    );
    const socket = `bullswarm-cli-test-${process.pid}-${Date.now()}`;
    const tmux = (...args: string[]) => execFileSync(TMUX, ['-L', socket, ...args], { encoding: 'utf8' });
    // Wide enough for the report line's whole path (the test run's TMPDIR makes it long).
    tmux('new-session', '-d', '-x', '160', '-y', '30', '-s', 'view', `sh ${script}`);
    try {
      let pane = '';
      for (let i = 0; i < 3000 && !pane.includes('__DONE__'); i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        pane = tmux('capture-pane', '-p', '-t', 'view');
      }
      expect(pane).toContain('__DONE__ 0');
      const lines = pane.split('\n');
      expect(lines.filter((line) => line.startsWith('bullswarm workflow · tty · run wf-'))).toHaveLength(1);
      expect(pane).toMatch(/^▐ level 1\/2 · first {2,}✓ done$/m);
      expect(pane).toMatch(/^ {2}✓ second {2,}sim:a {2,}\d+\.\ds {3}ok$/m);
      expect(pane).toMatch(/^✓ 2 · ✗ 0 · ↩ 0 · ⋈ 0 {2,}elapsed /m);
      expect(pane).toMatch(/^report: .*\/workflows\/wf-[a-z0-9]+\/report\.json$/m);
      expect(pane).not.toContain('"type":');
    } finally {
      tmux('kill-server');
    }
  });
});
