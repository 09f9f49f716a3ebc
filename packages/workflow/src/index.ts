export * from './check';
export * from './engine';
export * from './errors';
export * from './program';
export * from './state';
export { ENGINE_VERSION, VERSION } from './version';
export * from './view';
