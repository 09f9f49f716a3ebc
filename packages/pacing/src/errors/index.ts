export { BullswarmError, type BullswarmErrorOptions, hasErrorMarker } from './bullswarm-error';
export { describeValue } from './describe-value';
export { formatFieldPath } from './format-field-path';
export { InvalidInputError } from './invalid-input-error';
