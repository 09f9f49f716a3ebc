export { BullswarmError, type BullswarmErrorOptions, hasErrorMarker } from './bullswarm-error';
export { InvalidInputError } from './invalid-input-error';
