import {
  type ConnectorManifestInput,
  type ConnectorV1Outcome,
  type DeepReadonly,
  defineConnector,
  type ManifestConnector,
} from '@bullswarm/connectors';
import manifestJson from '../connector.json' with { type: 'json' };
import { createTemplateOutputParser } from './template-output-parser';

/** The manifest as shipped in connector.json (data; `defineConnector` validates it). */
const manifest = manifestJson as DeepReadonly<ConnectorManifestInput>;

/** Settings of {@link createTemplate}; every field is optional. */
export type TemplateSettings = {
  /** The CLI to run (a name on PATH or an absolute path). Default: connector.json's command. */
  readonly command?: string;
  /** The connector id (and default pool id). Default: connector.json's id. */
  readonly id?: string;
  /** Arguments added after the fixed ones, e.g. `['--sandbox', 'off']`. */
  readonly extraArgs?: readonly string[];
  /** The model per effort tier, replacing connector.json's defaults. */
  readonly models?: { readonly low?: string; readonly medium?: string; readonly high?: string };
};

/**
 * Creates the connector: the manifest of connector.json (the data every connector declares, with
 * the settings applied) plus the two places code helps — a parser for the CLI's own stream format,
 * and a classifier that reads the CLI's machine codes before falling back to bullswarm's text rules.
 */
export function createTemplate(settings: TemplateSettings = {}): ManifestConnector {
  const command = settings.command ?? manifest.invocation.command;
  const modelProfiles = Object.fromEntries(
    (['low', 'medium', 'high'] as const).map((tier) => {
      const model = settings.models?.[tier];
      return [
        tier,
        model === undefined ? (manifest.modelProfiles?.[tier] ?? []) : [{ model, default: true as const }],
      ];
    }),
  );
  return defineConnector({
    source: 'bullswarm-connector-template',
    manifest: {
      ...manifest,
      id: settings.id ?? manifest.id,
      invocation: {
        ...manifest.invocation,
        command,
        args: [...(manifest.invocation.args ?? []), ...(settings.extraArgs ?? [])],
      },
      modelProfiles,
      meter: { type: 'command', command, args: ['usage', '--json'] },
      detect: { binary: command },
    },
    // The parser below replaces the built-in parser of connector.json's outputFormat.
    createOutputParser: createTemplateOutputParser,
    classifyOutcome: (input, base): ConnectorV1Outcome => {
      // Machine codes first: they are exact. Everything else goes to bullswarm's rules.
      const failure = input.parsed.notices.find((notice) => notice.code !== undefined);
      if (failure?.code === 'quota_exhausted') {
        return {
          kind: 'quota',
          message: `usage limit: ${failure.text}`,
          evidence: failure.text,
          ...(failure.resetsAt === undefined ? {} : { resetsAt: failure.resetsAt }),
        };
      }
      if (failure?.code === 'rate_limited') {
        return {
          kind: 'throttle',
          message: `rate limited: ${failure.text}`,
          evidence: failure.text,
          ...(failure.retryAfterMs === undefined ? {} : { waitMs: failure.retryAfterMs }),
        };
      }
      return base(input);
    },
  });
}
