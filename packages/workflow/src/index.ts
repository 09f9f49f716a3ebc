export * from './errors';
export * from './program';
export { ENGINE_VERSION, VERSION } from './version';
