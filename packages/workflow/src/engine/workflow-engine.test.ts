import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dispatchTask } from '@bullswarm/dispatch';
import { InvalidEnvironmentError } from '@bullswarm/store';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkflowError } from '../errors/workflow-error';
import { loadRun } from '../state/load-run';
import {
  closeWorkflowFixtures,
  createWorkflowFixture,
  peakFromEvents,
  TEST_NOW,
} from '../test-support/workflow-fixture';
import type { StepDispatcher } from './step-dispatcher';
import { restartWorkflowStep, resumeWorkflow } from './workflow-api';

afterEach(() => closeWorkflowFixtures());

const V = 'bullswarm.workflow.program.v3';
const behind = [{ kind: 'weekly' as const, usedPct: 0, resetsInMin: 5040 }];
const ahead = [{ kind: 'weekly' as const, usedPct: 30, resetsInMin: 5040 }];

function promptOf(argv: readonly string[]): string {
  return argv[argv.indexOf('-p') + 1] ?? '';
}

describe('fan-out', () => {
  it('gives N verdicts and N output files and never exceeds its cap (events by seq)', async () => {
    const fixture = await createWorkflowFixture([{ account: 'a', connector: 'echo' }]);
    const items = Array.from({ length: 12 }, (_, i) => `item-${i}`);
    const result = await fixture.run({
      schemaVersion: V,
      settings: { concurrency: 8 },
      steps: [{ id: 'each', prompt: 'Echo {{item}}', forEach: { items, concurrency: 3 } }],
    });
    expect(result.exitCode).toBe(0);
    const step = result.state.steps[0];
    expect(step?.items).toHaveLength(12);
    expect(step?.items?.every((item) => item.status === 'ok')).toBe(true);
    const files = step?.items?.flatMap((item) => item.attempts.map((a) => a.outputFile)) ?? [];
    expect(new Set(files).size).toBe(12);
    for (const file of files) expect(readFileSync(file, 'utf8')).toMatch(/Echo item-\d+/);
    const events = fixture.events(result.runId);
    expect(events.filter((e) => e.type === 'unit.finished')).toHaveLength(12);
    expect(peakFromEvents(events, 'each')).toBe(3);
  });

  it('keeps one limiter across the run: two fan-outs side by side stay within settings.concurrency', async () => {
    const fixture = await createWorkflowFixture([{ account: 'a', connector: 'echo' }]);
    const items = Array.from({ length: 8 }, (_, i) => i);
    const result = await fixture.run({
      schemaVersion: V,
      settings: { concurrency: 4 },
      steps: [
        { id: 'left', prompt: 'L {{item}}', forEach: { items } },
        { id: 'right', prompt: 'R {{item}}', forEach: { items, concurrency: 3 } },
      ],
    });
    expect(result.exitCode).toBe(0);
    const events = fixture.events(result.runId);
    expect(peakFromEvents(events)).toBe(4);
    expect(peakFromEvents(events, 'right')).toBeLessThanOrEqual(3);
  });

  it('fans out over an upstream output (forEach.from) and a glob; duplicates are skipped', async () => {
    const fixture = await createWorkflowFixture([
      {
        account: 'a',
        scenario: {
          sequence: [{ scenario: 'json', value: { files: ['b.txt', 'a.txt', 'b.txt'] } }],
          default: 'ok',
        },
      },
    ]);
    writeFileSync(join(fixture.work, 'x.md'), 'x');
    writeFileSync(join(fixture.work, 'y.md'), 'y');
    const result = await fixture.run({
      schemaVersion: V,
      steps: [
        {
          id: 'list',
          prompt: 'List files',
          outputSchema: { type: 'object', required: ['files'], properties: { files: { type: 'array' } } },
        },
        {
          id: 'each',
          dependsOn: ['list'],
          prompt: 'Look at {{item}}',
          forEach: { from: 'outputs.list.data.files' },
        },
        { id: 'docs', dependsOn: ['each'], prompt: 'Read {{item}}', forEach: { glob: '*.md' } },
      ],
    });
    expect(result.exitCode).toBe(0);
    const each = result.state.steps[1];
    expect(each?.items?.map((item) => [item.label, item.status])).toEqual([
      ['b.txt', 'ok'],
      ['a.txt', 'ok'],
      ['b.txt', 'skipped'],
    ]);
    expect(result.state.steps[2]?.items?.map((item) => item.item)).toEqual(['x.md', 'y.md']);
  });
});

describe('settings', () => {
  it.each([
    ['BULLSWARM_THROTTLE_BACKOFF_SEC', 'xyz'],
    ['BULLSWARM_WORKER_NO_PROGRESS_SEC', 'zero'],
    ['BULLSWARM_WORKER_SILENCE_SEC', '-1'],
  ])(
    'a bad %s is refused before any run folder is created, on start and on resume',
    async (variable, value) => {
      const fixture = await createWorkflowFixture([{ account: 'a' }]);
      const first = await fixture.run({ schemaVersion: V, steps: [{ id: 'a', prompt: 'x' }] });
      const runsBefore = readdirSync(join(fixture.home, 'workflows'));
      fixture.env[variable] = value;
      const start = await fixture
        .run({ schemaVersion: V, steps: [{ id: 'a', prompt: 'x' }] })
        .catch((e: unknown) => e);
      expect(InvalidEnvironmentError.isInstance(start) && start.variable).toBe(variable);
      expect((start as Error).message).toMatch(/expected .*seconds/);
      const resume = await resumeWorkflow({ runtime: fixture.runtime, runId: first.runId }).catch(
        (e: unknown) => e,
      );
      expect(InvalidEnvironmentError.isInstance(resume) && resume.variable).toBe(variable);
      expect(readdirSync(join(fixture.home, 'workflows'))).toEqual(runsBefore);
      expect(fixture.simLogLines()).toHaveLength(1);
    },
  );
});

describe('resume cleans the run folder', () => {
  it('removes stale temp files of a killed writer and the owner.json of the old owner claim', async () => {
    const fixture = await createWorkflowFixture([{ account: 'a', scenario: { default: 'crash' } }]);
    const first = await fixture.run({
      schemaVersion: V,
      settings: { retryAttempts: 0 },
      steps: [{ id: 'a', prompt: 'x' }],
    });
    const { runDir } = first.paths;
    // 4194305 is above Linux's largest pid (4194304): no live process has it.
    const stale = ['.state.json.4194305.aaaaaa.tmp', '.report.json.4194305.bbbbbb.tmp', 'owner.json'];
    for (const name of stale) writeFileSync(join(runDir, name), '');
    await resumeWorkflow({ runtime: fixture.runtime, runId: first.runId });
    const left = readdirSync(runDir);
    for (const name of stale) expect(left).not.toContain(name);
    expect(left).toContain('state.json');
  });
});

describe('failures and limits', () => {
  it('a crash retries on a second pool', async () => {
    const fixture = await createWorkflowFixture([
      { account: 'a', windows: behind, scenario: { default: 'crash' } },
      { account: 'b', windows: ahead, scenario: { default: 'ok' } },
    ]);
    const result = await fixture.run({ schemaVersion: V, steps: [{ id: 'work', prompt: 'Do the work' }] });
    expect(result.exitCode).toBe(0);
    const attempts = result.state.steps[0]?.unit?.attempts ?? [];
    expect(attempts.map((a) => [a.poolId, a.kind, a.willRetry])).toEqual([
      ['sim:a', 'process', true],
      ['sim:b', 'ok', false],
    ]);
    expect(attempts[1]?.reason).toMatch(/^fallback from sim:a after crash \(exit 1\) · /);
    expect(result.state.steps[0]?.unit?.retriesUsed).toBe(1);
  });

  it('records the attempts from the dispatch result alone when the dispatcher sends no events', async () => {
    const fixture = await createWorkflowFixture([
      { account: 'a', windows: behind, scenario: { default: 'crash' } },
      { account: 'b', windows: ahead, scenario: { default: 'ok' } },
    ]);
    const silent: StepDispatcher = ({ onEvent: _dropped, ...request }) =>
      dispatchTask(fixture.runtime, request);
    const result = await fixture.run(
      { schemaVersion: V, steps: [{ id: 'work', prompt: 'Do the work' }] },
      { dispatch: silent },
    );
    expect(result.exitCode).toBe(0);
    const unit = result.state.steps[0]?.unit;
    expect(
      unit?.attempts.map((a) => [a.attempt, a.purpose, a.poolId, a.providerFamily, a.kind, a.willRetry]),
    ).toEqual([
      [1, 'run', 'sim:a', 'sim', 'process', true],
      [2, 'run', 'sim:b', 'sim', 'ok', false],
    ]);
    expect(unit?.attempts.every((a) => a.outputFile !== '' && a.endedAt !== undefined)).toBe(true);
    expect(unit?.attempts[1]?.reason).toMatch(/^fallback from sim:a after crash \(exit 1\) · /);
    expect(unit).toMatchObject({ poolId: 'sim:b', poolLabel: 'sim:b', retriesUsed: 1 });
    expect(fixture.events(result.runId).filter((e) => e.type.startsWith('attempt.'))).toEqual([]);
  });

  it('a usage limit comes back at once with back at; independent steps finish; dependants are blocked', async () => {
    const fixture = await createWorkflowFixture([
      { account: 'a', windows: behind, scenario: { default: { scenario: 'usage-limit', resetsInMin: 90 } } },
      { account: 'b', windows: ahead, scenario: { default: 'ok' } },
    ]);
    const result = await fixture.run({
      schemaVersion: V,
      steps: [
        { id: 'limited', prompt: 'Try', route: { pools: { use: ['sim:a'] } } },
        { id: 'free', prompt: 'Independent', route: { pools: { use: ['sim:b'] } } },
        { id: 'after', dependsOn: ['limited'], prompt: 'Needs limited' },
      ],
    });
    expect(result.exitCode).toBe(1);
    const [limited, free, after] = result.state.steps;
    expect(limited?.status).toBe('needs-you');
    expect(limited?.unit?.attempts).toHaveLength(1);
    expect(limited?.unit?.kind).toBe('quota');
    expect(limited?.backAt).toBeGreaterThan(TEST_NOW);
    expect(free?.status).toBe('ok');
    expect(after).toMatchObject({ status: 'blocked', blockedBy: ['limited'] });
    expect(result.report.needsYou).toEqual([
      expect.objectContaining({ step: 'limited', status: 'needs-you', backAt: limited?.backAt }),
      expect.objectContaining({ step: 'after', status: 'blocked' }),
    ]);
    expect(fixture.simLogLines()).toHaveLength(2);
  });

  it('a sign-in failure retries outside the credential group', async () => {
    const fixture = await createWorkflowFixture([
      { account: 'a', windows: behind, scenario: { default: 'auth' } },
      { account: 'b', connector: 'sim-codex', windows: ahead },
    ]);
    const result = await fixture.run({ schemaVersion: V, steps: [{ id: 'work', prompt: 'Do it' }] });
    expect(result.exitCode).toBe(0);
    const attempts = result.state.steps[0]?.unit?.attempts ?? [];
    expect(attempts.map((a) => [a.poolId, a.kind])).toEqual([
      ['sim:a', 'auth'],
      ['sim-codex:b', 'ok'],
    ]);
    expect(attempts[1]?.reason).toMatch(/^fallback from sim:a after sign-in failure · /);
  });

  it('a throttle backs off on the same pool without spending the retry, then comes back to you', async () => {
    const fixture = await createWorkflowFixture(
      [
        { account: 'a', windows: behind, scenario: { default: 'throttle' } },
        { account: 'b', windows: ahead },
      ],
      { BULLSWARM_THROTTLE_BACKOFF_SEC: '0.05,0.05' },
    );
    const result = await fixture.run({ schemaVersion: V, steps: [{ id: 'work', prompt: 'Do it' }] });
    const step = result.state.steps[0];
    expect(step).toMatchObject({ status: 'needs-you', kind: 'throttle' });
    expect(step?.unit?.attempts.map((a) => a.poolId)).toEqual(['sim:a', 'sim:a', 'sim:a']);
    expect(step?.unit?.retriesUsed).toBe(0);
    expect(fixture.events(result.runId).filter((e) => e.type === 'throttle.backoff')).toHaveLength(2);
  });

  it('a route that leaves no pool sends the step back at once as no eligible pool', async () => {
    const fixture = await createWorkflowFixture([{ account: 'a' }]);
    const result = await fixture.run({
      schemaVersion: V,
      steps: [{ id: 'x', prompt: 'x', route: { providers: { avoid: ['sim'] } } }],
    });
    expect(result.state.steps[0]).toMatchObject({ status: 'needs-you', kind: 'no-eligible-pool' });
    expect(result.state.steps[0]?.unit?.attempts).toHaveLength(0);
    expect(fixture.simLogLines()).toHaveLength(0);
  });

  it('restart re-runs a failed step pinned with --worker-pool, then what was blocked behind it', async () => {
    const fixture = await createWorkflowFixture([
      { account: 'a', windows: behind, scenario: { default: 'crash' } },
      { account: 'b', windows: ahead, scenario: { default: 'ok' } },
    ]);
    const first = await fixture.run({
      schemaVersion: V,
      settings: { retryAttempts: 0 },
      steps: [
        { id: 'build', prompt: 'Build it' },
        { id: 'check', dependsOn: ['build'], prompt: 'Check it', route: { pools: { use: ['sim:b'] } } },
      ],
    });
    expect(first.state.steps.map((s) => s.status)).toEqual(['failed', 'blocked']);
    expect(first.state.steps[0]?.unit?.why).toContain('exited with code 1');

    const second = await restartWorkflowStep({
      runtime: fixture.runtime,
      runId: first.runId,
      stepId: 'build',
      workerPool: 'sim:b',
    });
    expect(second.exitCode).toBe(0);
    const build = second.state.steps[0];
    expect(build?.unit?.attempts.map((a) => a.poolId)).toEqual(['sim:a', 'sim:b']);
    expect(build?.unit?.reason).toMatch(/^pinned to sim:b \(step restart\)/);
    expect(second.state.steps[1]?.status).toBe('ok');
  });

  it('restart names an unknown step', async () => {
    const fixture = await createWorkflowFixture([{ account: 'a' }]);
    const first = await fixture.run({ schemaVersion: V, steps: [{ id: 'a', prompt: 'x' }] });
    const error = await restartWorkflowStep({
      runtime: fixture.runtime,
      runId: first.runId,
      stepId: 'zz',
    }).catch((e: unknown) => e);
    expect(WorkflowError.isInstance(error) && error.kind).toBe('unknown-step');
  });

  it('a run saved by a different engine version is view-only', async () => {
    const fixture = await createWorkflowFixture([{ account: 'a', scenario: { default: 'crash' } }]);
    const first = await fixture.run({
      schemaVersion: V,
      settings: { retryAttempts: 0 },
      steps: [{ id: 'a', prompt: 'x' }],
    });
    const state = JSON.parse(readFileSync(first.paths.statePath, 'utf8'));
    writeFileSync(first.paths.statePath, JSON.stringify({ ...state, engineVersion: 'program-v2/7' }));
    const error = await resumeWorkflow({ runtime: fixture.runtime, runId: first.runId }).catch(
      (e: unknown) => e,
    );
    expect(WorkflowError.isInstance(error) && error.kind).toBe('run-view-only');
    expect((error as Error).message).toContain('view-only');
    const restart = await restartWorkflowStep({
      runtime: fixture.runtime,
      runId: first.runId,
      stepId: 'a',
    }).catch((e: unknown) => e);
    expect(WorkflowError.isInstance(restart) && restart.kind).toBe('run-view-only');
    const loaded = loadRun(join(fixture.home, 'workflows'), first.runId);
    expect(loaded.viewOnly).toBe(true);
    expect(loaded.state.steps[0]?.status).toBe('failed');
    expect(fixture.simLogLines()).toHaveLength(1);
  });
});

describe('files enforcement', () => {
  for (const git of [false, true]) {
    it(`fails a step that writes outside its files, naming the paths (${git ? 'git status' : 'tree walk'})`, async () => {
      const fixture = await createWorkflowFixture([{ account: 'a' }]);
      if (git) fixture.gitInit();
      const result = await fixture.run({
        schemaVersion: V,
        steps: [
          { id: 'docs', lane: 'build', files: ['docs/**'], prompt: '[sim:write,file=docs/a.md] Write docs' },
          {
            id: 'sneaky',
            lane: 'build',
            files: ['docs/**'],
            prompt: '[sim:write,file=src/x.ts] Write docs',
            dependsOn: ['docs'],
          },
          { id: 'review', prompt: '[sim:write,file=notes.txt] Only read', dependsOn: ['sneaky'] },
        ],
      });
      const [docs, sneaky] = result.state.steps;
      expect(docs?.status).toBe('ok');
      expect(docs?.unit?.changedFiles).toEqual(['docs/a.md']);
      expect(sneaky).toMatchObject({ status: 'failed', kind: 'files' });
      expect(sneaky?.why).toBe('changed files outside its files (docs/**): src/x.ts');
      expect(existsSync(join(fixture.work, 'src/x.ts'))).toBe(true);

      const second = await fixture.run({
        schemaVersion: V,
        steps: [{ id: 'review', prompt: '[sim:write,file=notes.txt] Only read' }],
      });
      expect(second.state.steps[0]).toMatchObject({
        status: 'failed',
        kind: 'files',
        why: 'declared no files but changed: notes.txt',
      });
    });
  }

  it('a fan-out item may write the file its own rendered files glob names', async () => {
    const fixture = await createWorkflowFixture([{ account: 'a' }]);
    const result = await fixture.run({
      schemaVersion: V,
      settings: { concurrency: 3 },
      steps: [
        {
          id: 'each',
          lane: 'build',
          files: ['out/{{item}}.md'],
          prompt: '[sim:write,file=out/{{item}}.md] Write {{item}}',
          forEach: { items: ['a', 'b', 'c'] },
        },
      ],
    });
    expect(result.exitCode).toBe(0);
    expect(result.state.steps[0]?.items?.map((item) => item.changedFiles)).toEqual([
      ['out/a.md'],
      ['out/b.md'],
      ['out/c.md'],
    ]);
  });
});

describe('output schemas', () => {
  const schema = {
    type: 'object',
    required: ['verdict', 'files'],
    additionalProperties: false,
    properties: {
      verdict: { type: 'string', enum: ['pass', 'fail'] },
      files: { type: 'array', items: { type: 'string' } },
    },
  };

  it('records valid data, and a dependant reads it through a template', async () => {
    const fixture = await createWorkflowFixture([
      {
        account: 'a',
        scenario: {
          sequence: [{ scenario: 'json', value: { verdict: 'pass', files: ['a.ts'] } }],
          default: 'ok',
        },
      },
    ]);
    const result = await fixture.run({
      schemaVersion: V,
      steps: [
        { id: 'judge', prompt: 'Judge', outputSchema: schema },
        {
          id: 'next',
          dependsOn: ['judge'],
          prompt: 'Verdict was {{outputs.judge.data.verdict}} for {{outputs.judge.data.files}}',
        },
      ],
    });
    expect(result.exitCode).toBe(0);
    expect(result.state.steps[0]?.unit).toMatchObject({
      schemaOk: true,
      data: { verdict: 'pass', files: ['a.ts'] },
    });
    expect(result.report.outputs.judge).toEqual({ data: { verdict: 'pass', files: ['a.ts'] } });
    const sims = fixture.simLogLines();
    const judgePrompt = promptOf(sims[0]?.argv ?? []);
    expect(judgePrompt).toContain(join(result.paths.schemasDir, 'judge.schema.json'));
    expect(judgePrompt).toContain('bullswarm check-output-schema');
    expect(JSON.parse(readFileSync(join(result.paths.schemasDir, 'judge.schema.json'), 'utf8'))).toEqual(
      schema,
    );
    expect(promptOf(sims[1]?.argv ?? [])).toContain('Verdict was pass for ["a.ts"]');
  });

  it('an invalid answer gets one schema retry with the errors; invalid twice is schemaOk false', async () => {
    const fixture = await createWorkflowFixture([
      { account: 'a', scenario: { default: { scenario: 'json', value: { verdict: 'maybe', files: [] } } } },
    ]);
    const result = await fixture.run({
      schemaVersion: V,
      steps: [
        { id: 'judge', prompt: 'Judge', outputSchema: schema },
        { id: 'next', dependsOn: ['judge'], prompt: 'x' },
      ],
    });
    expect(result.exitCode).toBe(1);
    const unit = result.state.steps[0]?.unit;
    expect(unit).toMatchObject({ status: 'failed', kind: 'schema', schemaOk: false });
    expect(unit?.schemaErrors).toEqual([
      { path: '$.verdict', message: 'expected one of "pass", "fail", got "maybe"' },
    ]);
    expect(unit?.attempts.map((a) => a.purpose)).toEqual(['run', 'schema-retry']);
    const retryPrompt = promptOf(fixture.simLogLines()[1]?.argv ?? []);
    expect(retryPrompt).toContain('did not match the schema');
    expect(retryPrompt).toContain('$.verdict: expected one of');
    expect(result.state.steps[1]?.status).toBe('blocked');
  });

  it('hands each worker only its own candidates folder: a blind reviewer cannot reach the writer candidate', async () => {
    const fixture = await createWorkflowFixture([
      { account: 'a', scenario: { default: { scenario: 'json', value: { verdict: 'pass', files: [] } } } },
    ]);
    const result = await fixture.run({
      schemaVersion: V,
      steps: [
        { id: 'writer', prompt: 'Write', outputSchema: schema },
        { id: 'review', dependsOn: ['writer'], blindTo: ['writer'], prompt: 'Review', outputSchema: schema },
        {
          id: 'each',
          dependsOn: ['writer'],
          blindTo: ['writer'],
          forEach: { items: ['x', 'y'] },
          prompt: 'Check {{item}}',
          outputSchema: schema,
        },
      ],
    });
    expect(result.exitCode).toBe(0);
    const addDirsOf = (argv: readonly string[]) =>
      argv.flatMap((arg, i) => (arg === '--add-dir' ? [argv[i + 1] ?? ''] : []));
    const byPrompt = (text: string) =>
      fixture.simLogLines().find((line) => promptOf(line.argv).includes(text))?.argv ?? [];
    const writer = byPrompt('Write');
    const review = byPrompt('Review');
    const writerDir = join(result.paths.candidatesDir, 'writer');
    const writerFile = join(writerDir, 'writer.json');
    expect(addDirsOf(writer)).toEqual([writerDir]);
    expect(promptOf(writer)).toContain(writerFile);
    expect(addDirsOf(review)).toEqual([join(result.paths.candidatesDir, 'review')]);
    expect(promptOf(review)).toContain(join(result.paths.candidatesDir, 'review', 'review.json'));
    const itemDirs = ['Check x', 'Check y'].map((text) => addDirsOf(byPrompt(text)));
    expect(itemDirs.flat().sort()).toEqual([
      join(result.paths.candidatesDir, 'each', '0'),
      join(result.paths.candidatesDir, 'each', '1'),
    ]);
    // No argument of a blind worker names a folder holding writer.json (nor the run folder itself).
    for (const argv of [review, byPrompt('Check x'), byPrompt('Check y')]) {
      for (const dir of addDirsOf(argv)) {
        expect(`${writerFile}`.startsWith(`${dir}/`)).toBe(false);
      }
      expect(argv.some((arg) => arg.includes(writerDir))).toBe(false);
      expect(argv).not.toContain(result.paths.candidatesDir);
      expect(argv).not.toContain(result.paths.runDir);
    }
  });

  it('an invalid answer fixed by the schema retry is ok', async () => {
    const fixture = await createWorkflowFixture([
      {
        account: 'a',
        scenario: {
          sequence: [
            { scenario: 'ok', answer: 'I think it passes.' },
            { scenario: 'json', value: { verdict: 'pass', files: [] } },
          ],
          default: 'ok',
        },
      },
    ]);
    const result = await fixture.run({
      schemaVersion: V,
      steps: [{ id: 'judge', prompt: 'Judge', outputSchema: schema }],
    });
    expect(result.exitCode).toBe(0);
    expect(result.state.steps[0]?.unit).toMatchObject({
      schemaOk: true,
      data: { verdict: 'pass', files: [] },
    });
    expect(promptOf(fixture.simLogLines()[1]?.argv ?? [])).toContain('held no JSON object');
  });
});

describe('gates', () => {
  const flakyGate = [
    process.execPath,
    '-e',
    "const fs=require('fs');if(fs.existsSync('.gate-ok'))process.exit(0);fs.writeFileSync('.gate-ok','');console.log('tests failed: 1');process.exit(1)",
  ];

  it('a failed gate retries on the same pool (gate retry) and passes', async () => {
    const fixture = await createWorkflowFixture([
      { account: 'a', windows: behind },
      { account: 'b', windows: ahead },
    ]);
    const result = await fixture.run({
      schemaVersion: V,
      steps: [{ id: 'fix', prompt: 'Fix the tests', gate: flakyGate }],
    });
    expect(result.exitCode).toBe(0);
    const attempts = result.state.steps[0]?.unit?.attempts ?? [];
    expect(attempts.map((a) => [a.poolId, a.purpose])).toEqual([
      ['sim:a', 'run'],
      ['sim:a', 'gate-retry'],
    ]);
    expect(attempts[1]?.reason).toMatch(/^pinned to sim:a \(the same pool \(gate retry\)\)/);
    expect(promptOf(fixture.simLogLines()[1]?.argv ?? [])).toContain('tests failed: 1');
    const gates = fixture.events(result.runId).filter((e) => e.type === 'gate.finished');
    expect(gates.map((e) => e.type === 'gate.finished' && e.ok)).toEqual([false, true]);
  });

  it('a failed gate with no retry left fails the step with the gate output', async () => {
    const fixture = await createWorkflowFixture([{ account: 'a' }]);
    const result = await fixture.run({
      schemaVersion: V,
      steps: [{ id: 'fix', prompt: 'Fix', retryAttempts: 0, gate: 'echo "2 failing"; exit 3' }],
    });
    expect(result.state.steps[0]).toMatchObject({
      status: 'failed',
      kind: 'gate',
      why: 'gate `echo "2 failing"; exit 3` failed (exit 3): 2 failing',
    });
  });
  it('a gate whose cwd does not exist fails naming the directory', async () => {
    const fixture = await createWorkflowFixture([{ account: 'a' }]);
    writeFileSync(join(fixture.work, 'a-file'), '');
    const result = await fixture.run({
      schemaVersion: V,
      steps: [
        { id: 'fix', prompt: 'Fix', retryAttempts: 0, gate: { command: 'true', cwd: 'packages/missing' } },
        { id: 'other', prompt: 'Other', retryAttempts: 0, gate: { command: ['true'], cwd: 'a-file' } },
      ],
    });
    expect(result.state.steps[0]).toMatchObject({
      status: 'failed',
      kind: 'gate',
      why: `gate \`true\` failed (could not start: its cwd ${join(fixture.work, 'packages/missing')} does not exist)`,
    });
    expect(result.state.steps[1]?.why).toContain(
      `could not start: its cwd ${join(fixture.work, 'a-file')} is not a directory`,
    );
  });
});

describe('route.independentOf', () => {
  it('keeps a review away from the provider family that did the upstream work', async () => {
    const fixture = await createWorkflowFixture([
      { account: 'a', windows: behind },
      { account: 'b', connector: 'sim-codex', windows: ahead },
    ]);
    const result = await fixture.run({
      schemaVersion: V,
      steps: [
        { id: 'write', prompt: 'Write' },
        { id: 'review', dependsOn: ['write'], prompt: 'Review', route: { independentOf: ['write'] } },
      ],
    });
    expect(result.exitCode).toBe(0);
    expect(result.state.steps[0]?.unit?.poolId).toBe('sim:a');
    expect(result.state.steps[1]?.unit?.poolId).toBe('sim-codex:b');
    expect(result.state.steps[1]?.unit?.attempts[0]?.providerFamily).toBe('sim-codex');
  });
});
