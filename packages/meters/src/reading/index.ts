export {
  type MeterReading,
  type MeterReadingWindow,
  meterReadingJsonSchema,
  meterReadingSchema,
  meterReadingWindowSchema,
} from './meter-reading-schema';
export {
  formatIssuePath,
  type MeterReadingOrigin,
  type ParsedMeterReading,
  parseMeterReading,
  parseMeterReadingText,
} from './parse-meter-reading';
export { classifyWindowMinutes, DEFAULT_WINDOW_MINUTES, epochToMs, WINDOW_KINDS } from './window-kinds';
