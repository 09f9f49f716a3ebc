export * from './errors';
export * from './types';
