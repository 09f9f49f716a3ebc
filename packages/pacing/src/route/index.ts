export { buildCandidateRow, type UnorderedRow } from './candidate-row';
export { type ChooseRouteInput, chooseRoute } from './choose-route';
export { compareCandidates, orderCandidates, rankScore, sameClass } from './order-candidates';
export { checkCapable, checkRoute, checkSpent } from './pool-eligibility';
export * from './reason-line';
export { validateRouteInput } from './validate-route-input';
