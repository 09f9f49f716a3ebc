/**
 * @bullswarm/meters — where a pool's used% and reset numbers come from.
 *
 * Readers for every connector-v1 meter source (`codex-rollout`, `claude-code`, `command`,
 * `file`, `manual`, `none`), the bullswarm meter reading format, and the meter service: a
 * TTL cache, a stale hold with back-off after failed polls, the usage-limit rule, and retained
 * readings for spend rates.
 */
export * from './errors';
export * from './reading';
export * from './service';
export * from './sources';
export * from './template';
