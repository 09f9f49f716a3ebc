export type * from './connector-v1';
export type * from './connector-v1-detect';
export type * from './connector-v1-invocation';
export type * from './connector-v1-meter-source';
export type * from './connector-v1-outcome';
export type * from './connector-v1-output-parser';
export type * from './connector-v1-request';
