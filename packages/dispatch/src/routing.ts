/**
 * `@bullswarm/dispatch/routing`: the runtime, pool snapshots and routing, without the spawning
 * half of the package. Read-only commands (`bullswarm pools`, `strategy`, a dry run) import this
 * entry: it loads nothing of the attempt runner, the watchdogs or execa, so a command that never
 * spawns an agent does not pay for initialising them. The main entry re-exports all of it.
 *
 * @packageDocumentation
 */

export { TaskInputError } from './errors/task-input-error';
export * from './route/decision-json';
export * from './route/no-pool-kind';
export * from './route/route-task';
export * from './route/task-input';
export * from './runs/run-record';
export * from './runs/run-recorder';
export * from './runtime/open-runtime';
export * from './snapshots/build-pool-snapshots';
export * from './snapshots/detect-caller';
export * from './snapshots/pool-view';
