import { BullswarmError, hasErrorMarker } from '@bullswarm/pacing';

const errorKey = 'bullswarm.error.SecretInPacketError';
const marker = Symbol.for(errorKey);

/** One secret-shaped value found in a packet: where, and what it looks like (never the value). */
export interface SecretFinding {
  /** The packet field, e.g. `next[1]` or `decisions[0].why`. */
  readonly path: string;
  /**
   * The shape: `openai-key`, `anthropic-key`, `github-token`, `github-pat`, `slack-token`,
   * `aws-access-key`, `jwt`, `private-key`, `high-entropy`, or `env:<NAME>` for the value of a
   * credential environment variable.
   */
  readonly kind: string;
}

/** A handoff packet carries a secret; nothing was written. The findings never repeat the value. */
export class SecretInPacketError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [marker] = true;
  readonly findings: readonly SecretFinding[];

  constructor(findings: readonly SecretFinding[]) {
    super({
      name: 'SecretInPacketError',
      message: `the handoff packet carries a secret, nothing was written: ${findings
        .map((f) => `${f.path} (${f.kind})`)
        .join(', ')}; a packet is data and never carries a secret value: name where the secret lives instead`,
    });
    this.findings = findings;
  }

  static override isInstance(value: unknown): value is SecretInPacketError {
    return hasErrorMarker(value, errorKey);
  }
}
