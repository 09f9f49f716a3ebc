import { BullswarmError, hasErrorMarker } from './bullswarm-error';

const errorKey = 'bullswarm.error.UnsupportedConnectorVersionError';
const marker = Symbol.for(errorKey);

/** A connector declares a `specificationVersion` this package cannot drive. */
export class UnsupportedConnectorVersionError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [marker] = true;
  /** The version the value declared (undefined when it declared none). */
  readonly version: unknown;
  /** The versions this package supports. */
  readonly supportedVersions: readonly string[];
  /** Where the value came from (file or package), when known. */
  readonly source: string | undefined;

  constructor(options: { version: unknown; supportedVersions: readonly string[]; source?: string }) {
    const where = options.source ? `${options.source}: ` : '';
    super({
      name: 'UnsupportedConnectorVersionError',
      message: `${where}specificationVersion: ${JSON.stringify(options.version)} is not supported; expected one of ${options.supportedVersions.map((v) => `"${v}"`).join(', ')}`,
    });
    this.version = options.version;
    this.supportedVersions = options.supportedVersions;
    this.source = options.source;
  }

  static override isInstance(value: unknown): value is UnsupportedConnectorVersionError {
    return hasErrorMarker(value, errorKey);
  }
}
