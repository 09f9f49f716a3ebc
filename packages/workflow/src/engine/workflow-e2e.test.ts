import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeWorkflowFixtures, createWorkflowFixture } from '../test-support/workflow-fixture';

afterEach(() => closeWorkflowFixtures());

const example = JSON.parse(
  readFileSync(new URL('../../../../examples/workflows/docs-write-review.json', import.meta.url), 'utf8'),
);

describe('the shipped docs-write-review example on sim pools', () => {
  it('writes README.md, reviews it blind, and writes report.json', async () => {
    const fixture = await createWorkflowFixture([
      {
        account: 'a',
        scenario: {
          sequence: [{ scenario: 'write', file: 'README.md', content: '# Demo\n\nRun `demo --help`.\n' }],
          default: { scenario: 'ok', answer: '1. commands exist: ok\n2. flags documented: ok\nNo findings.' },
        },
      },
    ]);
    const events: string[] = [];
    const result = await fixture.run(example, { onEvent: (event) => events.push(event.type) });
    expect(result.exitCode).toBe(0);
    expect(readFileSync(join(fixture.work, 'README.md'), 'utf8')).toContain('demo --help');
    const [write, review] = result.state.steps;
    expect(write?.status).toBe('ok');
    expect(write?.unit?.changedFiles).toEqual(['README.md']);
    expect(review?.status).toBe('ok');
    expect(review?.unit?.answerPreview).toContain('No findings');

    // The blind reviewer's prompt opens with the fixed instruction and holds nothing of the writer.
    const sims = fixture.simLogLines();
    expect(sims).toHaveLength(2);
    const reviewPrompt = sims[1]?.argv[sims[1].argv.indexOf('-p') + 1] ?? '';
    expect(reviewPrompt.startsWith('You are checking work blind')).toBe(true);
    expect(reviewPrompt).not.toContain('sim: wrote');
    expect(reviewPrompt).toContain('Change no file');

    const report = JSON.parse(readFileSync(result.paths.reportPath, 'utf8'));
    expect(report).toMatchObject({ outcome: 'ok', exitCode: 0, counts: { ok: 2, total: 2 } });
    expect(existsSync(result.paths.programPath)).toBe(true);
    expect(JSON.parse(readFileSync(result.paths.programPath, 'utf8')).inputs).toEqual({
      subject: 'this repository',
    });
    expect(events[0]).toBe('run.started');
    expect(events.at(-1)).toBe('run.finished');
    for (const attempt of [...(write?.unit?.attempts ?? []), ...(review?.unit?.attempts ?? [])]) {
      expect(existsSync(attempt.outputFile)).toBe(true);
    }
  });
});
