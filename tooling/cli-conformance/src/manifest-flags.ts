import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The repository's `providers/` folder (the built-in connector manifests). */
export const PROVIDERS_ROOT = fileURLToPath(new URL('../../../providers/', import.meta.url));

/** The parts of a connector.json this suite reads. */
export interface ManifestInvocation {
  readonly command: string;
  readonly args?: readonly string[];
  readonly prompt: { readonly mode: string; readonly args?: readonly string[] };
  readonly outputArgs?: readonly string[];
  readonly modelArgs?: readonly string[];
  readonly cwdArgs?: readonly string[];
  readonly addDirArgs?: readonly string[];
}

export interface ConnectorManifestJson {
  readonly id: string;
  readonly outputFormat: string;
  readonly invocation: ManifestInvocation;
  readonly modelProfiles: Readonly<Record<string, readonly { readonly model: string }[]>>;
  readonly cliVersions?: { readonly checked: string; readonly versionArgs?: readonly string[] };
}

export function readManifest(connector: string): ConnectorManifestJson {
  return JSON.parse(
    readFileSync(`${PROVIDERS_ROOT}${connector}/connector.json`, 'utf8'),
  ) as ConnectorManifestJson;
}

/** One flag bullswarm passes, with the literal value it gives it (when the value is not a template). */
export interface PassedFlag {
  readonly flag: string;
  readonly value?: string;
}

/**
 * Everything bullswarm passes to a connector's CLI: the subcommand (leading words of `args`, e.g.
 * Codex `exec`, opencode `run`) and every flag of `args`, the prompt args, `outputArgs`,
 * `modelArgs`, `cwdArgs` and `addDirArgs`, each with the literal value after it (`--sandbox
 * workspace-write`; a `{{template}}` value is not literal). `--` (end of options) is no flag.
 */
export function passedFlags(invocation: ManifestInvocation): {
  readonly subcommand: readonly string[];
  readonly flags: readonly PassedFlag[];
} {
  const args = invocation.args ?? [];
  const subcommand: string[] = [];
  for (const arg of args) {
    if (arg.startsWith('-') || arg.includes('{{')) break;
    subcommand.push(arg);
  }
  const groups = [
    args.slice(subcommand.length),
    invocation.prompt.mode === 'arg' ? (invocation.prompt.args ?? []) : [],
    invocation.outputArgs ?? [],
    invocation.modelArgs ?? [],
    invocation.cwdArgs ?? [],
    invocation.addDirArgs ?? [],
  ];
  const flags: PassedFlag[] = [];
  for (const group of groups) {
    group.forEach((arg, index) => {
      if (!arg.startsWith('-') || arg === '--') return;
      const next = group[index + 1];
      const literal = next !== undefined && !next.startsWith('-') && !next.includes('{{');
      flags.push(literal ? { flag: arg, value: next } : { flag: arg });
    });
  }
  return { subcommand, flags };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The flags (and literal values) a help text does not list. A flag counts as listed when it stands
 * as a word of the help (`-p, --print`, `--add-dir <DIR>`, `--format=json`); a value when it is a
 * word there (`[possible values: read-only, workspace-write]`, `(choices: "acceptEdits", …)`).
 */
export function missingFromHelp(help: string, flags: readonly PassedFlag[]): string[] {
  const missing: string[] = [];
  for (const { flag, value } of flags) {
    if (!new RegExp(`(^|[\\s,\\[(])${escapeRegExp(flag)}(?=[\\s,=\\])<]|$)`, 'm').test(help)) {
      missing.push(flag);
      continue;
    }
    if (value !== undefined && !new RegExp(`(^|[^\\w-])${escapeRegExp(value)}(?![\\w-])`, 'm').test(help)) {
      missing.push(`${flag} ${value}`);
    }
  }
  return missing;
}
