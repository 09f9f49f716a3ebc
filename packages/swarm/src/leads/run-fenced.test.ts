import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRepo, openTestSwarm, tempDirs } from '../test-support/swarm-fixture';
import { runFenced } from './run-fenced';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

/** A repository whose plan `boss` leads at epoch 1. */
async function claimedPlan() {
  const dir = dirs.make();
  const { repo, plan } = createRepo(join(dir, 'repo'));
  const { swarm } = await openTestSwarm(dir);
  await swarm.leads.claim(plan, { address: 'boss' });
  return { swarm, repo, plan };
}

describe('runFenced', () => {
  it('a command that does not exist exits 127 and says it was not found', async () => {
    const { swarm, repo, plan } = await claimedPlan();
    const run = await runFenced(swarm, {
      plan,
      epoch: 1,
      command: ['bullswarm-no-such-binary-xyz', 'merge'],
      cwd: repo,
    });
    expect(run).toMatchObject({ exitCode: 127, stderr: 'bullswarm-no-such-binary-xyz: command not found' });
    const ok = await runFenced(swarm, { plan, epoch: 1, command: ['git', 'status', '--short'], cwd: repo });
    expect(ok.exitCode).toBe(0);
  });

  it('a command killed by a signal keeps its output and exits 128 + the signal number', async () => {
    const { swarm, repo, plan } = await claimedPlan();
    const run = await runFenced(swarm, {
      plan,
      epoch: 1,
      command: ['sh', '-c', 'echo partial-out; echo partial-err >&2; kill -9 $$'],
      cwd: repo,
    });
    expect(run).toMatchObject({
      exitCode: 137,
      stdout: 'partial-out',
      stderr: 'partial-err\nsh: killed by SIGKILL',
    });
  });
});
