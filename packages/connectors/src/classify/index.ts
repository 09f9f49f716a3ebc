export { type ClassifyOptions, classifyOutcome } from './classify-outcome';
export { parseAbsoluteTime, parseDurationPrefix, parseResetFromText, parseWaitFromText } from './parse-reset';
