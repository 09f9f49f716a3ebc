export { MeterError } from './meter-error';
export { MeterReadError, type MeterReadErrorReason } from './meter-read-error';
export { MeterTemplateError } from './meter-template-error';
