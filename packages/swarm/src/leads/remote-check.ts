import { basename, resolve } from 'node:path';
import { RemoteStateError } from '../errors/remote-state-error';
import { tryGit } from '../git/run-git';
import { readSeconds, type SwarmEnv } from '../settings/swarm-env';

/** Seconds a fenced action waits for the remote to answer `git ls-remote` (default 60). */
export const BULLSWARM_REMOTE_TIMEOUT_SEC = 'BULLSWARM_REMOTE_TIMEOUT_SEC';
export const DEFAULT_REMOTE_TIMEOUT_SEC = 60;

/** One ref read from the remote before a fenced action, and why it allows the action. */
export interface RemoteRefCheck {
  /** `refs/heads/main`, `refs/tags/v2`. */
  readonly ref: string;
  /** What the remote has there (null: nothing). */
  readonly remoteHead: string | null;
  /** What the checkout would put there (its commit, or its tag object). */
  readonly localHead: string | null;
  /** Why it is allowed, in a few words (`contained in HEAD`, `not on the remote yet`). */
  readonly why: string;
}

/** What was read from the remote before a fenced action ran. */
export type RemoteCheck =
  | { readonly checked: true; readonly remote: string; readonly refs: readonly RemoteRefCheck[] }
  | { readonly checked: false; readonly why: string };

/** What a fenced command touches on the remote. */
interface FencedRefs {
  /** The git working directory (`git -C <dir>` moves it). */
  readonly dir: string;
  /** A remote named by the command (`git push <remote> …`). */
  readonly remote: string | undefined;
  /** Branches whose remote head must be contained in a local commit: `refs/heads/<b>` → local rev. */
  readonly branches: readonly { readonly branch: string; readonly local: string }[];
  /** Tags that must not be on the remote (unless at the same object). */
  readonly tags: readonly string[];
  /** Remote branches a push deletes: the remote must still be where it was last fetched. */
  readonly deletes: readonly string[];
}

const TAG_VALUE_OPTIONS = new Set(['-m', '-F', '-u', '--message', '--file', '--local-user', '--cleanup']);
const TAG_NOT_CREATING = new Set(['-d', '--delete', '-l', '--list', '-v', '--verify']);

/** The git subcommand and its arguments, past git's own options (`-C <dir>`, `-c <k=v>`). */
function gitSubcommand(command: readonly string[], cwd: string) {
  let dir = cwd;
  let i = 1;
  while (i < command.length && command[i]!.startsWith('-')) {
    if (command[i] === '-C') dir = resolve(dir, command[i + 1] ?? '.');
    i += command[i] === '-C' || command[i] === '-c' ? 2 : 1;
  }
  return { dir, sub: command[i], args: command.slice(i + 1) };
}

function positionals(args: readonly string[], valueOptions: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      out.push(...args.slice(i + 1));
      break;
    }
    if (valueOptions.has(arg)) i += 1;
    else if (!arg.startsWith('-')) out.push(arg);
  }
  return out;
}

/** The refs a fenced command touches: the current branch always; tags and pushed refs for git. */
function fencedRefs(command: readonly string[], cwd: string, branch: string | undefined): FencedRefs {
  const current = branch === undefined ? [] : [{ branch, local: 'HEAD' }];
  if (basename(command[0] ?? '') !== 'git') {
    return { dir: cwd, remote: undefined, branches: current, tags: [], deletes: [] };
  }
  const { dir, sub, args } = gitSubcommand(command, cwd);
  if (sub === 'tag') {
    const creating = !args.some((a) => TAG_NOT_CREATING.has(a));
    const name = positionals(args, TAG_VALUE_OPTIONS)[0];
    return { dir, remote: undefined, branches: current, tags: creating && name ? [name] : [], deletes: [] };
  }
  if (sub === 'push') {
    const [remote, ...specs] = positionals(args, new Set(['-o', '--push-option', '--repo']));
    const branches = [...current];
    const tags: string[] = [];
    const deletes: string[] = [];
    for (const raw of specs) {
      const spec = raw.replace(/^\+/, '');
      const colon = spec.indexOf(':');
      const src = colon === -1 ? spec : spec.slice(0, colon);
      const dst = colon === -1 ? spec : spec.slice(colon + 1);
      const tagName = dst.startsWith('refs/tags/') ? dst.slice('refs/tags/'.length) : undefined;
      if (src === '') deletes.push(dst.replace(/^refs\/heads\//, ''));
      else if (tagName !== undefined) tags.push(tagName);
      else if (
        !dst.startsWith('refs/') &&
        tryGit(dir, ['show-ref', '--verify', '--quiet', `refs/tags/${dst}`]).status === 0
      )
        tags.push(dst);
      else branches.push({ branch: dst.replace(/^refs\/heads\//, ''), local: src });
    }
    return { dir, remote, branches, tags, deletes };
  }
  return { dir, remote: undefined, branches: current, tags: [], deletes: [] };
}

function gitLine(dir: string, args: readonly string[]): string | undefined {
  const result = tryGit(dir, args);
  return result.status === 0 ? result.stdout.trim() || undefined : undefined;
}

/** The remote a fenced action is checked against: given, the branch's own, `origin`, or the only one. */
function remoteOf(dir: string, branch: string | undefined, given: string | undefined): string | undefined {
  if (given !== undefined) return given;
  const own = branch === undefined ? undefined : gitLine(dir, ['config', '--get', `branch.${branch}.remote`]);
  if (own !== undefined && own !== '.') return own;
  const remotes = (gitLine(dir, ['remote']) ?? '').split('\n').filter((r) => r !== '');
  if (remotes.includes('origin')) return 'origin';
  return remotes.length === 1 ? remotes[0] : undefined;
}

/**
 * Reads the remote's state before a fenced merge, tag or release runs (swarm-autonomy, "Fencing":
 * they "are checked against the remote first") and refuses when the remote has moved past what
 * the lead's checkout shows:
 *
 * - the current branch (any command run in a git checkout on a branch) and every branch a
 *   `git push` updates: the remote's head must be absent, or contained in the local commit (it
 *   is in `HEAD`, or in the pushed source) — else `moved`;
 * - a tag `git tag <name>` creates or `git push` sends: absent from the remote, or there at the
 *   same object — else `tag-exists`;
 * - a branch `git push` deletes: still where it was last fetched — else `moved`.
 *
 * The remote is `remote`, else the one `git push <remote>` names, else the branch's upstream
 * remote, `origin`, or the only remote. It is read with `git ls-remote`, never prompting
 * (`GIT_TERMINAL_PROMPT=0`, ssh in batch mode), bounded by `BULLSWARM_REMOTE_TIMEOUT_SEC` (60 s);
 * a remote that cannot be read refuses the action (`unreadable`: nothing vouches for it). A
 * directory that is not a git checkout, or a checkout with no remote, has nothing to check.
 *
 * @throws RemoteStateError naming the remote, the ref and both heads; nothing ran.
 */
export function checkRemoteBeforeFence(
  command: readonly string[],
  cwd: string,
  options: { readonly remote?: string; readonly env?: SwarmEnv } = {},
): RemoteCheck {
  if (tryGit(cwd, ['rev-parse', '--is-inside-work-tree']).status !== 0) {
    return { checked: false, why: `${cwd} is not a git checkout` };
  }
  const branch = gitLine(cwd, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
  const refs = fencedRefs(command, cwd, branch);
  const remote = remoteOf(refs.dir, branch, options.remote ?? refs.remote);
  if (remote === undefined) return { checked: false, why: 'the checkout has no remote' };
  const names = [
    ...refs.branches.map((b) => `refs/heads/${b.branch}`),
    ...refs.deletes.map((b) => `refs/heads/${b}`),
    ...refs.tags.map((t) => `refs/tags/${t}`),
  ];
  const timeoutMs =
    readSeconds(options.env ?? {}, BULLSWARM_REMOTE_TIMEOUT_SEC, DEFAULT_REMOTE_TIMEOUT_SEC) * 1000;
  // Never a prompt (no human keystroke): git's own is off, and ssh runs in batch mode unless the
  // user chose an ssh command (GIT_SSH_COMMAND, GIT_SSH or core.sshCommand).
  const ownSsh =
    process.env.GIT_SSH_COMMAND !== undefined ||
    process.env.GIT_SSH !== undefined ||
    gitLine(refs.dir, ['config', '--get', 'core.sshCommand']) !== undefined;
  const listed = tryGit(refs.dir, ['ls-remote', remote, ...names], {
    env: { GIT_TERMINAL_PROMPT: '0', ...(ownSsh ? {} : { GIT_SSH_COMMAND: 'ssh -o BatchMode=yes' }) },
    timeoutMs,
  });
  if (listed.status !== 0) {
    const said = listed.timedOut
      ? `no answer within ${timeoutMs / 1000}s (${BULLSWARM_REMOTE_TIMEOUT_SEC})`
      : listed.stderr.trim().split('\n').at(-1) || `git ls-remote exited ${listed.status}`;
    throw new RemoteStateError({
      reason: 'unreadable',
      remote,
      message: `the remote ${remote} cannot be read (${said}): a fenced merge, tag or release is checked against the remote first, so nothing ran`,
    });
  }
  const heads = new Map<string, string>();
  for (const line of listed.stdout.split('\n')) {
    const [sha, ref] = line.split('\t');
    if (sha && ref) heads.set(ref, sha);
  }
  const checks: RemoteRefCheck[] = [];
  const refuse = (
    reason: 'moved' | 'tag-exists',
    ref: string,
    remoteHead: string,
    local: string | null,
    why: string,
  ) => {
    throw new RemoteStateError({
      reason,
      remote,
      ref,
      remoteHead,
      ...(local === null ? {} : { localHead: local }),
      message: `${remote} ${ref} is at ${remoteHead.slice(0, 12)}: ${why}; nothing ran (fetch, look, and act on what the remote has)`,
    });
  };
  for (const { branch: name, local } of refs.branches) {
    const ref = `refs/heads/${name}`;
    const localHead = gitLine(refs.dir, ['rev-parse', '--verify', '--quiet', `${local}^{commit}`]) ?? null;
    const remoteHead = heads.get(ref) ?? null;
    if (remoteHead === null) checks.push({ ref, remoteHead, localHead, why: 'not on the remote yet' });
    else if (remoteHead === localHead) checks.push({ ref, remoteHead, localHead, why: `at ${local}` });
    else if (
      localHead !== null &&
      gitLine(refs.dir, ['cat-file', '-t', remoteHead]) === 'commit' &&
      tryGit(refs.dir, ['merge-base', '--is-ancestor', remoteHead, localHead]).status === 0
    ) {
      checks.push({ ref, remoteHead, localHead, why: `contained in ${local}` });
    } else {
      refuse(
        'moved',
        ref,
        remoteHead,
        localHead,
        `the remote moved past ${local} (${localHead?.slice(0, 12) ?? 'none'}), which does not contain it`,
      );
    }
  }
  for (const name of refs.deletes) {
    const ref = `refs/heads/${name}`;
    const remoteHead = heads.get(ref) ?? null;
    const fetched =
      gitLine(refs.dir, ['rev-parse', '--verify', '--quiet', `refs/remotes/${remote}/${name}`]) ?? null;
    if (remoteHead !== null && remoteHead !== fetched) {
      refuse(
        'moved',
        ref,
        remoteHead,
        fetched,
        `it moved since it was last fetched (${fetched?.slice(0, 12) ?? 'never'})`,
      );
    }
    checks.push({ ref, remoteHead, localHead: fetched, why: 'where it was last fetched' });
  }
  for (const name of refs.tags) {
    const ref = `refs/tags/${name}`;
    const remoteHead = heads.get(ref) ?? null;
    const localHead = gitLine(refs.dir, ['rev-parse', '--verify', '--quiet', ref]) ?? null;
    if (remoteHead === null) checks.push({ ref, remoteHead, localHead, why: 'not on the remote yet' });
    else if (remoteHead === localHead)
      checks.push({ ref, remoteHead, localHead, why: 'on the remote already, the same tag' });
    else
      refuse(
        'tag-exists',
        ref,
        remoteHead,
        localHead,
        `the tag is on the remote already${localHead === null ? '' : ` and differs from the local one (${localHead.slice(0, 12)})`}`,
      );
  }
  return { checked: true, remote, refs: checks };
}
