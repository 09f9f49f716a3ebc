/** Replaced at build time by tsup `define` with the package version. */
declare const __BULLSWARM_VERSION__: string;
