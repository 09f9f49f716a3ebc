import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EscalationClassError } from '../errors/escalation-class-error';
import { readJournal } from '../plans/journal';
import { loadPlan } from '../plans/plan-location';
import { planStatus } from '../plans/plan-status';
import { createRepo, openTestSwarm, tempDirs } from '../test-support/swarm-fixture';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

async function setup() {
  const dir = dirs.make();
  const { plan } = createRepo(join(dir, 'repo'), {
    schema: 'bullswarm-plan/v1',
    id: 'chain',
    contract: { goal: 'three chains' },
    tasks: [
      { id: 'a1' },
      { id: 'a2', dependsOn: ['a1'] },
      { id: 'a3', dependsOn: ['a2'] },
      { id: 'b1' },
      { id: 'b2', dependsOn: ['b1'] },
    ],
  });
  return { plan, ...(await openTestSwarm(dir)) };
}

describe('escalations', () => {
  it('a task that is not in the plan is refused, listing the plan tasks, and nothing is recorded', async () => {
    const { swarm, plan } = await setup();
    await expect(
      (async () =>
        await swarm.escalations.raise(plan, {
          class: 'C1',
          text: 'deploy?',
          by: 'lane-a',
          task: 'nosuch',
        }))(),
    ).rejects.toThrow(/task "[^"]*" is not valid.*a task of plan .*chain \(a1, a2, a3, b1, b2\)/);
    expect(await swarm.escalations.list(plan)).toEqual([]);
    expect(readJournal(plan.journalFile)).toEqual([]);
  });

  it.each([[undefined], [''], ['C8'], ['urgent']])(
    'without a class (%s) are refused as a decision the agent owes',
    async (klass) => {
      const { swarm, plan } = await setup();
      const raise = () =>
        swarm.escalations.raise(plan, {
          class: klass,
          text: 'should I use postgres?',
          by: 'lane-a',
          task: 'a1',
        });
      await expect(raise()).rejects.toThrow(EscalationClassError);
      await expect(raise()).rejects.toThrow(/a decision the agent owes/);
      expect(await swarm.escalations.list(plan)).toEqual([]);
      expect(readJournal(plan.journalFile)).toEqual([]);
    },
  );

  it('a critical item blocks its dependency chain, not the swarm; the answer resumes the chain', async () => {
    const { swarm, plan } = await setup();
    const doc = loadPlan(plan);
    const escalation = await swarm.escalations.raise(plan, {
      class: 'c2',
      text: 'a login screen appeared for the deploy CLI',
      by: 'lane-a',
      task: 'a2',
      notify: 'boss',
    });
    expect(escalation.class).toBe('C2');
    await swarm.tasks.claim(plan, { task: 'b1', address: 'lane-b' });
    const status = async () =>
      Object.fromEntries(
        planStatus(doc, await swarm.tasks.list(plan), await swarm.escalations.list(plan, { open: true })).map(
          (s) => [s.task, s.state],
        ),
      );
    expect(await status()).toEqual({
      a1: 'ready',
      a2: 'blocked',
      a3: 'blocked',
      b1: 'running',
      b2: 'waiting',
    });
    expect(await swarm.notices.readInbox('boss')).toEqual([
      expect.objectContaining({
        kind: 'escalation',
        text: `blocked C2 task a2: a login screen appeared for the deploy CLI (escalation #${escalation.id})`,
      }),
    ]);
    // Sent once: the same item again is refused while it is open.
    await expect(
      (async () =>
        await swarm.escalations.raise(plan, { class: 'C2', text: 'again', by: 'lane-a', task: 'a2' }))(),
    ).rejects.toThrow(/already open and is sent once/);

    const answered = await swarm.escalations.answer(plan, {
      id: escalation.id,
      answer: 'logged in, go on',
      relayedBy: 'boss',
    });
    expect(answered).toMatchObject({ answeredBy: 'developer', relayedBy: 'boss' });
    expect(await status()).toMatchObject({ a2: 'waiting', a3: 'waiting' });
    expect(readJournal(plan.journalFile).map((e) => [e.type, e.event, e.relayed])).toEqual([
      ['intervention', 'escalation.raised', undefined],
      ['intervention', 'escalation.answered', true],
    ]);
  });
});
