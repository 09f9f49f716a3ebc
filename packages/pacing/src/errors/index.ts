export { BullswarmError, type BullswarmErrorOptions, hasErrorMarker } from './bullswarm-error';
export { describeValue } from './describe-value';
export { InvalidInputError } from './invalid-input-error';
