import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LeadRecordError } from '../errors/lead-record-error';
import { resolveSwarmSettings } from '../settings/swarm-env';
import { createRepo, openTestSwarm, tempDirs } from '../test-support/swarm-fixture';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

/** boss leads p1 (reachable: it heartbeats), deputy is first in the succession; asks time out after 60 s. */
async function setup() {
  const dir = dirs.make();
  const { plan } = createRepo(join(dir, 'repo'));
  const { swarm, now } = await openTestSwarm(dir, { settings: { askTimeoutMs: 60_000 } });
  await swarm.agents.register({ address: 'boss' });
  await swarm.agents.register({ address: 'deputy' });
  await swarm.leads.claim(plan, { address: 'boss', succession: ['deputy'] });
  const ask = (text: string) =>
    swarm.notices.send({ to: 'boss', from: 'deputy', plan, epoch: 1, kind: 'ask', text });
  const refusal = async () => {
    try {
      await swarm.leads.takeover(plan, { address: 'deputy', reason: 'ask_timeout' });
    } catch (error) {
      if (LeadRecordError.isInstance(error)) return error;
      throw error;
    }
    throw new Error('the takeover was not refused');
  };
  return { swarm, plan, now, ask, refusal };
}

describe('takeover for ask_timeout is checked from the notice records', () => {
  it('needs two asks to the lead unanswered past their timeout; a reply or a pending ask does not count', async () => {
    const { swarm, plan, now, ask, refusal } = await setup();
    // Nothing asked: the reason is not taken on the taker's word.
    expect(await refusal()).toMatchObject({ reason: 'asks-not-timed-out' });
    expect((await refusal()).message).toContain('the notices show 0');

    const first = await ask('which branch do I merge into?');
    expect(first.timeoutAt).toBe(first.createdAt + 60_000);
    now.value += 30_000;
    const answered = await ask('is the api frozen?');
    await swarm.notices.send({
      to: 'deputy',
      from: 'boss',
      plan,
      kind: 'reply',
      re: answered.id,
      text: 'yes',
    });
    now.value += 31_000; // the first ask is past its timeout, the answered one does not count
    expect((await refusal()).message).toMatch(
      new RegExp(`the notices show 1 \\(#${first.id} from deputy timed out`),
    );
    const third = await ask('are you there?');
    now.value += 59_000; // the third is not past its timeout yet
    expect((await refusal()).message).toContain('the notices show 1');
    expect(await swarm.leads.get(plan)).toMatchObject({ lead: 'boss', epoch: 1 });

    now.value += 1_000;
    const record = await swarm.leads.takeover(plan, { address: 'deputy', reason: 'ask_timeout' });
    expect(record).toMatchObject({ lead: 'deputy', epoch: 2 });
    const event = (await swarm.leads.history(plan)).at(-1)!;
    expect(event.kind).toBe('takeover');
    expect(event.reason).toMatch(
      new RegExp(`^asks to boss unanswered past their timeout: #${first.id} .*, #${third.id} `),
    );
    expect(event.reason).not.toContain(`#${answered.id} `);
  });

  it('counts only asks to the current lead at its epoch, and only asks time out', async () => {
    const { swarm, plan, now, ask } = await setup();
    await ask('one');
    await ask('two');
    // Handed over and back: boss leads again at epoch 3, and asks from its first tenure do not count.
    await swarm.agents.register({ address: 'lead-2' });
    await swarm.leads.handover(plan, { from: 'boss', to: 'lead-2' });
    now.value += 61_000;
    await expect(
      (async () => await swarm.leads.takeover(plan, { address: 'deputy', reason: 'ask_timeout' }))(),
    ).rejects.toThrow(
      /ask_timeout needs 2 asks to the lead lead-2 \(epoch 2\) unanswered past their timeout; the notices show 0/,
    );
    await swarm.leads.handover(plan, { from: 'lead-2', to: 'boss' });
    await expect(
      (async () => await swarm.leads.takeover(plan, { address: 'deputy', reason: 'ask_timeout' }))(),
    ).rejects.toThrow(/asks to the lead boss \(epoch 3\) unanswered past their timeout; the notices show 0/);
    await expect(
      (async () =>
        await swarm.notices.send({ to: 'boss', plan, kind: 'text', text: 'fyi', timeoutMs: 1000 }))(),
    ).rejects.toThrow(/timeoutMs "1000" is not valid: expected no timeout: only an ask waits for an answer/);
    expect(resolveSwarmSettings({}).askTimeoutMs).toBe(1_800_000);
    expect(resolveSwarmSettings({ BULLSWARM_ASK_TIMEOUT_SEC: '90' }).askTimeoutMs).toBe(90_000);
    await expect((async () => resolveSwarmSettings({ BULLSWARM_ASK_TIMEOUT_SEC: 'soon' }))()).rejects.toThrow(
      /BULLSWARM_ASK_TIMEOUT_SEC "soon" is not valid/,
    );
  });
});
