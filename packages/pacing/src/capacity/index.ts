export { type CapacityVerdict, type CapacityVerdictKind, capacityVerdict } from './capacity-verdict';
export { formatCapacityLine } from './format-capacity-line';
