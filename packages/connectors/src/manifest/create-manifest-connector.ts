import { basename } from 'node:path';
import { resolveBundledCommand } from '../bundled-command';
import { classifyOutcome } from '../classify';
import { ConnectorTemplateError } from '../errors';
import { findCommand } from '../find-command';
import { createOutputParser } from '../parsers';
import type {
  ConnectorV1,
  ConnectorV1AccountContext,
  ConnectorV1DetectContext,
  ConnectorV1DetectedAccount,
  ConnectorV1Detection,
  ConnectorV1Invocation,
  ConnectorV1MeterSource,
  ConnectorV1Request,
} from '../spec/v1';
import type { ConnectorManifest } from './connector-manifest-schema';
import { createLineActivity } from './line-activity';
import { renderTemplate, type TemplateValues } from './template';

/** The default account name: the CLI's own login, selected by no env. */
export const DEFAULT_ACCOUNT = 'default';

/** A {@link ConnectorV1} built from a manifest, with the manifest and its source kept. */
export type ManifestConnector = ConnectorV1 & {
  /** The parsed manifest the connector was built from. */
  readonly manifest: ConnectorManifest;
  /** Where the manifest came from (file path or package), for messages. */
  readonly sourcePath: string;
  /** The meter source of one account (`account.defaultMeter` for `default`, when declared). */
  meterForAccount(account: string): ConnectorV1MeterSource;
};

function render(connectorId: string, template: string, values: TemplateValues): string {
  const result = renderTemplate(template, values);
  if (result.missing !== undefined) {
    throw new ConnectorTemplateError({
      connectorId,
      template,
      variable: result.missing,
      message: `{{${result.missing}}} has no value${result.missing.startsWith('env.') ? ' (the variable is not set in the account or extra env)' : ''}`,
    });
  }
  return result.value;
}

function renderEnv(
  connectorId: string,
  env: Readonly<Record<string, string>>,
  values: TemplateValues,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, template] of Object.entries(env)) out[name] = render(connectorId, template, values);
  return out;
}

/**
 * Renders the templates of a meter source (`{{account}}`, `{{home}}`, `{{userHome}}`,
 * `{{env.NAME}}`) for one account; `values.env` is the account's environment.
 * Throws {@link ConnectorTemplateError} when a variable has no value.
 */
export function renderMeterSource(
  connectorId: string,
  meter: ConnectorV1MeterSource,
  values: TemplateValues,
): ConnectorV1MeterSource {
  const r = (template: string) => render(connectorId, template, values);
  switch (meter.type) {
    case 'codex-rollout':
      return { type: meter.type, codexHome: r(meter.codexHome) };
    case 'claude-code':
      return { type: meter.type, configDir: r(meter.configDir) };
    case 'command':
      return {
        ...meter,
        command: r(meter.command),
        ...(meter.args === undefined ? {} : { args: meter.args.map(r) }),
      };
    case 'file':
      return { type: meter.type, path: r(meter.path) };
    default:
      return meter;
  }
}

/**
 * Turns a parsed manifest into a {@link ConnectorV1}.
 *
 * Command line layout: `command` (bundled names resolved by {@link resolveBundledCommand}),
 * then `args`, the prompt args when `prompt.position` is `first`, `outputArgs`, `modelArgs` (only
 * with a model), `cwdArgs`, `addDirArgs` once per directory, and the prompt args when `last`.
 * Env: the manifest's `invocation.env`, then the request's `accountEnv`, then `extraEnv` (later
 * wins). `{{env.NAME}}` in invocation templates reads the account env and extra env only — never
 * `process.env`, so building an invocation is pure.
 */
export function createManifestConnector(
  manifest: ConnectorManifest,
  options: { sourcePath: string },
): ManifestConnector {
  const id = manifest.id;
  const invocation = manifest.invocation;
  const credentialGroup = manifest.credentialGroup ?? id;

  const accountEnv = (context: ConnectorV1AccountContext): Record<string, string> => {
    const values = { account: context.account, home: context.bullswarmHome, userHome: context.userHome };
    return renderEnv(
      id,
      context.account === DEFAULT_ACCOUNT ? manifest.account.defaultEnv : manifest.account.env,
      values,
    );
  };

  const buildInvocation = (request: ConnectorV1Request): ConnectorV1Invocation => {
    const env = { ...request.accountEnv, ...(request.extraEnv ?? {}) };
    const base: TemplateValues = {
      cwd: request.cwd,
      account: request.account ?? DEFAULT_ACCOUNT,
      home: request.bullswarmHome,
      ...(request.userHome === undefined ? {} : { userHome: request.userHome }),
      env,
    };
    const r = (template: string, extra: TemplateValues = {}) => render(id, template, { ...base, ...extra });
    const promptArgs =
      invocation.prompt.mode === 'arg'
        ? invocation.prompt.args.map((t) => r(t, { prompt: request.prompt }))
        : [];
    const position = invocation.prompt.mode === 'arg' ? invocation.prompt.position : 'last';
    const args = [
      ...invocation.args.map((t) => r(t)),
      ...(position === 'first' ? promptArgs : []),
      ...invocation.outputArgs.map((t) => r(t)),
      ...(request.model === undefined || request.model === ''
        ? []
        : invocation.modelArgs.map((t) => r(t, { model: request.model }))),
      ...invocation.cwdArgs.map((t) => r(t)),
      ...request.addDirs.flatMap((dir) => invocation.addDirArgs.map((t) => r(t, { dir }))),
      ...(position === 'last' ? promptArgs : []),
    ];
    const bundled = resolveBundledCommand(r(invocation.command));
    return {
      command: bundled.command,
      args: [...bundled.args, ...args],
      env: { ...renderEnv(id, invocation.env, base), ...request.accountEnv, ...(request.extraEnv ?? {}) },
      cwd: request.cwd,
      ...(invocation.prompt.mode === 'stdin' ? { stdin: request.prompt } : {}),
    };
  };

  const detectSpec = manifest.detect;
  const detect = detectSpec
    ? async (context: ConnectorV1DetectContext): Promise<ConnectorV1Detection> => {
        const found = findCommand(detectSpec.binary, context.path);
        const binaryPath = found.found ? found.path : undefined;
        const accounts: ConnectorV1DetectedAccount[] = [];
        if (binaryPath !== undefined) accounts.push({ account: DEFAULT_ACCOUNT, evidencePath: binaryPath });
        // fast-glob loads on the first detection (setup), not with every connector.
        const { default: fg } = await import('fast-glob');
        for (const glob of detectSpec.accountGlobs ?? []) {
          const pattern = render(id, glob, { userHome: context.userHome, home: context.bullswarmHome });
          const star = basename(pattern).indexOf('*');
          const prefix = star === -1 ? basename(pattern) : basename(pattern).slice(0, star);
          const suffix = star === -1 ? '' : basename(pattern).slice(star + 1);
          const matches = await fg(pattern, { onlyFiles: false, dot: true, absolute: true, deep: 1 });
          for (const match of matches.sort()) {
            const name = basename(match);
            const account = name.slice(prefix.length, name.length - suffix.length);
            if (
              account !== '' &&
              account !== DEFAULT_ACCOUNT &&
              !accounts.some((a) => a.account === account)
            ) {
              accounts.push({ account, evidencePath: match });
            }
          }
        }
        return { ...(binaryPath === undefined ? {} : { binaryPath }), accounts };
      }
    : undefined;

  const modelProfiles = Object.fromEntries(
    Object.entries(manifest.modelProfiles).map(([tier, models]) => [
      tier,
      models.map((profile) => ({
        model: profile.model,
        ...(profile.free ? { free: true } : {}),
        ...(profile.default ? { default: true } : {}),
      })),
    ]),
  );

  const meterForAccount = (account: string): ConnectorV1MeterSource =>
    account === DEFAULT_ACCOUNT && manifest.account.defaultMeter
      ? manifest.account.defaultMeter
      : manifest.meter;

  const activity = createLineActivity(manifest.activity);

  const connector: ManifestConnector = {
    specificationVersion: 'connector-v1',
    connectorId: id,
    displayName: manifest.displayName,
    providerFamily: manifest.providerFamily,
    credentialGroup,
    lanes: [...manifest.lanes],
    capabilities: [...manifest.capabilities],
    pacingWindow: manifest.pacingWindow,
    hasFiveHourWindow: manifest.hasFiveHourWindow,
    cost: manifest.cost,
    modelProfiles,
    authSignatures: [...manifest.authSignatures],
    callerEnv: [...manifest.callerEnv],
    meter: manifest.meter,
    probe: manifest.probe,
    ...(activity ? { activity } : {}),
    ...(manifest.cliVersions ? { cliVersions: manifest.cliVersions } : {}),
    // A command built from a template is only known per request: it is not checked ahead.
    ...(invocation.command.includes('{{') ? {} : { command: invocation.command }),
    ...(manifest.signIn ? { signIn: manifest.signIn } : {}),
    manifest,
    sourcePath: options.sourcePath,
    meterForAccount,
    experimental_meterForAccount: meterForAccount,
    accountEnv,
    buildInvocation,
    createOutputParser: () => createOutputParser(manifest.outputFormat),
    classifyOutcome: (input) =>
      classifyOutcome(input, {
        authSignatures: manifest.authSignatures,
        ...(manifest.exitCodes ? { exitCodes: manifest.exitCodes } : {}),
      }),
    ...(detect ? { detect } : {}),
  };
  return connector;
}

/** The model setup picks for a tier: the `default` entry, else the first. */
export function defaultModelForTier(connector: ConnectorV1, tier: string): string | undefined {
  const profiles = connector.modelProfiles[tier];
  return (profiles?.find((p) => p.default) ?? profiles?.[0])?.model;
}

/** The credential group of one pool: `<credentialGroup>:<account>`. */
export function poolCredentialGroup(connector: ConnectorV1, account: string = DEFAULT_ACCOUNT): string {
  return `${connector.credentialGroup}:${account}`;
}
