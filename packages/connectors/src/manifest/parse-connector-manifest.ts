import { formatFieldPath } from '@bullswarm/pacing/internal';
import type { z } from 'zod';
import { ConnectorLoadError } from '../errors';
import { type ConnectorManifest, connectorManifestSchema } from './connector-manifest-schema';

export { formatFieldPath };

function describeIssue(issue: z.core.$ZodIssue): string {
  const message = issue.message.replace(/^Invalid (?:input|option): /, '');
  if (issue.code === 'unrecognized_keys')
    return `unknown field(s) ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`;
  return message;
}

/**
 * Validates a parsed connector.json. Throws a {@link ConnectorLoadError} whose message names the
 * source and the field path of the first problem, e.g.
 * `providers/foo/connector.json: modelProfiles.high[0].model: expected string, received number`;
 * every problem is listed in the message after the first.
 */
export function parseConnectorManifest(value: unknown, source: string): ConnectorManifest {
  const result = connectorManifestSchema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues;
  const first = issues[0];
  const firstPath = formatFieldPath(first?.path ?? []);
  const more = issues
    .slice(1)
    .map((issue) => `${formatFieldPath(issue.path) || '(root)'}: ${describeIssue(issue)}`);
  throw new ConnectorLoadError({
    source,
    reason: 'invalid-manifest',
    fieldPath: firstPath,
    message: first
      ? describeIssue(first) + (more.length ? ` (also: ${more.join('; ')})` : '')
      : 'invalid manifest',
    cause: result.error,
  });
}
