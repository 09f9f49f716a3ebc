/** The version printed by `bullswarm --version` (set at build time). */
export const VERSION: string = __BULLSWARM_VERSION__;
