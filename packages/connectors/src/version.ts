// Declared here (module scope) rather than only in globals.d.ts, so packages that type-check
// these sources through the `@bullswarm/source` condition need no global declaration.
declare const __BULLSWARM_VERSION__: string | undefined;

/**
 * The version of this package (set at build time by tsup `define`; `0.0.0-source` when another
 * package's tests run these TypeScript sources directly, where no build-time define exists).
 */
export const VERSION: string =
  typeof __BULLSWARM_VERSION__ === 'string' ? __BULLSWARM_VERSION__ : '0.0.0-source';
