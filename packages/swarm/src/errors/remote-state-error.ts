import { BullswarmError, hasErrorMarker } from '@bullswarm/pacing';

const errorKey = 'bullswarm.error.RemoteStateError';
const marker = Symbol.for(errorKey);

/**
 * Why a fenced merge, tag or release was refused after reading the remote:
 * - `moved`: the remote's branch has commits the checkout does not contain (it moved past what
 *   the lead saw);
 * - `tag-exists`: the tag is on the remote already, at another object;
 * - `unreadable`: the remote could not be read (unreachable, no access, timed out), so nothing
 *   vouches for it.
 */
export type RemoteRefusal = 'moved' | 'tag-exists' | 'unreadable';

/** A fenced action was refused because of the remote's state; nothing ran. */
export class RemoteStateError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [marker] = true;
  readonly reason: RemoteRefusal;
  /** The remote's name (`origin`). */
  readonly remote: string;
  /** The ref checked, e.g. `refs/heads/main`, `refs/tags/v2`; undefined when the remote was unreadable. */
  readonly ref: string | undefined;
  /** What the remote has at `ref`. */
  readonly remoteHead: string | undefined;
  /** What the checkout has (the commit it would merge, tag or push). */
  readonly localHead: string | undefined;

  constructor(options: {
    reason: RemoteRefusal;
    remote: string;
    ref?: string;
    remoteHead?: string;
    localHead?: string;
    message: string;
  }) {
    super({ name: 'RemoteStateError', message: options.message });
    this.reason = options.reason;
    this.remote = options.remote;
    this.ref = options.ref;
    this.remoteHead = options.remoteHead;
    this.localHead = options.localHead;
  }

  static override isInstance(value: unknown): value is RemoteStateError {
    return hasErrorMarker(value, errorKey);
  }
}
