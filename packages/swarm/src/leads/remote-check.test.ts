import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RemoteStateError } from '../errors/remote-state-error';
import { git, tryGit } from '../git/run-git';
import { createRepo, openTestSwarm, tempDirs } from '../test-support/swarm-fixture';
import { runFenced } from './run-fenced';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

/** A repository whose main is pushed to a local bare repository (`origin`), and a second clone of it. */
async function withRemote() {
  const dir = dirs.make();
  const { repo, plan } = createRepo(join(dir, 'repo'));
  const origin = join(dir, 'origin.git');
  git(dir, ['init', '-q', '--bare', '-b', 'main', origin]);
  git(repo, ['remote', 'add', 'origin', origin]);
  git(repo, ['push', '-q', '-u', 'origin', 'main']);
  const other = join(dir, 'other');
  git(dir, ['clone', '-q', origin, other]);
  git(other, ['config', 'user.email', 'other@example.invalid']);
  git(other, ['config', 'user.name', 'other']);
  const { swarm } = await openTestSwarm(dir);
  await swarm.leads.claim(plan, { address: 'boss' });
  const commit = (checkout: string, file: string) => {
    writeFileSync(join(checkout, file), `${file}\n`);
    git(checkout, ['add', file]);
    git(checkout, ['commit', '-q', '-m', file]);
    return git(checkout, ['rev-parse', 'HEAD']).trim();
  };
  git(repo, ['checkout', '-q', '-b', 'lane/x']);
  commit(repo, 'x.txt');
  git(repo, ['checkout', '-q', 'main']);
  const fenced = (command: string[]) =>
    runFenced(swarm, { plan, epoch: 1, address: 'boss', command, cwd: repo, env: {} });
  const refusal = async (command: string[]) => {
    try {
      await fenced(command);
    } catch (error) {
      if (RemoteStateError.isInstance(error)) return error;
      throw error;
    }
    throw new Error(`${command.join(' ')} was not refused`);
  };
  return { dir, repo, origin, other, swarm, plan, commit, fenced, refusal };
}

describe('fenced merges, tags and releases are checked against the remote first', () => {
  it('a merge runs when the remote branch is contained in HEAD, and is refused once the remote moved past it', async () => {
    const { repo, other, swarm, plan, commit, fenced, refusal } = await withRemote();
    const merged = await fenced(['git', 'merge', '--no-ff', '-q', '-m', 'merge x', 'lane/x']);
    expect(merged.exitCode, merged.stderr).toBe(0);
    expect(merged.remote).toMatchObject({
      checked: true,
      remote: 'origin',
      refs: [{ ref: 'refs/heads/main', why: 'at HEAD' }],
    });
    // The merge commit is not pushed yet: the remote's main is contained in HEAD.
    const pushed = await fenced(['git', 'push', '-q', 'origin', 'main']);
    expect(pushed.exitCode, pushed.stderr).toBe(0);
    expect(pushed.remote).toMatchObject({
      refs: [
        { ref: 'refs/heads/main', why: 'contained in HEAD' },
        { ref: 'refs/heads/main', why: 'contained in main' },
      ],
    });

    // Someone else pushes to main: the remote has moved past what this checkout shows.
    git(other, ['pull', '-q', '--ff-only']);
    const theirs = commit(other, 'theirs.txt');
    git(other, ['push', '-q', 'origin', 'main']);
    git(repo, ['checkout', '-q', '-b', 'lane/y']);
    commit(repo, 'y.txt');
    git(repo, ['checkout', '-q', 'main']);
    const head = git(repo, ['rev-parse', 'HEAD']).trim();
    const moved = await refusal(['git', 'merge', '--no-ff', '-q', '-m', 'merge y', 'lane/y']);
    expect(moved).toMatchObject({
      reason: 'moved',
      remote: 'origin',
      ref: 'refs/heads/main',
      remoteHead: theirs,
      localHead: head,
    });
    expect(moved.message).toMatch(/^origin refs\/heads\/main is at [0-9a-f]{12}: the remote moved past HEAD/);
    // Nothing ran, and the refusal is kept.
    expect(git(repo, ['rev-parse', 'HEAD']).trim()).toBe(head);
    expect((await swarm.leads.history(plan)).at(-1)).toMatchObject({ kind: 'fence-refused', actor: 'boss' });
    expect((await swarm.leads.history(plan)).at(-1)!.reason).toContain(
      'remote: origin refs/heads/main is at',
    );
    // Fetching is not enough (the commit is known but not in HEAD); taking it in is.
    git(repo, ['fetch', '-q', 'origin']);
    expect((await refusal(['git', 'merge', '--no-ff', '-q', '-m', 'merge y', 'lane/y'])).reason).toBe(
      'moved',
    );
    git(repo, ['merge', '-q', '--no-edit', 'origin/main']);
    const after = await fenced(['git', 'merge', '--no-ff', '-q', '-m', 'merge y', 'lane/y']);
    expect(after.exitCode, after.stderr).toBe(0);
    expect(after.remote).toMatchObject({
      refs: [{ ref: 'refs/heads/main', remoteHead: theirs, why: 'at HEAD' }],
    });
  });

  it('a tag already on the remote is refused before it is made; a release command checks the branch too', async () => {
    const { repo, other, fenced, refusal } = await withRemote();
    const tagged = await fenced(['git', 'tag', '-a', 'v1', '-m', 'v1']);
    expect(tagged.exitCode).toBe(0);
    expect(tagged.remote).toMatchObject({
      refs: [
        { ref: 'refs/heads/main', why: 'at HEAD' },
        { ref: 'refs/tags/v1', remoteHead: null, why: 'not on the remote yet' },
      ],
    });
    expect((await fenced(['git', 'push', '-q', 'origin', 'v1'])).exitCode).toBe(0);
    // Pushing the same tag again is allowed (the same object); another one of the same name is not.
    expect((await fenced(['git', 'push', '-q', 'origin', 'v1'])).remote).toMatchObject({
      refs: [expect.anything(), { ref: 'refs/tags/v1', why: 'on the remote already, the same tag' }],
    });
    git(other, ['tag', 'v2']);
    git(other, ['push', '-q', 'origin', 'v2']);
    const exists = await refusal(['git', 'tag', '-a', 'v2', '-m', 'mine']);
    expect(exists).toMatchObject({ reason: 'tag-exists', ref: 'refs/tags/v2' });
    expect(tryGit(repo, ['rev-parse', '--verify', '--quiet', 'refs/tags/v2']).status).not.toBe(0);
    // Any fenced command (a release script) is checked against its branch on the remote.
    git(other, ['commit', '-q', '--allow-empty', '-m', 'theirs']);
    git(other, ['push', '-q', 'origin', 'main']);
    expect((await refusal(['node', '-e', 'process.exit(0)'])).reason).toBe('moved');
  });

  it('a remote that cannot be read refuses; a checkout without a remote has nothing to check', async () => {
    const { dir, repo, plan, swarm, fenced, refusal } = await withRemote();
    git(repo, ['remote', 'set-url', 'origin', join(dir, 'gone.git')]);
    const unreadable = await refusal(['git', 'tag', 'v9']);
    expect(unreadable).toMatchObject({ reason: 'unreadable', remote: 'origin' });
    expect(unreadable.message).toMatch(/^the remote origin cannot be read \(.+\): .*nothing ran/);
    expect(tryGit(repo, ['rev-parse', '--verify', '--quiet', 'refs/tags/v9']).status).not.toBe(0);
    git(repo, ['remote', 'remove', 'origin']);
    const local = await fenced(['git', 'tag', 'v9']);
    expect(local).toMatchObject({
      exitCode: 0,
      remote: { checked: false, why: 'the checkout has no remote' },
    });
    const outside = await runFencedOutside(swarm, plan, dir);
    expect(outside.remote).toMatchObject({ checked: false });
  });
});

describe('the remote read is bounded', () => {
  it('a remote that never answers is unreadable after BULLSWARM_REMOTE_TIMEOUT_SEC, and nothing ran', async () => {
    const { dir, repo, plan, swarm } = await withRemote();
    // An ssh that never answers (it ends as soon as git, its parent, is gone: nothing is left behind).
    const ssh = join(dir, 'silent-ssh.sh');
    writeFileSync(ssh, '#!/bin/sh\nwhile kill -0 $PPID 2>/dev/null; do sleep 0.1; done\n', { mode: 0o755 });
    git(repo, ['config', 'core.sshCommand', ssh]);
    git(repo, ['remote', 'set-url', 'origin', 'ssh://remote.invalid/repo.git']);
    let error: unknown;
    try {
      await runFenced(swarm, {
        plan,
        epoch: 1,
        command: ['git', 'tag', 'slow'],
        cwd: repo,
        env: { BULLSWARM_REMOTE_TIMEOUT_SEC: '1' },
      });
    } catch (caught) {
      error = caught;
    }
    expect(RemoteStateError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'unreadable' });
    expect((error as Error).message).toContain('no answer within 1s (BULLSWARM_REMOTE_TIMEOUT_SEC)');
    expect(tryGit(repo, ['rev-parse', '--verify', '--quiet', 'refs/tags/slow']).status).not.toBe(0);
  });
});

async function runFencedOutside(
  swarm: Awaited<ReturnType<typeof openTestSwarm>>['swarm'],
  plan: ReturnType<typeof createRepo>['plan'],
  dir: string,
) {
  return runFenced(swarm, { plan, epoch: 1, command: ['node', '-e', ''], cwd: dir, env: {} });
}
