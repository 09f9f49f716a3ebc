import { BullswarmError, hasErrorMarker } from './bullswarm-error';

const errorKey = 'bullswarm.error.ConnectorLoadError';
const marker = Symbol.for(errorKey);

/** Why one connector could not be loaded. */
export type ConnectorLoadErrorReason =
  | 'unreadable'
  | 'invalid-json'
  | 'invalid-manifest'
  | 'not-found'
  | 'import-failed'
  | 'invalid-connector'
  | 'unsupported-version';

/**
 * One connector that could not be loaded. The loader collects these and keeps loading the
 * others. The message names the file and the field path, e.g.
 * `providers/foo/connector.json: modelProfiles.high[0].model: expected string`.
 */
export class ConnectorLoadError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [marker] = true;
  /** The file (manifest path) or package specifier that failed. */
  readonly source: string;
  /** The field path inside the manifest, when one field is to blame (`modelProfiles.high[0].model`). */
  readonly fieldPath: string | undefined;
  readonly reason: ConnectorLoadErrorReason;

  constructor(options: {
    source: string;
    reason: ConnectorLoadErrorReason;
    fieldPath?: string;
    message: string;
    cause?: unknown;
  }) {
    const field = options.fieldPath === undefined ? '' : `${options.fieldPath || '(root)'}: `;
    super({
      name: 'ConnectorLoadError',
      message: `${options.source}: ${field}${options.message}`,
      cause: options.cause,
    });
    this.source = options.source;
    this.fieldPath = options.fieldPath;
    this.reason = options.reason;
  }

  static override isInstance(value: unknown): value is ConnectorLoadError {
    return hasErrorMarker(value, errorKey);
  }
}
