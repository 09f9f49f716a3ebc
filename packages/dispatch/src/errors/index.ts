export { DispatchError, type DispatchErrorReason } from './dispatch-error';
