export * from './route/route-task';
export * from './runtime/open-runtime';
export * from './snapshots/build-pool-snapshots';
export * from './snapshots/detect-caller';

/** The version of this package (set at build time). */
export const VERSION: string = __BULLSWARM_VERSION__;
