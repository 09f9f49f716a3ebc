/**
 * The agent CLI versions the suite checks bullswarm against: the newest patch, on npm, of each
 * line named by issue 10 (asked with `npm view <package> versions --json` on 2026-12-01):
 * `@openai/codex` 0.171 → 0.171.0, `@anthropic-ai/claude-code` 2.1.x → 2.1.332,
 * `@google/gemini-cli` 0.61 → 0.61.0 (nightlies left out), `opencode-ai` 1.18 → 1.18.33.
 * Bumping one: change it here, run `pnpm test:clis` (it captures new fixtures beside the version,
 * packages/connectors/src/__fixtures__/real/), and widen the connector's `cliVersions.checked`.
 */
export interface PinnedCli {
  /** The connector that drives it (providers/<connector>/connector.json). */
  readonly connector: string;
  /** The npm package. */
  readonly npmPackage: string;
  /** The exact version installed. */
  readonly version: string;
  /** Its bin name (node_modules/.bin/<bin>). */
  readonly bin: string;
  /**
   * More `bullswarm run` arguments. opencode runs at `--effort high`: its lower tiers are free
   * models, probed before a run (docs/routing.md), and the suite wants the run itself.
   */
  readonly runArgs: readonly string[];
}

export const PINNED_CLIS: Readonly<Record<string, PinnedCli>> = {
  codex: { connector: 'codex', npmPackage: '@openai/codex', version: '0.171.0', bin: 'codex', runArgs: [] },
  'claude-code': {
    connector: 'claude-code',
    npmPackage: '@anthropic-ai/claude-code',
    version: '2.1.332',
    bin: 'claude',
    runArgs: [],
  },
  gemini: {
    connector: 'gemini',
    npmPackage: '@google/gemini-cli',
    version: '0.61.0',
    bin: 'gemini',
    runArgs: [],
  },
  opencode: {
    connector: 'opencode',
    npmPackage: 'opencode-ai',
    version: '1.18.33',
    bin: 'opencode',
    runArgs: ['--effort', 'high'],
  },
};
