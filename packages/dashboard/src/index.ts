/**
 * @bullswarm/dashboard — `bullswarm dashboard`: web pages for pools, runs, workflows and the
 * swarm, served by Hono on 127.0.0.1 with a token, pushed live with server-sent events.
 *
 * @packageDocumentation
 */
export { DashboardSource, type DashboardSourceOptions } from './data/dashboard-source';
export {
  MAX_HISTORY_POINTS,
  type PoolHistory,
  type PoolsJson,
  poolHistories,
  poolsJson,
} from './data/pools-data';
export {
  ATTEMPTS_LISTED,
  RUNS_LISTED,
  runDetailJson,
  runsJson,
  TRANSCRIPT_MAX_BYTES,
} from './data/runs-data';
export { NOTICES_LISTED, swarmJson } from './data/swarm-data';
export { DashboardInputError, whyJson, whyOptions } from './data/why-data';
export { WorkflowDrives, workflowDetailJson, workflowsJson } from './data/workflows-data';
export { type Asset, loadAssets } from './server/assets';
export { createDashboardApp, type DashboardAppOptions } from './server/dashboard-app';
export {
  type ChangeTopic,
  DEFAULT_LIVE_POLL_MS,
  LiveChanges,
  MAX_LIVE_CLIENTS,
} from './server/live-changes';
export {
  cookieValue,
  hostAllowed,
  isLoopbackHost,
  newToken,
  TOKEN_COOKIE,
  TOKEN_HEADER,
  tokenMatches,
} from './server/security';
export {
  DEFAULT_DASHBOARD_HOST,
  DEFAULT_DASHBOARD_PORT,
  type RunningDashboard,
  type StartDashboardOptions,
  startDashboard,
} from './server/start-dashboard';

/** The version of this package (set at build time). */
export const VERSION: string = __BULLSWARM_VERSION__;
