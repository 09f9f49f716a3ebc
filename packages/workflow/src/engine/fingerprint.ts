import { createHash } from 'node:crypto';
import { canonicalJson } from '@bullswarm/connectors/internal';

/**
 * The content fingerprint of a unit: sha-256 over its rendered prompt, its item, the outputs of
 * the steps it depends on, and the step settings that change what it does. Resume matches fan-out
 * items by it, so a changed discovery order (a glob, an upstream list) redoes nothing verified.
 */
export function unitFingerprint(parts: {
  readonly prompt: string;
  readonly item?: unknown;
  readonly dependencyOutputs: Readonly<Record<string, unknown>>;
  readonly settings: unknown;
}): string {
  return createHash('sha256')
    .update(canonicalJson({ v: 1, ...parts }))
    .digest('hex');
}
