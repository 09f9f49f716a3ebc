import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { DashboardSource, type DashboardSourceOptions } from '../data/dashboard-source';
import { WorkflowDrives } from '../data/workflows-data';
import { loadAssets } from './assets';
import { createDashboardApp } from './dashboard-app';
import { LiveChanges } from './live-changes';
import { isLoopbackHost, newToken } from './security';

/** The address the dashboard binds to unless told otherwise. */
export const DEFAULT_DASHBOARD_HOST = '127.0.0.1';

/** The port the dashboard listens on unless told otherwise (0 picks a free one). */
export const DEFAULT_DASHBOARD_PORT = 7878;

/** Options of {@link startDashboard}. */
export interface StartDashboardOptions extends DashboardSourceOptions {
  /** Default {@link DEFAULT_DASHBOARD_HOST}. */
  readonly host?: string;
  /** Default {@link DEFAULT_DASHBOARD_PORT}; 0 for a free port. */
  readonly port?: number;
  /** The token every request must carry; default a new random one. */
  readonly token?: string;
  /** How often the home is checked for changes while a page listens (ms); default 250. */
  readonly livePollMs?: number;
  /** The preflight command schema-bound workers of resumed workflow runs use (the CLI passes its own). */
  readonly checkOutputSchemaCommand?: readonly string[];
}

/** A running dashboard. */
export interface RunningDashboard {
  readonly host: string;
  readonly port: number;
  readonly token: string;
  /** The address to open, with the token: `http://127.0.0.1:7878/?token=…`. */
  readonly url: string;
  /** Whether the bind address is loopback only (anything else is reachable from the network). */
  readonly loopback: boolean;
  /** Stops listening, ends every event stream and workflow drive, closes the home. */
  close(): Promise<void>;
}

/**
 * Starts the dashboard's HTTP server on `host:port` (Hono on Node's http server). Rejects when
 * the port is taken or the address cannot be bound (the error names it).
 */
export async function startDashboard(options: StartDashboardOptions = {}): Promise<RunningDashboard> {
  const host = options.host ?? DEFAULT_DASHBOARD_HOST;
  const token = options.token ?? newToken();
  const source = new DashboardSource(options);
  const live = new LiveChanges(source, options.livePollMs);
  const drives = new WorkflowDrives(source, options.checkOutputSchemaCommand);
  const closing = new AbortController();
  const app = createDashboardApp({
    source,
    token,
    bindHost: host,
    assets: loadAssets(),
    live,
    drives,
    closing: closing.signal,
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: options.port ?? DEFAULT_DASHBOARD_PORT, hostname: host }, () =>
      resolve(s),
    );
    s.once('error', reject);
  });
  const address = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  let closed: Promise<void> | undefined;
  return {
    host,
    port: address.port,
    token,
    url: `http://${urlHost}:${address.port}/?token=${token}`,
    loopback: isLoopbackHost(host),
    close() {
      closed ??= (async () => {
        closing.abort();
        live.stop();
        await drives.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        });
        await source.close();
      })();
      return closed;
    },
  };
}
