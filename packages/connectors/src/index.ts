export type * from './spec/v1/connector-v1-meter-source';
