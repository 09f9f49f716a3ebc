import type { TierModel } from './types';

/** A `free` segment bounded by the start/end of the name or one of `/ : - _ .`. */
const FREE_SEGMENT = /(?:^|[/:\-_.])free(?:$|[/:\-_.])/;

/**
 * True when a model name carries a standalone `free` segment: `openrouter/qwen:free`,
 * `opencode/mimo-v2.6-flash-free`, `free`. Not `freedom`, `carefree`, or `undefined` (the CLI
 * default). The match is case-sensitive: provider catalogues spell the marker in lower case, and
 * treating a paid model as free would route metered work as if it cost nothing.
 */
export function isFreeModelName(model: string | undefined): boolean {
  // The substring check first: most names have no `free` at all, and it is cheaper than the regex.
  if (typeof model !== 'string' || !model.includes('free')) return false;
  return FREE_SEGMENT.test(model);
}

/**
 * Free-ness of a (pool, tier): the connector declared the model profile free, or its name has a
 * standalone `free` segment. An absent tier model is not free.
 */
export function isFreeTierModel(tierModel: TierModel | null | undefined): boolean {
  return tierModel != null && (tierModel.free || isFreeModelName(tierModel.model));
}
