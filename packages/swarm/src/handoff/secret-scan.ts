// The secret scan of handoff packets uses bullswarm's one redactor (@bullswarm/connectors,
// packages/connectors/src/redact/redact-secrets.ts); re-exported here for the swarm's callers.
export {
  CREDENTIAL_ENV_NAME,
  createRedactor,
  credentialValues,
  HIGH_ENTROPY_BITS,
  HIGH_ENTROPY_MIN_LENGTH,
  MIN_CREDENTIAL_VALUE_LENGTH,
  type Redactor,
  redactSecrets,
  SECRET_PATTERNS,
  scanForSecrets,
  secretKindOf,
  shannonEntropy,
} from '@bullswarm/connectors';
