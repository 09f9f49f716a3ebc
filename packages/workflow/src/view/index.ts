// One abortable sleep for the whole project (dispatch's back-offs use it too); re-exported here,
// where `workflow watch` and `resume --when-ready` have always found it.
export { abortableSleep } from '@bullswarm/dispatch';
export { displayWidth, padToWidth, truncateToWidth } from './display-width';
export { formatElapsed } from './format-elapsed';
export { INTERRUPTED_MARK, type RenderRunViewOptions, renderRunView, VIEW_MARKS } from './render-run-view';
export {
  jsonlEventPrinter,
  type LiveViewStream,
  TtyLiveView,
  type TtyLiveViewOptions,
} from './tty-live-view';
export {
  resolveWatchPollMs,
  WATCH_POLL_SEC,
  WATCH_POLL_SEC_RANGE,
  type WatchRunOptions,
  watchRun,
} from './watch-run';
