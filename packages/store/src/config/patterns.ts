/** A pool id: `connector` or `connector:account`. */
export const POOL_ID_PATTERN = /^[a-z0-9][a-z0-9-]*(:[A-Za-z0-9._-]+)?$/;
/** A connector id (kebab-case). */
export const CONNECTOR_ID_PATTERN = /^[a-z0-9][a-z0-9-]*$/;
/** An account name, the part after `:` in a pool id. */
export const ACCOUNT_PATTERN = /^[A-Za-z0-9._-]+$/;
/** An effort tier name (`low`, `medium`, `high`, or one a connector declares). */
export const TIER_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** An environment variable name. */
export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** A pool display label: no whitespace and no control characters, at least one character. */
export const LABEL_PATTERN = /^[^\s\p{Cc}]+$/u;
