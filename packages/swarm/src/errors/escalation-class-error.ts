import { BullswarmError, hasErrorMarker } from '@bullswarm/pacing';

const errorKey = 'bullswarm.error.EscalationClassError';
const marker = Symbol.for(errorKey);

/**
 * An escalation names no class (or not one of C1–C7): it is refused, because a question that names
 * no class is a decision the agent owes — investigate, take the recommended option, record the
 * decision and continue.
 */
export class EscalationClassError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [marker] = true;
  /** What was given as the class (undefined when none). */
  readonly received: string | undefined;

  constructor(received: string | undefined) {
    super({
      name: 'EscalationClassError',
      fault: 'input',
      message:
        (received === undefined
          ? 'the escalation names no class'
          : `"${received}" is not an escalation class`) +
        ': an escalation must name its class C1–C7 (C1 authority, C2 consent screen, C3 irreducible ambiguity, ' +
        'C4 quality conflict, C5 damage, C6 terms, C7 capacity exhausted); a question that names none is a ' +
        'decision the agent owes: investigate, take the recommended option, record the decision and continue',
    });
    this.received = received;
  }

  static override isInstance(value: unknown): value is EscalationClassError {
    return hasErrorMarker(value, errorKey);
  }
}
