export { computeSpendRate, type SpendRate, type SpendReading } from './compute-spend-rate';
