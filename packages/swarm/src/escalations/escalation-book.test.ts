import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EscalationClassError } from '../errors/escalation-class-error';
import { readJournal } from '../plans/journal';
import { loadPlan } from '../plans/plan-location';
import { planStatus } from '../plans/plan-status';
import { createRepo, openTestSwarm, tempDirs } from '../test-support/swarm-fixture';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

function setup() {
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
  return { plan, ...openTestSwarm(dir) };
}

describe('escalations', () => {
  it('a task that is not in the plan is refused, listing the plan tasks, and nothing is recorded', () => {
    const { swarm, plan } = setup();
    expect(() =>
      swarm.escalations.raise(plan, { class: 'C1', text: 'deploy?', by: 'lane-a', task: 'nosuch' }),
    ).toThrow(/task "[^"]*" is not valid.*a task of plan .*chain \(a1, a2, a3, b1, b2\)/);
    expect(swarm.escalations.list(plan)).toEqual([]);
    expect(readJournal(plan.journalFile)).toEqual([]);
  });

  it.each([[undefined], [''], ['C8'], ['urgent']])(
    'without a class (%s) are refused as a decision the agent owes',
    (klass) => {
      const { swarm, plan } = setup();
      const raise = () =>
        swarm.escalations.raise(plan, {
          class: klass,
          text: 'should I use postgres?',
          by: 'lane-a',
          task: 'a1',
        });
      expect(raise).toThrow(EscalationClassError);
      expect(raise).toThrow(/a decision the agent owes/);
      expect(swarm.escalations.list(plan)).toEqual([]);
      expect(readJournal(plan.journalFile)).toEqual([]);
    },
  );

  it('a critical item blocks its dependency chain, not the swarm; the answer resumes the chain', () => {
    const { swarm, plan } = setup();
    const doc = loadPlan(plan);
    const escalation = swarm.escalations.raise(plan, {
      class: 'c2',
      text: 'a login screen appeared for the deploy CLI',
      by: 'lane-a',
      task: 'a2',
      notify: 'boss',
    });
    expect(escalation.class).toBe('C2');
    swarm.tasks.claim(plan, { task: 'b1', address: 'lane-b' });
    const status = () =>
      Object.fromEntries(
        planStatus(doc, swarm.tasks.list(plan), swarm.escalations.list(plan, { open: true })).map((s) => [
          s.task,
          s.state,
        ]),
      );
    expect(status()).toEqual({ a1: 'ready', a2: 'blocked', a3: 'blocked', b1: 'running', b2: 'waiting' });
    expect(swarm.notices.readInbox('boss')).toEqual([
      expect.objectContaining({
        kind: 'escalation',
        text: `blocked C2 task a2: a login screen appeared for the deploy CLI (escalation #${escalation.id})`,
      }),
    ]);
    // Sent once: the same item again is refused while it is open.
    expect(() =>
      swarm.escalations.raise(plan, { class: 'C2', text: 'again', by: 'lane-a', task: 'a2' }),
    ).toThrow(/already open and is sent once/);

    const answered = swarm.escalations.answer(plan, {
      id: escalation.id,
      answer: 'logged in, go on',
      relayedBy: 'boss',
    });
    expect(answered).toMatchObject({ answeredBy: 'developer', relayedBy: 'boss' });
    expect(status()).toMatchObject({ a2: 'waiting', a3: 'waiting' });
    expect(readJournal(plan.journalFile).map((e) => [e.type, e.event, e.relayed])).toEqual([
      ['intervention', 'escalation.raised', undefined],
      ['intervention', 'escalation.answered', true],
    ]);
  });
});
