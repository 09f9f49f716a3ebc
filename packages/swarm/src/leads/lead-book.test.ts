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

function setup() {
  const dir = dirs.make();
  const { repo, plan } = createRepo(join(dir, 'repo'));
  const { swarm, store, now } = openTestSwarm(dir);
  return { dir, repo, plan, swarm, store, now };
}

describe('lead claim, show, resolve', () => {
  it('claims at epoch 1, resolves `lead`, refreshes lanes, and refuses a second lead', () => {
    const { swarm, plan } = setup();
    const claimed = swarm.leads.claim(plan, { address: 'boss', succession: ['deputy', 'lane-a'] });
    expect(claimed.change).toBe('claimed');
    expect(claimed.record).toMatchObject({
      lead: 'boss',
      epoch: 1,
      succession: ['deputy', 'lane-a'],
      lanes: [],
    });
    expect(swarm.leads.resolve(plan)).toBe('boss');

    const refreshed = swarm.leads.claim(plan, { address: 'boss', lanes: ['lane-a'] });
    expect(refreshed.change).toBe('refreshed');
    swarm.leads.claim(plan, { address: 'boss', lanes: ['lane-b'] });
    expect(swarm.leads.get(plan)).toMatchObject({
      epoch: 1,
      lanes: ['lane-a', 'lane-b'],
      succession: ['deputy', 'lane-a'],
    });
    // Lanes learn who briefed them.
    expect(swarm.notices.readInbox('lane-b').map((n) => n.kind)).toEqual(['lead-change']);

    const refused = () => swarm.leads.claim(plan, { address: 'intruder' });
    expect(refused).toThrow(LeadRecordError);
    expect(refused).toThrow(/led by boss at epoch 1/);
    expect(swarm.leads.get(plan)?.lead).toBe('boss');
  });

  it("lists every plan's record, the most recently changed first", () => {
    const { swarm, plan } = setup();
    expect(swarm.leads.list()).toEqual([]);
    swarm.leads.claim(plan, { address: 'boss', succession: ['deputy'] });
    expect(swarm.leads.list().map((record) => [record.lead, record.epoch])).toEqual([['boss', 1]]);
    swarm.leads.handover(plan, { from: 'boss', to: 'deputy' });
    expect(swarm.leads.list().map((record) => [record.label, record.lead, record.epoch])).toEqual([
      [swarm.leads.get(plan)!.label, 'deputy', 2],
    ]);
  });

  it('refuses the lead in its own succession list and reserved or malformed addresses', () => {
    const { swarm, plan } = setup();
    expect(() => swarm.leads.claim(plan, { address: 'boss', succession: ['boss'] })).toThrow(
      /succession "boss" is not valid/,
    );
    expect(() => swarm.leads.claim(plan, { address: 'lead' })).toThrow(/reserved/);
    expect(() => swarm.leads.claim(plan, { address: 'has space' })).toThrow(/agent address/);
  });

  it('tells plans with the same id in two repositories apart', () => {
    const dir = dirs.make();
    const one = createRepo(join(dir, 'alpha'), smallPlan('same'));
    const two = createRepo(join(dir, 'beta'), smallPlan('same'));
    const { swarm } = openTestSwarm(dir);
    swarm.leads.claim(one.plan, { address: 'lead-alpha' });
    swarm.leads.claim(two.plan, { address: 'lead-beta' });
    const knownRepos = (id: string) => swarm.leads.knownRepos(id);
    // From outside both repositories the bare id is ambiguous…
    expect(() => resolvePlanRef('same', { cwd: dir, knownRepos })).toThrow(/alpha\/same, beta\/same/);
    // …<repo>/<id> names one, and the record keeps the claiming repository.
    const beta = resolvePlanRef('beta/same', { cwd: dir, knownRepos });
    expect(beta.repo).toBe(two.repo);
    expect(swarm.leads.resolve(beta)).toBe('lead-beta');
    expect(swarm.leads.resolve(resolvePlanRef(`${one.repo}/same`, { cwd: dir, knownRepos }))).toBe(
      'lead-alpha',
    );
    // Inside a repository the bare id is that repository's plan.
    expect(resolvePlanRef('same', { cwd: two.repo, knownRepos }).repo).toBe(two.repo);
  });
});

describe('handover and takeover', () => {
  it('hands over at epoch + 1 and notifies every lane; the old lead is fenced', () => {
    const { swarm, plan } = setup();
    swarm.leads.claim(plan, { address: 'boss', succession: ['deputy'], lanes: ['lane-a', 'lane-b'] });
    for (const lane of ['lane-a', 'lane-b', 'deputy']) swarm.notices.readInbox(lane);
    const record = swarm.leads.handover(plan, { from: 'boss', to: 'deputy', epoch: 1 });
    expect(record).toMatchObject({ lead: 'deputy', epoch: 2, succession: [] });
    for (const lane of ['lane-a', 'lane-b', 'deputy']) {
      const inbox = swarm.notices.readInbox(lane);
      expect(inbox).toHaveLength(1);
      expect(inbox[0]).toMatchObject({ kind: 'lead-change', from: 'boss', epoch: 2 });
      expect(inbox[0]!.text).toContain('deputy at epoch 2 (handover from boss)');
    }
    expect(() => swarm.leads.handover(plan, { from: 'boss', to: 'lane-a' })).toThrow(FencingError);
    expect(() => swarm.leads.release(plan, { address: 'boss', epoch: 1 })).toThrow(FencingError);
    expect(swarm.leads.history(plan).map((e) => [e.kind, e.epoch, e.lead])).toEqual([
      ['claim', 1, 'boss'],
      ['handover', 2, 'deputy'],
    ]);
    const journal = readJournal(plan.journalFile);
    expect(journal.map((e) => [e.type, e.event, e.epoch])).toEqual([
      ['observation', 'lead.claimed', 1],
      ['observation', 'lead.handover', 2],
    ]);
  });

  it('takes over only when the lead is unreachable, by the first reachable succession entry', () => {
    const { swarm, plan, now } = setup();
    swarm.agents.register({ address: 'boss' });
    swarm.agents.register({ address: 'deputy' });
    swarm.agents.register({ address: 'lane-a' });
    swarm.leads.claim(plan, { address: 'boss', succession: ['deputy', 'lane-a'] });

    const whileReachable = () => swarm.leads.takeover(plan, { address: 'deputy' });
    expect(whileReachable).toThrow(LeadRecordError);
    expect(whileReachable).toThrow(/lead boss is reachable/);

    // 901 s later nobody heartbeated: boss, deputy and lane-a are all unreachable; lane-a heartbeats.
    now.value += 901_000;
    swarm.agents.heartbeat('lane-a');
    swarm.agents.heartbeat('deputy');
    let refusal: unknown;
    try {
      swarm.leads.takeover(plan, { address: 'lane-a' });
    } catch (error) {
      refusal = error;
    }
    expect(LeadRecordError.isInstance(refusal) && refusal.reason).toBe('earlier-successor-reachable');
    expect(() => swarm.leads.takeover(plan, { address: 'stranger' })).toThrow(
      /not in the effective succession/,
    );

    const record = swarm.leads.takeover(plan, { address: 'deputy' });
    expect(record).toMatchObject({ lead: 'deputy', epoch: 2, succession: ['lane-a'] });
    const event = swarm.leads.history(plan).at(-1)!;
    expect(event).toMatchObject({ kind: 'takeover', previousLead: 'boss', lead: 'deputy' });
    expect(event.reason).toMatch(/lead unreachable: no heartbeat for 901s/);
    // The returning lead finds the notice…
    expect(swarm.notices.readInbox('boss').at(-1)!.text).toContain('deputy at epoch 2 (takeover from boss');
  });

  it('a lead with no agent registered is unreachable; an asserted usage limit is recorded as asserted', () => {
    const { swarm, plan } = setup();
    swarm.agents.register({ address: 'deputy' });
    swarm.leads.claim(plan, { address: 'ghost', succession: ['deputy'] });
    expect(swarm.leads.takeover(plan, { address: 'deputy' }).epoch).toBe(2);
    expect(swarm.leads.history(plan).at(-1)!.reason).toContain('no agent registered');

    swarm.agents.register({ address: 'third' });
    swarm.leads.claim(plan, { address: 'deputy', succession: ['third'] });
    const record = swarm.leads.takeover(plan, { address: 'third', reason: 'usage_limit' });
    expect(record.epoch).toBe(3);
    expect(swarm.leads.history(plan).at(-1)!.reason).toBe('asserted by third: usage_limit');
  });

  it('without an explicit succession a lane takes over: the default succession is the lanes in launch order', () => {
    const { swarm, plan } = setup();
    for (const a of ['lane-a', 'lane-b']) swarm.agents.register({ address: a });
    swarm.leads.claim(plan, { address: 'ghost', lanes: ['lane-a'] });
    swarm.leads.claim(plan, { address: 'ghost', lanes: ['lane-b'] });
    expect(swarm.leads.effectiveSuccession(plan)).toEqual([
      { address: 'lane-a', source: 'lane' },
      { address: 'lane-b', source: 'lane' },
    ]);
    // lane-a is reachable and earlier: lane-b waits its turn.
    expect(() => swarm.leads.takeover(plan, { address: 'lane-b' })).toThrow(/lane-a comes before lane-b/);
    const record = swarm.leads.takeover(plan, { address: 'lane-a' });
    expect(record).toMatchObject({ lead: 'lane-a', epoch: 2 });
    // The new lead never appears in its own succession; lane-b is next.
    expect(swarm.leads.effectiveSuccession(plan).map((c) => c.address)).toEqual(['lane-b']);
  });

  it('after a handover a remaining lane can take over; the order is list, designate, lanes, host', () => {
    const { swarm, plan } = setup();
    swarm.agents.register({ address: 'other-plan', plan: { repo: '/elsewhere', id: 'x' } });
    for (const a of ['lane-a', 'lane-b', 'deputy', 'idle-here']) swarm.agents.register({ address: a });
    swarm.leads.claim(plan, { address: 'boss', succession: ['first'], lanes: ['lane-a', 'lane-b'] });
    swarm.leads.designate(plan, { from: 'boss', designate: 'deputy' });
    expect(swarm.leads.effectiveSuccession(plan)).toEqual([
      { address: 'deputy', source: 'succession' },
      { address: 'first', source: 'succession' },
      { address: 'lane-a', source: 'lane' },
      { address: 'lane-b', source: 'lane' },
      { address: 'idle-here', source: 'host' },
    ]);
    swarm.leads.handover(plan, { from: 'boss', to: 'deputy' });
    // The handover removed the new lead from the list and added nobody: the lanes still follow.
    expect(swarm.leads.effectiveSuccession(plan).map((c) => c.address)).toEqual([
      'first',
      'lane-a',
      'lane-b',
      'idle-here',
    ]);
    swarm.agents.deregister('deputy');
    const record = swarm.leads.takeover(plan, { address: 'lane-a' });
    expect(record).toMatchObject({ lead: 'lane-a', epoch: 3 });
    // An agent bound to another plan is never a candidate.
    expect(() => swarm.leads.takeover(plan, { address: 'other-plan', reason: 'usage_limit' })).toThrow(
      /not in the effective succession/,
    );
  });

  it('a takeover at an epoch that moved is a fencing error (compare-and-set)', () => {
    const { swarm, plan } = setup();
    swarm.leads.claim(plan, { address: 'ghost', succession: ['deputy', 'second'] });
    swarm.leads.takeover(plan, { address: 'deputy', epoch: 1 });
    let error: unknown;
    try {
      swarm.leads.takeover(plan, { address: 'second', epoch: 1 });
    } catch (caught) {
      error = caught;
    }
    expect(FencingError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ epoch: 1, currentEpoch: 2, currentLead: 'deputy' });
  });
});

describe('fencing', () => {
  it('refuses merges, tags and releases at a lower epoch and records the refusal', () => {
    const { swarm, plan } = setup();
    swarm.leads.claim(plan, { address: 'boss', succession: ['deputy'] });
    expect(swarm.leads.assertCurrentEpoch(plan, { epoch: 1, address: 'boss', action: 'merge' }).lead).toBe(
      'boss',
    );
    swarm.leads.handover(plan, { from: 'boss', to: 'deputy' });

    let error: unknown;
    try {
      swarm.leads.assertCurrentEpoch(plan, { epoch: 1, address: 'boss', action: 'tag v1' });
    } catch (caught) {
      error = caught;
    }
    expect(FencingError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ action: 'tag v1', epoch: 1, currentEpoch: 2, currentLead: 'deputy' });
    expect((error as Error).message).toContain('epoch 1 is older than the current epoch 2');
    expect(() => swarm.leads.assertCurrentEpoch(plan, { epoch: 2, address: 'boss' })).toThrow(
      /boss is not the lead/,
    );
    expect(() => swarm.leads.assertCurrentEpoch(plan, { epoch: 3 })).toThrow(/does not exist yet/);
    expect(swarm.leads.assertCurrentEpoch(plan, { epoch: 2 }).lead).toBe('deputy');
    expect(
      swarm.leads
        .history(plan)
        .filter((e) => e.kind === 'fence-refused')
        .map((e) => e.reason),
    ).toEqual(['tag v1', 'fenced action', 'fenced action']);
  });

  it('a returning lead that sees a higher epoch steps down, and nothing else changes', () => {
    const { swarm, plan } = setup();
    swarm.leads.claim(plan, { address: 'boss', succession: ['deputy'] });
    expect(swarm.leads.checkLeadership(plan, { address: 'boss', epoch: 1 }).current).toBe(true);
    swarm.leads.takeover(plan, { address: 'deputy' });
    const check = swarm.leads.checkLeadership(plan, { address: 'boss', epoch: 1 });
    expect(check).toMatchObject({ current: false, steppedDown: true });
    expect(check.current ? '' : check.why).toBe('epoch 2 (lead deputy) is higher than 1');
    expect(swarm.leads.get(plan)).toMatchObject({ lead: 'deputy', epoch: 2 });
    expect(readJournal(plan.journalFile).at(-1)).toMatchObject({
      event: 'lead.stepped-down',
      by: 'boss',
      heldEpoch: 1,
    });
  });

  it('a lead check at an epoch the plan never had is an input error, and records nothing', () => {
    const { swarm, plan } = setup();
    swarm.leads.claim(plan, { address: 'boss', succession: ['deputy'] });
    swarm.leads.takeover(plan, { address: 'deputy' });
    const events = swarm.leads.history(plan).length;
    const journalLines = readJournal(plan.journalFile).length;
    expect(() => swarm.leads.checkLeadership(plan, { address: 'deputy', epoch: 3 })).toThrow(
      /epoch "3" is not valid: expected an epoch this plan has had \(it is at epoch 2, lead deputy\)/,
    );
    expect(swarm.leads.history(plan)).toHaveLength(events);
    expect(readJournal(plan.journalFile)).toHaveLength(journalLines);
    expect(swarm.leads.checkLeadership(plan, { address: 'deputy', epoch: 2 }).current).toBe(true);
  });

  it('releases: only the current lead, its leases for the plan go with it, and the plan is claimable again', () => {
    const { swarm, plan } = setup();
    swarm.leads.claim(plan, { address: 'boss', lanes: ['lane-a'] });
    swarm.leases.acquire({ poolId: 'sim:a', holder: 'lane-a', owner: 'boss', plan });
    swarm.leases.acquire({ poolId: 'sim:b', holder: 'lane-b', owner: 'boss' });
    expect(() => swarm.leads.release(plan, { address: 'lane-a' })).toThrow(FencingError);
    const released = swarm.leads.release(plan, { address: 'boss', epoch: 1 });
    expect(released.releasedAt).toBeDefined();
    expect(swarm.leases.list().map((l) => l.poolId)).toEqual(['sim:b']);
    expect(() => swarm.leads.resolve(plan)).toThrow(/released/);
    expect(() => swarm.leads.assertCurrentEpoch(plan, { epoch: 1, address: 'boss' })).toThrow(FencingError);
    expect(swarm.leads.claim(plan, { address: 'next' }).record.epoch).toBe(2);
  });

  it('release records a lease of the plan that already expired as expired at its expiry, not as released', () => {
    const { swarm, plan, now } = setup();
    swarm.leads.claim(plan, { address: 'boss', lanes: ['lane-a', 'lane-b'] });
    const short = swarm.leases.acquire({
      poolId: 'sim:a',
      holder: 'lane-a',
      owner: 'boss',
      plan,
      ttlMs: 1000,
    });
    swarm.leases.acquire({ poolId: 'sim:b', holder: 'lane-b', owner: 'boss', plan, ttlMs: 60_000 });
    now.value += 5000;
    swarm.leads.release(plan, { address: 'boss', epoch: 1 });
    expect(swarm.leases.list()).toEqual([]);
    expect(swarm.leases.events().map((e) => [e.poolId, e.event, e.at])).toEqual([
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

  it('no record: clear errors', () => {
    const { swarm } = setup();
    const other = planLocation({ repo: '/nowhere', id: 'x' });
    expect(() => swarm.leads.resolve(other)).toThrow(/has no lead record/);
    expect(() => swarm.leads.assertCurrentEpoch(other, { epoch: 1 })).toThrow(LeadRecordError);
  });

  it('claim validates the plan file first: an invalid plan writes no record and no journal line', () => {
    const { swarm, plan } = setup();
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
        swarm.leads.claim(plan, { address: 'boss', lanes: ['lane-a'] });
      } catch (caught) {
        error = caught;
      }
      expect(PlanFileError.isInstance(error), String(error)).toBe(true);
      expect((error as Error).message).toMatch(message);
      expect(swarm.leads.get(plan)).toBeUndefined();
      expect(existsSync(plan.journalFile)).toBe(false);
    }
  });
});
