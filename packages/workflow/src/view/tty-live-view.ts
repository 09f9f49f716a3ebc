import type { RunState } from '../state/run-state';
import { type RenderRunViewOptions, renderRunView } from './render-run-view';

/** Where the live view draws: a TTY stream (its `columns` and `rows` are read at every draw). */
export interface LiveViewStream {
  write(text: string): unknown;
  readonly columns?: number;
  readonly rows?: number;
}

/** Options of {@link TtyLiveView}. */
export interface TtyLiveViewOptions {
  /** Least time between two redraws, ms (default 100). */
  readonly throttleMs?: number;
  /** Redraw at least this often while live, for elapsed times (default 1000; 0 turns it off). */
  readonly tickMs?: number;
  /** The wall clock (default Date.now). */
  readonly now?: () => number;
  /** The report path printed once the run ended (or how to find it from the state). */
  readonly reportPath?: string | ((state: RunState) => string);
  readonly collapseAbove?: number;
}

const ESC = '\x1b[';

/**
 * The thin TTY driver of {@link renderRunView}: redraws the view in place (cursor up over the
 * previous frame, each line cleared, the rest of the screen erased), throttled to one redraw per
 * `throttleMs`, cut to the terminal's width, and — when the frame is taller than the terminal —
 * keeping the header and the last lines (summary and needs-you block). The cursor is hidden while
 * live and shown again by {@link TtyLiveView.finish}.
 */
export class TtyLiveView {
  private drawnLines = 0;
  private lastDraw = 0;
  private timer: NodeJS.Timeout | undefined;
  private ticker: NodeJS.Timeout | undefined;
  private latest: { state: RunState; live: boolean } | undefined;
  private finished = false;
  private readonly now: () => number;

  constructor(
    private readonly out: LiveViewStream,
    private readonly options: TtyLiveViewOptions = {},
  ) {
    this.now = options.now ?? Date.now;
  }

  /** Schedules a redraw with this state (throttled). */
  update(state: RunState, live = true): void {
    if (this.finished) return;
    this.latest = { state, live };
    if (!this.ticker && (this.options.tickMs ?? 1000) > 0) {
      this.ticker = setInterval(() => this.redraw(), this.options.tickMs ?? 1000);
      this.ticker.unref();
    }
    const wait = this.lastDraw + (this.options.throttleMs ?? 100) - this.now();
    if (wait <= 0) this.redraw();
    else {
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        this.redraw();
      }, wait);
      this.timer.unref();
    }
  }

  /** Draws the final frame (not throttled), shows the cursor and stops redrawing. */
  finish(state: RunState, live = false): void {
    this.latest = { state, live };
    this.redraw();
    this.finished = true;
    this.stop();
    this.out.write(`${ESC}?25h`);
  }

  /** Stops timers without drawing (e.g. on an error); shows the cursor. */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.ticker) clearInterval(this.ticker);
    this.timer = undefined;
    this.ticker = undefined;
    if (!this.finished) this.out.write(`${ESC}?25h`);
  }

  private redraw(): void {
    if (this.finished || !this.latest) return;
    this.lastDraw = this.now();
    const width = this.out.columns ?? 80;
    const height = this.out.rows ?? 40;
    const viewOptions: RenderRunViewOptions = {
      width,
      now: this.now(),
      live: this.latest.live,
      ...(this.options.reportPath === undefined
        ? {}
        : {
            reportPath:
              typeof this.options.reportPath === 'string'
                ? this.options.reportPath
                : this.options.reportPath(this.latest.state),
          }),
      ...(this.options.collapseAbove === undefined ? {} : { collapseAbove: this.options.collapseAbove }),
    };
    let lines = renderRunView(this.latest.state, viewOptions);
    const room = Math.max(3, height - 1);
    if (lines.length > room) {
      const hidden = lines.length - room + 2;
      lines = [lines[0] as string, `… ${hidden} lines above`, ...lines.slice(hidden + 1)];
    }
    let frame = this.drawnLines === 0 ? `${ESC}?25l` : `${ESC}${this.drawnLines}F`;
    for (const line of lines) frame += `${ESC}2K${line}\n`;
    frame += `${ESC}J`;
    this.out.write(frame);
    this.drawnLines = lines.length;
  }
}

/** Prints each event as one JSON line (the view off a TTY). */
export function jsonlEventPrinter(out: { write(text: string): unknown }): (event: unknown) => void {
  return (event) => {
    out.write(`${JSON.stringify(event)}\n`);
  };
}
