export { forecastWindow, type WindowForecast } from './forecast-window';
export { type InflightCharge, inflightCharge } from './inflight-charge';
export { flatChargedRecords, remainingMinutes, timedInflightSpend } from './remaining-minutes';
