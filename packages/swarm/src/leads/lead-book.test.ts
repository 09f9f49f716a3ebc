import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FencingError } from '../errors/fencing-error';
import { LeadRecordError } from '../errors/lead-record-error';
import { PlanFileError } from '../errors/plan-file-error';
import { readJournal } from '../plans/journal';
import { planLocation, resolvePlanRef } from '../plans/plan-location';
import { createRepo, openTestSwarm, smallPlan, tempDirs } from '../test-support/swarm-fixture';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

async function setup() {
  const dir = dirs.make();
  const { repo, plan } = createRepo(join(dir, 'repo'));
  const { swarm, store, now } = await openTestSwarm(dir);
  return { dir, repo, plan, swarm, store, now };
}

describe('lead claim, show, resolve', () => {
  it('claims at epoch 1, resolves `lead`, refreshes lanes, and refuses a second lead', async () => {
    const { swarm, plan } = await setup();
    const claimed = await swarm.leads.claim(plan, { address: 'boss', succession: ['deputy', 'lane-a'] });
    expect(claimed.change).toBe('claimed');
    expect(claimed.record).toMatchObject({
      lead: 'boss',
      epoch: 1,
      succession: ['deputy', 'lane-a'],
      lanes: [],
    });
    expect(await swarm.leads.resolve(plan)).toBe('boss');

    const refreshed = await swarm.leads.claim(plan, { address: 'boss', lanes: ['lane-a'] });
    expect(refreshed.change).toBe('refreshed');
    await swarm.leads.claim(plan, { address: 'boss', lanes: ['lane-b'] });
    expect(await swarm.leads.get(plan)).toMatchObject({
      epoch: 1,
      lanes: ['lane-a', 'lane-b'],
      succession: ['deputy', 'lane-a'],
    });
    // Lanes learn who briefed them.
    expect((await swarm.notices.readInbox('lane-b')).map((n) => n.kind)).toEqual(['lead-change']);

    const refused = () => swarm.leads.claim(plan, { address: 'intruder' });
    await expect(refused()).rejects.toThrow(LeadRecordError);
    await expect(refused()).rejects.toThrow(/led by boss at epoch 1/);
    expect((await swarm.leads.get(plan))?.lead).toBe('boss');
  });

  it("lists every plan's record, the most recently changed first", async () => {
    const { swarm, plan } = await setup();
    expect(await swarm.leads.list()).toEqual([]);
    await swarm.leads.claim(plan, { address: 'boss', succession: ['deputy'] });
    expect((await swarm.leads.list()).map((record) => [record.lead, record.epoch])).toEqual([['boss', 1]]);
    await swarm.leads.handover(plan, { from: 'boss', to: 'deputy' });
    expect((await swarm.leads.list()).map((record) => [record.label, record.lead, record.epoch])).toEqual([
      [(await swarm.leads.get(plan))!.label, 'deputy', 2],
    ]);
  });

  it('refuses the lead in its own succession list and reserved or malformed addresses', async () => {
    const { swarm, plan } = await setup();
    await expect(
      (async () => await swarm.leads.claim(plan, { address: 'boss', succession: ['boss'] }))(),
    ).rejects.toThrow(/succession "boss" is not valid/);
    await expect((async () => await swarm.leads.claim(plan, { address: 'lead' }))()).rejects.toThrow(
      /reserved/,
    );
    await expect((async () => await swarm.leads.claim(plan, { address: 'has space' }))()).rejects.toThrow(
      /agent address/,
    );
  });

  it('tells plans with the same id in two repositories apart', async () => {
    const dir = dirs.make();
    const one = createRepo(join(dir, 'alpha'), smallPlan('same'));
    const two = createRepo(join(dir, 'beta'), smallPlan('same'));
    const { swarm } = await openTestSwarm(dir);
    await swarm.leads.claim(one.plan, { address: 'lead-alpha' });
    await swarm.leads.claim(two.plan, { address: 'lead-beta' });
    const knownRepos = (id: string) => swarm.leads.knownRepos(id);
    // From outside both repositories the bare id is ambiguous…
    await expect((async () => await resolvePlanRef('same', { cwd: dir, knownRepos }))()).rejects.toThrow(
      /alpha\/same, beta\/same/,
    );
    // …<repo>/<id> names one, and the record keeps the claiming repository.
    const beta = await resolvePlanRef('beta/same', { cwd: dir, knownRepos });
    expect(beta.repo).toBe(two.repo);
    expect(await swarm.leads.resolve(beta)).toBe('lead-beta');
    expect(
      await swarm.leads.resolve(await resolvePlanRef(`${one.repo}/same`, { cwd: dir, knownRepos })),
    ).toBe('lead-alpha');
    // Inside a repository the bare id is that repository's plan.
    expect((await resolvePlanRef('same', { cwd: two.repo, knownRepos })).repo).toBe(two.repo);
  });
});

describe('handover and takeover', () => {
  it('hands over at epoch + 1 and notifies every lane; the old lead is fenced', async () => {
    const { swarm, plan } = await setup();
    await swarm.leads.claim(plan, { address: 'boss', succession: ['deputy'], lanes: ['lane-a', 'lane-b'] });
    for (const lane of ['lane-a', 'lane-b', 'deputy']) await swarm.notices.readInbox(lane);
    const record = await swarm.leads.handover(plan, { from: 'boss', to: 'deputy', epoch: 1 });
    expect(record).toMatchObject({ lead: 'deputy', epoch: 2, succession: [] });
    for (const lane of ['lane-a', 'lane-b', 'deputy']) {
      const inbox = await swarm.notices.readInbox(lane);
      expect(inbox).toHaveLength(1);
      expect(inbox[0]).toMatchObject({ kind: 'lead-change', from: 'boss', epoch: 2 });
      expect(inbox[0]!.text).toContain('deputy at epoch 2 (handover from boss)');
    }
    await expect(
      (async () => await swarm.leads.handover(plan, { from: 'boss', to: 'lane-a' }))(),
    ).rejects.toThrow(FencingError);
    await expect(
      (async () => await swarm.leads.release(plan, { address: 'boss', epoch: 1 }))(),
    ).rejects.toThrow(FencingError);
    expect((await swarm.leads.history(plan)).map((e) => [e.kind, e.epoch, e.lead])).toEqual([
      ['claim', 1, 'boss'],
      ['handover', 2, 'deputy'],
    ]);
    const journal = readJournal(plan.journalFile);
    expect(journal.map((e) => [e.type, e.event, e.epoch])).toEqual([
      ['observation', 'lead.claimed', 1],
      ['observation', 'lead.handover', 2],
    ]);
  });

  it('takes over only when the lead is unreachable, by the first reachable succession entry', async () => {
    const { swarm, plan, now } = await setup();
    await swarm.agents.register({ address: 'boss' });
    await swarm.agents.register({ address: 'deputy' });
    await swarm.agents.register({ address: 'lane-a' });
    await swarm.leads.claim(plan, { address: 'boss', succession: ['deputy', 'lane-a'] });

    const whileReachable = () => swarm.leads.takeover(plan, { address: 'deputy' });
    await expect(whileReachable()).rejects.toThrow(LeadRecordError);
    await expect(whileReachable()).rejects.toThrow(/lead boss is reachable/);

    // 901 s later nobody heartbeated: boss, deputy and lane-a are all unreachable; lane-a heartbeats.
    now.value += 901_000;
    await swarm.agents.heartbeat('lane-a');
    await swarm.agents.heartbeat('deputy');
    let refusal: unknown;
    try {
      await swarm.leads.takeover(plan, { address: 'lane-a' });
    } catch (error) {
      refusal = error;
    }
    expect(LeadRecordError.isInstance(refusal) && refusal.reason).toBe('earlier-successor-reachable');
    await expect((async () => await swarm.leads.takeover(plan, { address: 'stranger' }))()).rejects.toThrow(
      /not in the effective succession/,
    );

    const record = await swarm.leads.takeover(plan, { address: 'deputy' });
    expect(record).toMatchObject({ lead: 'deputy', epoch: 2, succession: ['lane-a'] });
    const event = (await swarm.leads.history(plan)).at(-1)!;
    expect(event).toMatchObject({ kind: 'takeover', previousLead: 'boss', lead: 'deputy' });
    expect(event.reason).toMatch(/lead unreachable: no heartbeat for 901s/);
    // The returning lead finds the notice…
    expect((await swarm.notices.readInbox('boss')).at(-1)!.text).toContain(
      'deputy at epoch 2 (takeover from boss',
    );
  });

  it('a lead with no agent registered is unreachable; an asserted usage limit is recorded as asserted', async () => {
    const { swarm, plan } = await setup();
    await swarm.agents.register({ address: 'deputy' });
    await swarm.leads.claim(plan, { address: 'ghost', succession: ['deputy'] });
    expect((await swarm.leads.takeover(plan, { address: 'deputy' })).epoch).toBe(2);
    expect((await swarm.leads.history(plan)).at(-1)!.reason).toContain('no agent registered');

    await swarm.agents.register({ address: 'third' });
    await swarm.leads.claim(plan, { address: 'deputy', succession: ['third'] });
    const record = await swarm.leads.takeover(plan, { address: 'third', reason: 'usage_limit' });
    expect(record.epoch).toBe(3);
    expect((await swarm.leads.history(plan)).at(-1)!.reason).toBe('asserted by third: usage_limit');
  });

  it('without an explicit succession a lane takes over: the default succession is the lanes in launch order', async () => {
    const { swarm, plan } = await setup();
    for (const a of ['lane-a', 'lane-b']) await swarm.agents.register({ address: a });
    await swarm.leads.claim(plan, { address: 'ghost', lanes: ['lane-a'] });
    await swarm.leads.claim(plan, { address: 'ghost', lanes: ['lane-b'] });
    expect(await swarm.leads.effectiveSuccession(plan)).toEqual([
      { address: 'lane-a', source: 'lane' },
      { address: 'lane-b', source: 'lane' },
    ]);
    // lane-a is reachable and earlier: lane-b waits its turn.
    await expect((async () => await swarm.leads.takeover(plan, { address: 'lane-b' }))()).rejects.toThrow(
      /lane-a comes before lane-b/,
    );
    const record = await swarm.leads.takeover(plan, { address: 'lane-a' });
    expect(record).toMatchObject({ lead: 'lane-a', epoch: 2 });
    // The new lead never appears in its own succession; lane-b is next.
    expect((await swarm.leads.effectiveSuccession(plan)).map((c) => c.address)).toEqual(['lane-b']);
  });

  it('after a handover a remaining lane can take over; the order is list, designate, lanes, host', async () => {
    const { swarm, plan } = await setup();
    await swarm.agents.register({ address: 'other-plan', plan: { repo: '/elsewhere', id: 'x' } });
    for (const a of ['lane-a', 'lane-b', 'deputy', 'idle-here']) await swarm.agents.register({ address: a });
    await swarm.leads.claim(plan, { address: 'boss', succession: ['first'], lanes: ['lane-a', 'lane-b'] });
    await swarm.leads.designate(plan, { from: 'boss', designate: 'deputy' });
    expect(await swarm.leads.effectiveSuccession(plan)).toEqual([
      { address: 'deputy', source: 'succession' },
      { address: 'first', source: 'succession' },
      { address: 'lane-a', source: 'lane' },
      { address: 'lane-b', source: 'lane' },
      { address: 'idle-here', source: 'host' },
    ]);
    await swarm.leads.handover(plan, { from: 'boss', to: 'deputy' });
    // The handover removed the new lead from the list and added nobody: the lanes still follow.
    expect((await swarm.leads.effectiveSuccession(plan)).map((c) => c.address)).toEqual([
      'first',
      'lane-a',
      'lane-b',
      'idle-here',
    ]);
    await swarm.agents.deregister('deputy');
    const record = await swarm.leads.takeover(plan, { address: 'lane-a' });
    expect(record).toMatchObject({ lead: 'lane-a', epoch: 3 });
    // An agent bound to another plan is never a candidate.
    await expect(
      (async () => await swarm.leads.takeover(plan, { address: 'other-plan', reason: 'usage_limit' }))(),
    ).rejects.toThrow(/not in the effective succession/);
  });

  it('a takeover at an epoch that moved is a fencing error (compare-and-set)', async () => {
    const { swarm, plan } = await setup();
    await swarm.leads.claim(plan, { address: 'ghost', succession: ['deputy', 'second'] });
    await swarm.leads.takeover(plan, { address: 'deputy', epoch: 1 });
    let error: unknown;
    try {
      await swarm.leads.takeover(plan, { address: 'second', epoch: 1 });
    } catch (caught) {
      error = caught;
    }
    expect(FencingError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ epoch: 1, currentEpoch: 2, currentLead: 'deputy' });
  });
});

describe('fencing', () => {
  it('refuses merges, tags and releases at a lower epoch and records the refusal', async () => {
    const { swarm, plan } = await setup();
    await swarm.leads.claim(plan, { address: 'boss', succession: ['deputy'] });
    expect(
      (await swarm.leads.assertCurrentEpoch(plan, { epoch: 1, address: 'boss', action: 'merge' })).lead,
    ).toBe('boss');
    await swarm.leads.handover(plan, { from: 'boss', to: 'deputy' });

    let error: unknown;
    try {
      await swarm.leads.assertCurrentEpoch(plan, { epoch: 1, address: 'boss', action: 'tag v1' });
    } catch (caught) {
      error = caught;
    }
    expect(FencingError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ action: 'tag v1', epoch: 1, currentEpoch: 2, currentLead: 'deputy' });
    expect((error as Error).message).toContain('epoch 1 is older than the current epoch 2');
    await expect(
      (async () => await swarm.leads.assertCurrentEpoch(plan, { epoch: 2, address: 'boss' }))(),
    ).rejects.toThrow(/boss is not the lead/);
    await expect((async () => await swarm.leads.assertCurrentEpoch(plan, { epoch: 3 }))()).rejects.toThrow(
      /does not exist yet/,
    );
    expect((await swarm.leads.assertCurrentEpoch(plan, { epoch: 2 })).lead).toBe('deputy');
    expect(
      (await swarm.leads.history(plan)).filter((e) => e.kind === 'fence-refused').map((e) => e.reason),
    ).toEqual(['tag v1', 'fenced action', 'fenced action']);
  });

  it('a returning lead that sees a higher epoch steps down, and nothing else changes', async () => {
    const { swarm, plan } = await setup();
    await swarm.leads.claim(plan, { address: 'boss', succession: ['deputy'] });
    expect((await swarm.leads.checkLeadership(plan, { address: 'boss', epoch: 1 })).current).toBe(true);
    await swarm.leads.takeover(plan, { address: 'deputy' });
    const check = await swarm.leads.checkLeadership(plan, { address: 'boss', epoch: 1 });
    expect(check).toMatchObject({ current: false, steppedDown: true });
    expect(check.current ? '' : check.why).toBe('epoch 2 (lead deputy) is higher than 1');
    expect(await swarm.leads.get(plan)).toMatchObject({ lead: 'deputy', epoch: 2 });
    expect(readJournal(plan.journalFile).at(-1)).toMatchObject({
      event: 'lead.stepped-down',
      by: 'boss',
      heldEpoch: 1,
    });
  });

  it('a lead check at an epoch the plan never had is an input error, and records nothing', async () => {
    const { swarm, plan } = await setup();
    await swarm.leads.claim(plan, { address: 'boss', succession: ['deputy'] });
    await swarm.leads.takeover(plan, { address: 'deputy' });
    const events = (await swarm.leads.history(plan)).length;
    const journalLines = readJournal(plan.journalFile).length;
    await expect(
      (async () => await swarm.leads.checkLeadership(plan, { address: 'deputy', epoch: 3 }))(),
    ).rejects.toThrow(
      /epoch "3" is not valid: expected an epoch this plan has had \(it is at epoch 2, lead deputy\)/,
    );
    expect(await swarm.leads.history(plan)).toHaveLength(events);
    expect(readJournal(plan.journalFile)).toHaveLength(journalLines);
    expect((await swarm.leads.checkLeadership(plan, { address: 'deputy', epoch: 2 })).current).toBe(true);
  });

  it('releases: only the current lead, its leases for the plan go with it, and the plan is claimable again', async () => {
    const { swarm, plan } = await setup();
    await swarm.leads.claim(plan, { address: 'boss', lanes: ['lane-a'] });
    await swarm.leases.acquire({ poolId: 'sim:a', holder: 'lane-a', owner: 'boss', plan });
    await swarm.leases.acquire({ poolId: 'sim:b', holder: 'lane-b', owner: 'boss' });
    await expect((async () => await swarm.leads.release(plan, { address: 'lane-a' }))()).rejects.toThrow(
      FencingError,
    );
    const released = await swarm.leads.release(plan, { address: 'boss', epoch: 1 });
    expect(released.releasedAt).toBeDefined();
    expect((await swarm.leases.list()).map((l) => l.poolId)).toEqual(['sim:b']);
    await expect((async () => await swarm.leads.resolve(plan))()).rejects.toThrow(/released/);
    await expect(
      (async () => await swarm.leads.assertCurrentEpoch(plan, { epoch: 1, address: 'boss' }))(),
    ).rejects.toThrow(FencingError);
    expect((await swarm.leads.claim(plan, { address: 'next' })).record.epoch).toBe(2);
  });

  it('release records a lease of the plan that already expired as expired at its expiry, not as released', async () => {
    const { swarm, plan, now } = await setup();
    await swarm.leads.claim(plan, { address: 'boss', lanes: ['lane-a', 'lane-b'] });
    const short = await swarm.leases.acquire({
      poolId: 'sim:a',
      holder: 'lane-a',
      owner: 'boss',
      plan,
      ttlMs: 1000,
    });
    await swarm.leases.acquire({ poolId: 'sim:b', holder: 'lane-b', owner: 'boss', plan, ttlMs: 60_000 });
    now.value += 5000;
    await swarm.leads.release(plan, { address: 'boss', epoch: 1 });
    expect(await swarm.leases.list()).toEqual([]);
    expect((await swarm.leases.events()).map((e) => [e.poolId, e.event, e.at])).toEqual([
      ['sim:a', 'acquired', short.acquiredAt],
      ['sim:b', 'acquired', short.acquiredAt],
      ['sim:a', 'expired', short.expiresAt],
      ['sim:b', 'released', now.value],
    ]);
    expect(readJournal(plan.journalFile).at(-1)).toMatchObject({
      event: 'lead.released',
      releasedLeases: ['sim:b'],
    });
  });

  it('no record: clear errors', async () => {
    const { swarm } = await setup();
    const other = planLocation({ repo: '/nowhere', id: 'x' });
    await expect((async () => await swarm.leads.resolve(other))()).rejects.toThrow(/has no lead record/);
    await expect((async () => await swarm.leads.assertCurrentEpoch(other, { epoch: 1 }))()).rejects.toThrow(
      LeadRecordError,
    );
  });

  it('claim validates the plan file first: an invalid plan writes no record and no journal line', async () => {
    const { swarm, plan } = await setup();
    const cases: [string, RegExp][] = [
      ['{ not json', /plan\.json.*(JSON|json)/],
      [
        JSON.stringify({ schema: 'bullswarm-plan/v1', id: 'p1', contract: { goal: 'g' }, tasks: [] }),
        /plan\.json: tasks/,
      ],
      [
        JSON.stringify({
          schema: 'bullswarm-plan/v1',
          id: 'p1',
          contract: { goal: 'g' },
          tasks: [{ id: 'a', dependsOn: ['nope'] }],
        }),
        /tasks\[0\]\.dependsOn\[0\]: no task "nope"/,
      ],
    ];
    for (const [text, message] of cases) {
      writeFileSync(plan.planFile, text);
      let error: unknown;
      try {
        await swarm.leads.claim(plan, { address: 'boss', lanes: ['lane-a'] });
      } catch (caught) {
        error = caught;
      }
      expect(PlanFileError.isInstance(error), String(error)).toBe(true);
      expect((error as Error).message).toMatch(message);
      expect(await swarm.leads.get(plan)).toBeUndefined();
      expect(existsSync(plan.journalFile)).toBe(false);
    }
  });
});
