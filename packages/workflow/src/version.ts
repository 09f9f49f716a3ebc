/** The version of this package (set at build time). */
export const VERSION: string = __BULLSWARM_VERSION__;

/**
 * The version of the engine's run semantics, saved in every run's state.json. `resume` and
 * `restart` refuse a run saved under another engine version (it is view-only: `show` and `watch`
 * still work), because its record follows other rules. Bumped only when resume semantics change,
 * not with every package release.
 */
export const ENGINE_VERSION = 'program-v3/1';
