import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dispatchTask } from '@bullswarm/dispatch';
import { afterEach, describe, expect, it } from 'vitest';
import { runPaths } from '../state/run-paths';
import { closeWorkflowFixtures, createWorkflowFixture } from '../test-support/workflow-fixture';

afterEach(() => closeWorkflowFixtures());

// Planted values are assembled at run time so this file carries no token-shaped literal.
const GITHUB = `gh${'p'}_${'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5'}`;
const ANTHROPIC = `sk-ant-${'api03-'}${'Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2'}`;
const AWS = `AK${'IA'}${'Q3EGRVZ5MNX7TY2K'}`;
const ENV_SECRET = 'plain-words-but-secret-42';

describe('a run writes no secret', () => {
  it('program.json, state.json, events.jsonl and report.json redact token shapes and credential env values', async () => {
    const fixture = await createWorkflowFixture([{ account: 'a' }], { MY_SERVICE_TOKEN: ENV_SECRET });
    const result = await fixture.run(
      {
        schemaVersion: 'bullswarm.workflow.program.v3',
        inputs: { note: { default: 'none' } },
        steps: [{ id: 'a', prompt: 'Say hello about {{inputs.note}}' }],
      },
      { inputs: { note: `${GITHUB} ${ANTHROPIC} ${AWS} ${ENV_SECRET}` } },
    );
    const paths = runPaths(join(fixture.home, 'workflows'), result.runId);
    for (const file of [paths.programPath, paths.statePath, paths.eventsPath, paths.reportPath]) {
      const text = readFileSync(file, 'utf8');
      for (const secret of [GITHUB, ANTHROPIC, AWS, ENV_SECRET]) expect(text, file).not.toContain(secret);
    }
    const program = readFileSync(paths.programPath, 'utf8');
    expect(program).toContain('[redacted github-token]');
    expect(program).toContain('[redacted anthropic-key]');
    expect(program).toContain('[redacted aws-access-key]');
    expect(program).toContain('[redacted env:MY_SERVICE_TOKEN]');
  });
});

const PROCESS_SECRET = 'process-secret-value-77';
const POOL_SECRET = 'pool-secret-value-zz9';
const ALL = [GITHUB, ANTHROPIC, AWS, PROCESS_SECRET, POOL_SECRET];
const LEAK = `leak ${ALL.join(' ')}`;

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

describe("an agent's secrets stay out of the run's files", () => {
  it("an answer, schema data and stderr carrying every shape, the process's and the pool's credential values: state, events, report, attempts and candidates are redacted", async () => {
    const fixture = await createWorkflowFixture([{ account: 'a', env: { ACME_API_KEY: POOL_SECRET } }], {
      MY_SERVICE_TOKEN: PROCESS_SECRET,
    });
    const program = {
      schemaVersion: 'bullswarm.workflow.program.v3',
      steps: [
        {
          id: 'data',
          prompt: `facts [sim:json,value={"x":"${LEAK}"},stderr=${LEAK}]`,
          outputSchema: { type: 'object', properties: { x: { type: 'string' } }, required: ['x'] },
        },
        {
          id: 'answer',
          prompt: `say [sim:ok,answer=${LEAK},stderr=${LEAK}]`,
          // A gate whose output carries them too (its log is a file of the home).
          gate: [process.execPath, '-e', `console.log(${JSON.stringify(LEAK)})`],
        },
        { id: 'crash', prompt: `die [sim:crash,message=${LEAK}]`, retryAttempts: 0 },
      ],
    };
    // A schema-bound worker writes its candidate into the one folder it is handed (addDirs).
    const result = await fixture.run(program, {
      dispatch: (request) => {
        const own = request.addDirs?.[0];
        if (own !== undefined) writeFileSync(join(own, 'data.json'), JSON.stringify({ x: LEAK }));
        return dispatchTask(fixture.runtime, request);
      },
    });
    const steps = new Map(result.state.steps.map((step) => [step.id, step]));
    expect(steps.get('data')?.status).toBe('ok');
    expect(steps.get('answer')?.status).toBe('ok');
    expect(steps.get('crash')?.status).toBe('failed');
    const runDir = runPaths(join(fixture.home, 'workflows'), result.runId).runDir;
    const files = filesUnder(runDir);
    expect(files.some((file) => file.includes('/attempts/'))).toBe(true);
    expect(files.some((file) => file.includes('/candidates/data/'))).toBe(true);
    expect(files.some((file) => file.includes('/gates/'))).toBe(true);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const secret of ALL) expect(text, `${file}: ${secret}`).not.toContain(secret);
    }
    const report = readFileSync(runPaths(join(fixture.home, 'workflows'), result.runId).reportPath, 'utf8');
    const marked =
      'leak [redacted github-token] [redacted anthropic-key] [redacted aws-access-key] [redacted env:MY_SERVICE_TOKEN] [redacted env:ACME_API_KEY]';
    expect(report).toContain(marked); // why of the crash, answer preview
    const state = readFileSync(runPaths(join(fixture.home, 'workflows'), result.runId).statePath, 'utf8');
    expect(JSON.parse(state).steps[0].unit.data.x).toBe(marked); // schema data
  }, 60_000);
});
