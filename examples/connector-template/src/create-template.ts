import { type ConnectorV1Outcome, defineConnector, type ManifestConnector } from '@bullswarm/connectors';
import { createTemplateOutputParser } from './template-output-parser';

/** Settings of {@link createTemplate}; every field is optional. */
export type TemplateSettings = {
  /** The CLI to run (a name on PATH or an absolute path). Default `template-agent`. */
  readonly command?: string;
  /** The connector id (and default pool id). Default `template`. */
  readonly id?: string;
  /** Arguments added after the fixed ones, e.g. `['--sandbox', 'off']`. */
  readonly extraArgs?: readonly string[];
  /** The model per effort tier. Defaults: `tpl-small`, `tpl-medium`, `tpl-large`. */
  readonly models?: { readonly low?: string; readonly medium?: string; readonly high?: string };
};

/**
 * Creates the template connector: a {@link defineConnector} manifest (the data every connector
 * declares) plus the two places code helps — a parser for the CLI's own stream format, and a
 * classifier that reads the CLI's machine codes before falling back to bullswarm's text rules.
 */
export function createTemplate(settings: TemplateSettings = {}): ManifestConnector {
  const models = { low: 'tpl-small', medium: 'tpl-medium', high: 'tpl-large', ...settings.models };
  return defineConnector({
    source: 'bullswarm-connector-template',
    manifest: {
      specificationVersion: 'connector-v1',
      id: settings.id ?? 'template',
      displayName: 'Template agent',
      providerFamily: 'template',
      invocation: {
        command: settings.command ?? 'template-agent',
        args: ['run', '--stream', 'ndjson', ...(settings.extraArgs ?? [])],
        prompt: { mode: 'stdin' },
        modelArgs: ['--model', '{{model}}'],
        cwdArgs: ['--workdir', '{{cwd}}'],
        addDirArgs: ['--allow-dir', '{{dir}}'],
      },
      // The parser below replaces this format's built-in parser.
      outputFormat: 'text',
      lanes: ['analyze', 'build', 'chore'],
      capabilities: ['edit-files'],
      pacingWindow: 'monthly',
      hasFiveHourWindow: false,
      cost: 2,
      modelProfiles: {
        low: [{ model: models.low, default: true }],
        medium: [{ model: models.medium, default: true }],
        high: [{ model: models.high, default: true }],
      },
      authSignatures: ['session token rejected'],
      callerEnv: ['TEMPLATE_AGENT_SESSION'],
      account: { env: { TEMPLATE_AGENT_HOME: '{{userHome}}/.template-agent-{{account}}' } },
      meter: { type: 'command', command: settings.command ?? 'template-agent', args: ['usage', '--json'] },
      detect: { binary: settings.command ?? 'template-agent' },
    },
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
