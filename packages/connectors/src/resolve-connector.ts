import { InvalidConnectorError, UnsupportedConnectorVersionError } from './errors';
import type { ConnectorV1 } from './spec/v1';

/** The specification versions this package can drive. */
export const SUPPORTED_SPECIFICATION_VERSIONS = ['connector-v1'] as const;

const REQUIRED_METHODS = ['buildInvocation', 'createOutputParser', 'classifyOutcome', 'accountEnv'] as const;
const REQUIRED_STRINGS = ['connectorId', 'displayName', 'providerFamily', 'credentialGroup'] as const;

/**
 * Checks that `value` is a connector this package can drive and returns it typed.
 *
 * Like the AI SDK's `resolveModel`: the `specificationVersion` tag is checked first (an unknown
 * version throws {@link UnsupportedConnectorVersionError}; a future v2 is adapted here), then the
 * shape is duck-checked (a missing member throws {@link InvalidConnectorError} naming it).
 *
 * @param source where the value came from, for messages (package name or file)
 */
export function resolveConnector(value: unknown, source = 'connector'): ConnectorV1 {
  if (typeof value !== 'object' || value === null) {
    throw new InvalidConnectorError({
      source,
      field: '(value)',
      message: `expected a connector object, got ${value === null ? 'null' : typeof value}`,
    });
  }
  const candidate = value as Record<string, unknown>;
  const version = candidate.specificationVersion;
  if (!SUPPORTED_SPECIFICATION_VERSIONS.includes(version as 'connector-v1')) {
    throw new UnsupportedConnectorVersionError({
      version,
      supportedVersions: SUPPORTED_SPECIFICATION_VERSIONS,
      source,
    });
  }
  for (const field of REQUIRED_STRINGS) {
    if (typeof candidate[field] !== 'string' || candidate[field] === '') {
      throw new InvalidConnectorError({ source, field, message: 'expected a non-empty string' });
    }
  }
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(candidate.connectorId as string)) {
    throw new InvalidConnectorError({ source, field: 'connectorId', message: 'expected a kebab-case id' });
  }
  for (const field of REQUIRED_METHODS) {
    if (typeof candidate[field] !== 'function') {
      throw new InvalidConnectorError({ source, field, message: 'expected a function' });
    }
  }
  if (!Array.isArray(candidate.lanes) || candidate.lanes.length === 0) {
    throw new InvalidConnectorError({
      source,
      field: 'lanes',
      message: 'expected a non-empty array of lanes',
    });
  }
  if (typeof candidate.modelProfiles !== 'object' || candidate.modelProfiles === null) {
    throw new InvalidConnectorError({
      source,
      field: 'modelProfiles',
      message: 'expected an object of tier → models',
    });
  }
  if (typeof candidate.meter !== 'object' || candidate.meter === null) {
    throw new InvalidConnectorError({ source, field: 'meter', message: 'expected a meter source object' });
  }
  return value as ConnectorV1;
}
