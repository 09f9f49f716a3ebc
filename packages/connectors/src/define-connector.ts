import type { ConnectorManifestInput } from './manifest/connector-manifest-schema';
import { createManifestConnector, type ManifestConnector } from './manifest/create-manifest-connector';
import { parseConnectorManifest } from './manifest/parse-connector-manifest';
import type {
  ConnectorV1ClassifyInput,
  ConnectorV1DetectContext,
  ConnectorV1Detection,
  ConnectorV1Invocation,
  ConnectorV1Outcome,
  ConnectorV1OutputParser,
  ConnectorV1Request,
} from './spec/v1';

/** `T` with every nested field readonly, so `as const` manifests are accepted. */
export type DeepReadonly<T> = T extends (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** What a JS-module connector declares: a manifest, plus optional code where data is not enough. */
export type DefineConnectorOptions = {
  /** The same fields as a connector.json (validated; defaults filled in). */
  readonly manifest: DeepReadonly<ConnectorManifestInput>;
  /** Where the connector is defined, for error messages (e.g. the package name). */
  readonly source?: string;
  /** A parser for an output format the built-in parsers do not know. */
  readonly createOutputParser?: () => ConnectorV1OutputParser;
  /** Classification; `base` is the built-in classifier with the manifest's auth signatures. */
  readonly classifyOutcome?: (
    input: ConnectorV1ClassifyInput,
    base: (input: ConnectorV1ClassifyInput) => ConnectorV1Outcome,
  ) => ConnectorV1Outcome;
  /** Invocation building; `base` is the manifest-driven builder. Must stay pure. */
  readonly buildInvocation?: (
    request: ConnectorV1Request,
    base: (request: ConnectorV1Request) => ConnectorV1Invocation,
  ) => ConnectorV1Invocation;
  readonly detect?: (context: ConnectorV1DetectContext) => PromiseLike<ConnectorV1Detection>;
};

/**
 * Defines a connector in code (for `bullswarm-connector-*` packages): the manifest is validated
 * exactly like a connector.json (a bad field throws `ConnectorLoadError` naming its path), and
 * the given overrides replace or wrap the manifest-driven behaviour.
 *
 * @example
 * export const foo = defineConnector({ manifest: { specificationVersion: 'connector-v1', id: 'foo', … } });
 * export default foo;
 */
export function defineConnector(options: DefineConnectorOptions): ManifestConnector {
  const source =
    options.source ?? `defineConnector(${JSON.stringify((options.manifest as { id?: unknown }).id)})`;
  const manifest = parseConnectorManifest(options.manifest, source);
  const base = createManifestConnector(manifest, { sourcePath: source });
  const { classifyOutcome, buildInvocation, createOutputParser, detect } = options;
  return {
    ...base,
    ...(createOutputParser ? { createOutputParser } : {}),
    ...(classifyOutcome ? { classifyOutcome: (input) => classifyOutcome(input, base.classifyOutcome) } : {}),
    ...(buildInvocation
      ? { buildInvocation: (request) => buildInvocation(request, base.buildInvocation) }
      : {}),
    ...(detect ? { detect } : {}),
  };
}
