export type * from './store-types';
