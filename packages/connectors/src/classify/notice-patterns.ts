/**
 * The provider texts each failure kind is recognised by (research: agent-cli-formats.md §1.3,
 * §2.3, §3, §4). Matched case-insensitively, and ONLY against provider notices (terminal/error
 * events) and stderr — never assistant prose or tool output.
 */

/** Throttle texts that mention a usage limit but say it is NOT spent; checked before quota. */
export const NOT_A_WINDOW_PATTERNS: readonly RegExp[] = [/not your usage limit/i];

/** A usage window, quota or balance is spent. */
export const QUOTA_PATTERNS: readonly RegExp[] = [
  // Claude 1.0.x `Claude AI usage limit reached|<epoch>`, `Claude usage limit reached.`; Gemini
  // `Usage limit reached for <model>`; Codex HTTP `usage_limit_reached`.
  /usage[ _]limit[ _]reached/i,
  // Claude `5-hour limit reached ∙ resets 5am`, `Session limit reached`, `Weekly limit reached`.
  /\b(?:5-hour|five[- ]hour|session|weekly|daily|monthly|opus|sonnet)(?:\s+\w+)?\s+limit reached/i,
  // Claude 2.1.x `You've hit your limit`, `…session limit`, `…weekly limit`, `…org's monthly spend
  // limit`; Codex `You've hit your usage limit.` (straight or curly apostrophe).
  /you(?:'|’|\u2019)?ve hit your\b.{0,40}?\blimit/i,
  /you have hit your\b.{0,40}?\blimit/i,
  // Claude `You've reached your Fable limit.`; opencode `You have reached your weekly … limit`;
  // Gemini `You have reached your daily quota limit.`
  /you(?:'|’|\u2019)?ve reached your\b.{0,60}?\blimit/i,
  /you have reached your\b.{0,60}?\b(?:limit|quota)/i,
  /credit balance is too low/i,
  /spend limit/i,
  /enforced_spend_limit_reached/i,
  /workspace api usage limits/i,
  // Codex `Quota exceeded. Check your plan and billing details.`; Qwen `Free allocated quota exceeded.`
  /quota exceeded/i,
  /insufficient_quota|exceeded your current quota/i,
  // Gemini TerminalQuotaError `You have exhausted your daily quota on this model.`
  /TerminalQuotaError/i,
  /exhausted your (?:daily|weekly|monthly) quota/i,
  // opencode Zen `Free usage exceeded, subscribe to Go`; OpenRouter daily free allowance.
  /free usage exceeded/i,
  /free-models-per-day/i,
  // Grok `You have run out of credits or need a Grok subscription`.
  /run out of credits/i,
];

/** Machine codes that mean a spent quota. */
export const QUOTA_CODES: readonly string[] = [
  'TerminalQuotaError',
  'provider.quota',
  'billing_error',
  'usage_limit_reached',
];

/** A sign-in failure (stop; skip the credential group). */
export const AUTH_PATTERNS: readonly RegExp[] = [
  /auth_unavailable/i,
  /authentication_error/i,
  /authentication_failed/i,
  /oauth token (?:has )?(?:expired|been revoked|revoked)/i,
  // The ChatGPT backend's 401 body behind Codex: `Encountered invalidated oauth token for user,
  // failing request` (code `token_revoked`; router-for-me/CLIProxyAPI#2386, james-6-23/codex2api#114),
  // and the issue's variants `OAuth token invalidated` / `invalidated_oauth_token`.
  /invalidated[ _-]?oauth[ _-]?token/i,
  /oauth[ _-]?token[ _-]?(?:has been |was |is )?invalidated/i,
  /login expired/i,
  /not logged in/i,
  /please run \/login/i,
  /invalid api key/i,
  /invalid authentication/i,
  /failed to authenticate/i,
  /failed to refresh oauth token/i,
  /does not meet scope requirement/i,
  // Codex refresh-token failures (codex-rs/core/src/auth.rs).
  /refresh token (?:has expired|was already used|was revoked)/i,
  /access token could not be refreshed/i,
  /401 unauthorized/i,
  /missing bearer/i,
  /no available channel for model/i,
  // Gemini exit 41 `Please set an Auth method in your ~/.gemini/settings.json …`
  /please set an auth method/i,
];

/** Machine codes that mean a sign-in failure. */
export const AUTH_CODES: readonly string[] = [
  'authentication_failed',
  'auth_unavailable',
  'authentication_error',
];

/** A transient rate limit or overload. */
export const THROTTLE_PATTERNS: readonly RegExp[] = [
  /temporarily limiting requests/i,
  /request rejected \(429\)/i,
  /temporary capacity issue/i,
  /rate[ _-]?limit/i,
  /rate limited/i,
  /\b529\b/,
  /overloaded/i,
  /RetryableQuotaError/i,
  /RESOURCE_EXHAUSTED/,
  /resource (?:has been )?exhausted/i,
  /free-models-per-minute/i,
  /too many requests/i,
  /too many tokens/i,
  /(?:tokens|requests) per minute/i,
  /\b429\b/,
  /high demand/i,
];

/** Machine codes that mean a throttle. */
export const THROTTLE_CODES: readonly string[] = [
  'rate_limit',
  'overloaded',
  'RetryableQuotaError',
  'provider.rate-limit',
  'rate_limit_error',
  'overloaded_error',
];

/** Window words that turn a rate-limit notice into a spent window (opencode `provider.rate-limit`). */
export const WINDOW_WORDS =
  /\b(?:5-hour|five[- ]hour|hourly|daily|weekly|monthly|session)\b[^.]{0,40}\blimit\b/i;
