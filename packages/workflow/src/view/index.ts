export { abortableSleep } from './abortable-sleep';
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
