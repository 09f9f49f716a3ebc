import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRedactor } from '@bullswarm/connectors/redact';
import type { AsyncBullswarmStore } from '@bullswarm/store';
import { afterEach, describe, expect, it } from 'vitest';
import { appendJournal } from '../plans/journal';
import { createRepo, openTestSwarm, tempDirs } from '../test-support/swarm-fixture';

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

async function setup() {
  const dir = dirs.make();
  const { plan } = createRepo(join(dir, 'repo'), {
    schema: 'bullswarm-plan/v1',
    id: 'leaky',
    contract: { goal: 'keep secrets in' },
    tasks: [{ id: 'a' }],
  });
  const env = { DEPLOY_TOKEN: PROCESS_SECRET };
  // As the CLI passes it: the process's environment and every pool's account environment.
  const redactor = createRedactor([env, { ACME_API_KEY: POOL_SECRET }]);
  return { plan, ...(await openTestSwarm(dir, { env, redactor })) };
}

/** Every text column of the swarm's free-text tables, as stored. */
async function storedText(sql: AsyncBullswarmStore['sql']): Promise<string> {
  const rows = [
    ...(await sql.query('SELECT text FROM swarm_notices')),
    ...(await sql.query('SELECT text, answer FROM swarm_escalations')),
    ...(await sql.query('SELECT evidence FROM swarm_task_done')),
    ...(await sql.query('SELECT reason FROM swarm_handoffs')),
  ];
  return JSON.stringify(rows);
}

describe('swarm records hold no secret', () => {
  it('notices, escalations and their answers, task evidence, handoff reasons and the plan journal are redacted', async () => {
    const { swarm, store, plan } = await setup();
    await swarm.notices.send({ to: 'lead-1', from: 'lane-a', plan, text: LEAK });
    const escalation = await swarm.escalations.raise(plan, {
      class: 'C2',
      text: LEAK,
      by: 'lane-a',
      task: 'a',
      notify: 'lead-1',
    });
    expect(escalation.text).not.toContain(GITHUB);
    await swarm.escalations.answer(plan, { id: escalation.id, answer: `use ${LEAK}`, by: 'developer' });
    await swarm.tasks.claim(plan, { task: 'a', address: 'lane-a' });
    await swarm.tasks.complete(plan, { task: 'a', address: 'lane-a', evidence: [`log ${LEAK}`] });
    await swarm.handoffs.recordWritten(plan, {
      packetPath: join(plan.dir, 'analysis_results', 'handoff', 'x.json'),
      task: 'a',
      author: 'lane-a',
      reason: LEAK,
    });
    // A journal entry written without a swarm context: the token shapes still go.
    appendJournal(
      plan.journalFile,
      { type: 'delegation', event: 'lane.result', plan: plan.id, answer: LEAK },
      0,
    );

    const stored = await storedText(store.sql);
    for (const secret of SECRETS) expect(stored, secret).not.toContain(secret);
    for (const marker of [
      'github-token',
      'anthropic-key',
      'aws-access-key',
      'env:DEPLOY_TOKEN',
      'env:ACME_API_KEY',
    ]) {
      expect(stored).toContain(`[redacted ${marker}]`);
    }
    const lines = readFileSync(plan.journalFile, 'utf8').trim().split('\n');
    const bound = lines.filter((line) => line.includes('"escalation.'));
    expect(bound).toHaveLength(2);
    for (const line of bound) {
      for (const secret of SECRETS) expect(line, secret).not.toContain(secret);
      expect(line).toContain('[redacted env:ACME_API_KEY]');
    }
    const unbound = lines.find((line) => line.includes('"lane.result"')) as string;
    for (const shape of [GITHUB, ANTHROPIC, AWS]) expect(unbound).not.toContain(shape);
    expect(unbound).toContain('[redacted github-token] [redacted anthropic-key] [redacted aws-access-key]');
  });
});
