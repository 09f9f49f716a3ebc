export {
  activeReserves,
  isValidReservePct,
  RESERVE_PCT_EXPECTED,
  reserveOf,
  spentAtPct,
  usableScale,
  usableUsedPct,
} from './window-reserve';
