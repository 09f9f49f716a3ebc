import { createRedactor, type Redactor } from '@bullswarm/connectors/redact';

let fromProcess: Redactor | undefined;

/**
 * The redactor swarm records fall back to when none was given (`await createSwarm({ redactor })`): token
 * shapes and the credential values of this process's environment. The CLI, the MCP server and the
 * dashboard pass `runtimeRedactor(runtime)` of dispatch, which adds every pool's account environment.
 */
export function processRedactor(): Redactor {
  fromProcess ??= createRedactor([process.env]);
  return fromProcess;
}
