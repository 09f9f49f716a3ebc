import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { LeaseRefusedError } from '../errors/lease-refused-error';
import { createRepo, openTestSwarm, tempDirs, useSwarmStoreEngine } from '../test-support/swarm-fixture';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const STALE_MS = 900_000;

/** Two hosts (`host-a`, `host-b`) sharing one Postgres database, each with its own swarm over it. */
async function twoHosts() {
  const dir = dirs.make();
  const { plan } = createRepo(join(dir, 'repo'));
  const now = { value: Date.now() };
  const a = await openTestSwarm(dir, { hostId: 'host-a', now, settings: { agentStaleMs: STALE_MS } });
  const b = await openTestSwarm(dir, {
    hostId: 'host-b',
    now,
    storeUrl: a.storeUrl!,
    settings: { agentStaleMs: STALE_MS },
  });
  return { plan, now, a: a.swarm, b: b.swarm };
}

// One picture across hosts (docs/swarm.md, "Many hosts, one store"): every record one host
// writes, the other reads; an agent of another host is judged by its heartbeat, never by a pid.
if (inject('pgUrl') === '') {
  it.skip('across two hosts on Postgres (no server here: install postgresql or set BULLSWARM_TEST_PG_URL)', () => {});
} else {
  useSwarmStoreEngine('postgres');
  describe('two hosts, one Postgres store', () => {
    it('an agent whose process was killed is unreachable on its own host at once, and on the other only once its heartbeat is stale', async () => {
      const { a, b, now } = await twoHosts();
      const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
      try {
        await a.agents.register({ address: 'lane-a', pid: child.pid! });
        expect((await b.agents.get('lane-a'))?.host).toBe('host-a');
        expect(await a.agents.reachability('lane-a')).toMatchObject({ reachable: true });
      } finally {
        child.kill('SIGKILL');
        await new Promise((resolve) => child.once('exit', resolve));
      }
      // Host A checks the pid and its start time: gone.
      expect((await a.agents.reachability('lane-a')).why).toMatch(/its process \d+ is gone/);
      // Host B cannot see A's processes: the heartbeat decides, and it is fresh.
      expect(await b.agents.reachability('lane-a')).toMatchObject({ reachable: true });
      now.value += STALE_MS - 1000;
      expect(await b.agents.reachability('lane-a')).toMatchObject({ reachable: true });
      now.value += 2000;
      expect(await b.agents.reachability('lane-a')).toMatchObject({
        reachable: false,
        why: expect.stringMatching(/^no heartbeat for 901s/),
      });
    });

    it("one host's lead record, leases and notices are the other's: a held account is refused across hosts", async () => {
      const { a, b, plan } = await twoHosts();
      await a.agents.register({ address: 'boss' });
      await a.leads.claim(plan, { address: 'boss', succession: ['deputy'], lanes: ['lane-a'] });
      expect(await b.leads.get(plan)).toMatchObject({ lead: 'boss', epoch: 1, lanes: ['lane-a'] });
      // The lead notice host A sent on the claim is in the lane's inbox, read on host B.
      expect((await b.notices.readInbox('lane-a')).map((n) => n.kind)).toEqual(['lead-change']);

      await a.leases.acquire({ poolId: 'sim:work1', holder: 'lane-a', owner: 'boss', plan, task: 'api' });
      const refused = await b.leases
        .acquire({ poolId: 'sim:work1', holder: 'lane-b', owner: 'boss' })
        .catch((error: unknown) => error);
      expect(LeaseRefusedError.isInstance(refused)).toBe(true);
      expect(refused).toMatchObject({ reason: 'held', holder: 'lane-a' });

      await b.notices.send({ to: 'boss', from: 'lane-b', plan, text: 'PR open https://example.invalid/1' });
      expect((await a.notices.readInbox('boss')).map((n) => [n.from, n.text])).toEqual([
        ['lane-b', 'PR open https://example.invalid/1'],
      ]);
      // The same handover, seen from both hosts.
      await a.leads.handover(plan, { from: 'boss', to: 'deputy', epoch: 1 });
      expect(await b.leads.get(plan)).toMatchObject({ lead: 'deputy', epoch: 2 });
    });

    it("the host tier of the default succession is the lead's own host, judged by the record's host ids", async () => {
      const { a, b, plan } = await twoHosts();
      await a.agents.register({ address: 'boss' });
      await a.agents.register({ address: 'helper-a' });
      await b.agents.register({ address: 'helper-b' });
      await b.leads.claim(plan, { address: 'boss' }); // claimed from host B: the lead is registered on A
      expect((await b.leads.effectiveSuccession(plan)).map((c) => [c.address, c.source])).toEqual([
        ['helper-a', 'host'],
      ]);
    });
  });
}
