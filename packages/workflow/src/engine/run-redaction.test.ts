import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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
