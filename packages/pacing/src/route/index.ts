export { buildCandidateRow } from './candidate-row';
export { type ChooseRouteInput, chooseRoute } from './choose-route';
export { classKey, compareCandidates, rankScore, sameClass } from './order-candidates';
export { checkCapable, checkRoute, checkSpent, formatReserveClause } from './pool-eligibility';
export { validatePool, validateRouteInput, validateTaskAndSettings } from './validate-route-input';
