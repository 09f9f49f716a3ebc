import { BullswarmError, hasErrorMarker } from '@bullswarm/pacing';

const errorKey = 'bullswarm.error.UnknownPoolError';
const marker = Symbol.for(errorKey);

/** A pool as listed by {@link UnknownPoolError}: its durable id and its display label, if any. */
export interface KnownPool {
  readonly id: string;
  readonly label?: string;
}

/** A pool reference (label or id) matched no pool in state.json. */
export class UnknownPoolError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [marker] = true;
  /** What the user typed. */
  readonly ref: string;
  /** Every pool that would have been accepted. */
  readonly knownPools: readonly KnownPool[];

  constructor({ ref, knownPools }: { ref: string; knownPools: readonly KnownPool[] }) {
    const listed =
      knownPools.length === 0
        ? 'no pools are configured (add one with `bullswarm setup` or `bullswarm pools add`)'
        : `known pools: ${knownPools.map((p) => (p.label === undefined ? p.id : `${p.id} (${p.label})`)).join(', ')}`;
    super({ name: 'UnknownPoolError', fault: 'input', message: `unknown pool "${ref}": ${listed}` });
    this.ref = ref;
    this.knownPools = knownPools;
  }

  static override isInstance(value: unknown): value is UnknownPoolError {
    return hasErrorMarker(value, errorKey);
  }
}
