import type { EffortTier, Lane, PacingWindowKind } from '@bullswarm/pacing';
import type { ConnectorV1Activity } from './connector-v1-activity';
import type { ConnectorV1DetectContext, ConnectorV1Detection } from './connector-v1-detect';
import type { ConnectorV1Invocation } from './connector-v1-invocation';
import type { ConnectorV1MeterSource } from './connector-v1-meter-source';
import type { ConnectorV1ClassifyInput, ConnectorV1Outcome } from './connector-v1-outcome';
import type { ConnectorV1OutputParser } from './connector-v1-output-parser';
import type { ConnectorV1Request } from './connector-v1-request';
import type { ConnectorV1SignIn } from './connector-v1-sign-in';

/** One model a connector allows for an effort tier. */
export type ConnectorV1ModelProfile = {
  /** The model name as the CLI's model flag takes it, e.g. `sonnet`, `gpt-5.1-codex`, `opencode/big-pickle`. */
  readonly model: string;
  /** The model costs nothing: routing ranks a pool holding it ahead of every metered pool. */
  readonly free?: boolean;
  /** The model setup picks for the tier (else the first entry). */
  readonly default?: boolean;
};

/** The CLI versions a connector was checked against (see {@link ConnectorV1.cliVersions}). */
export type ConnectorV1CliVersions = {
  /** Space-separated comparators over `major.minor.patch`, e.g. `>=2.1.0 <2.2.0`. */
  readonly checked: string;
  /** The arguments that make the CLI print its version (default `["--version"]`). */
  readonly versionArgs: readonly string[];
};

/** Where the account names a pool can take and the environment that selects one. */
export type ConnectorV1AccountContext = {
  /** The account name; `default` selects the CLI's own default account (no env). */
  readonly account: string;
  /** `$BULLSWARM_HOME` (absolute). */
  readonly bullswarmHome: string;
  /** The user's home directory (absolute). */
  readonly userHome: string;
};

/**
 * The connector-v1 specification: how bullswarm drives one agent CLI.
 *
 * A connector **describes**; dispatch **executes**. Every method is pure except `detect`.
 * Modelled after the AI SDK's provider specs (`LanguageModelV4`, `HarnessV1`): the version tag
 * lets consumers adapt older shapes in {@link resolveConnector}; unsettled fields are optional
 * and prefixed `experimental_`.
 *
 * Pools: a pool is `<connectorId>` (default account) or `<connectorId>:<account>`. Its credential
 * group is `<credentialGroup>:<account>` (`<credentialGroup>:default` for the default account), so
 * an auth failure skips every pool that shares that credential and nothing else.
 */
export type ConnectorV1 = {
  readonly specificationVersion: 'connector-v1';
  /** Kebab-case slug, e.g. `claude-code`. */
  readonly connectorId: string;
  readonly displayName: string;
  /** What `route.providers.use/avoid` names, e.g. `anthropic` for claude-code. */
  readonly providerFamily: string;
  /** Pools of this connector sharing a credential are `<credentialGroup>:<account>`. */
  readonly credentialGroup: string;
  readonly lanes: readonly Lane[];
  readonly capabilities: readonly string[];
  /** The subscription window pace is computed from. */
  readonly pacingWindow: PacingWindowKind;
  /** The provider has a rolling 5-hour window (never paces, protects the last mile). */
  readonly hasFiveHourWindow: boolean;
  /** Relative cost 1–5, shown by `bullswarm pools`; routing never reads it. */
  readonly cost: number;
  /** The allow-list of models per effort tier; the `default` (else first) entry is what setup picks. */
  readonly modelProfiles: Readonly<Record<EffortTier, readonly ConnectorV1ModelProfile[]>>;
  /** Extra provider phrases (case-insensitive substrings) that mean a sign-in failure. */
  readonly authSignatures: readonly string[];
  /**
   * Environment variables the agent CLI sets in its child processes; when one is present,
   * bullswarm was invoked by this agent (the caller). A trailing `*` matches a prefix.
   */
  readonly callerEnv: readonly string[];
  /** Where the pool's meter is read from (templates resolved per account by `@bullswarm/meters`). */
  readonly meter: ConnectorV1MeterSource;
  /**
   * The meter source of one account, when it differs by account (e.g. the default Claude account
   * reads `~/.claude`, named ones `{{env.CLAUDE_CONFIG_DIR}}`). Absent: every account uses `meter`.
   * Unsettled, hence `experimental_`.
   */
  experimental_meterForAccount?(account: string): ConnectorV1MeterSource;
  /**
   * Free models a tier names are liveness-probed (PONG) before dispatch unless this is false (a
   * connector.json without `probe` probes); a rung on a CLI that takes no model is never probed.
   */
  readonly probe: boolean;
  /**
   * Which output lines are progress and which are noise (see {@link ConnectorV1Activity}); absent:
   * every byte restarts the silence clock.
   */
  readonly activity?: ConnectorV1Activity;
  /**
   * The CLI versions this connector was checked against (a range such as `>=0.171.0 <0.172.0`) and
   * how to ask the CLI for its version; `bullswarm doctor` says whether the installed CLI is inside.
   */
  readonly cliVersions?: ConnectorV1CliVersions;
  /**
   * The program this connector runs when a pool names none (a manifest's `invocation.command`): a
   * bare name looked up on PATH, an absolute path, or a bundled bin name (`bullswarm-sim`).
   * Dispatch checks that it (or the pool's own `command`) can be found before routing to a pool: a
   * pool whose CLI is missing is unavailable, never picked. Absent: not checked.
   */
  readonly command?: string;
  /** How `bullswarm doctor` tells whether an account is signed in; absent: it says unknown. */
  readonly signIn?: ConnectorV1SignIn;

  /** The environment that selects an account (empty for `default`). */
  accountEnv(context: ConnectorV1AccountContext): Readonly<Record<string, string>>;
  /** Pure: a request → the exact command line to spawn. */
  buildInvocation(request: ConnectorV1Request): ConnectorV1Invocation;
  /** A fresh streaming parser for one attempt's stdout. */
  createOutputParser(): ConnectorV1OutputParser;
  /** Pure: how the attempt ended. Texts are matched only in provider notices and stderr. */
  classifyOutcome(input: ConnectorV1ClassifyInput): ConnectorV1Outcome;
  /** Which binary is on PATH and which accounts exist on this machine (used by `bullswarm setup`). */
  detect?(context: ConnectorV1DetectContext): PromiseLike<ConnectorV1Detection>;
};
