import { BullswarmError, hasErrorMarker } from './bullswarm-error';

const errorKey = 'bullswarm.error.DuplicateConnectorError';
const marker = Symbol.for(errorKey);

/** Two connectors of the same origin (two configured entries) declare one `connectorId`. */
export class DuplicateConnectorError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [marker] = true;
  readonly connectorId: string;
  /** Every source that declared the id, in load order. */
  readonly sources: readonly string[];

  constructor(options: { connectorId: string; sources: readonly string[] }) {
    super({
      name: 'DuplicateConnectorError',
      message: `connector id "${options.connectorId}" is declared by more than one configured connector: ${options.sources.join(', ')}; give each a unique "id"`,
    });
    this.connectorId = options.connectorId;
    this.sources = options.sources;
  }

  static override isInstance(value: unknown): value is DuplicateConnectorError {
    return hasErrorMarker(value, errorKey);
  }
}
