import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { DashboardSource } from '../data/dashboard-source';
import { poolHistories, poolsJson } from '../data/pools-data';
import { runDetailJson, runsJson } from '../data/runs-data';
import { swarmJson } from '../data/swarm-data';
import { DashboardInputError, whyJson, whyOptions } from '../data/why-data';
import { type WorkflowDrives, workflowDetailJson, workflowsJson } from '../data/workflows-data';
import type { Asset } from './assets';
import { type LiveChanges, MAX_LIVE_CLIENTS } from './live-changes';
import { cookieValue, hostAllowed, TOKEN_COOKIE, TOKEN_HEADER, tokenMatches } from './security';

/** Everything the app serves from. */
export interface DashboardAppOptions {
  readonly source: DashboardSource;
  readonly token: string;
  /** The address the server is bound to (the Host header check accepts it). */
  readonly bindHost: string;
  readonly assets: ReadonlyMap<string, Asset>;
  readonly live: LiveChanges;
  readonly drives: WorkflowDrives;
  /** Aborted when the server stops: open event streams end. */
  readonly closing: AbortSignal;
  /** Every 15 s (or this) an event stream sends a comment line, so proxies keep it open. */
  readonly keepAliveMs?: number;
}

/** The response header with the home's clock (epoch ms), which the page's countdowns count from. */
export const NOW_HEADER = 'X-Bullswarm-Now';

const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

/**
 * The dashboard's HTTP app (Hono). Every request must pass the Host header check (DNS
 * rebinding) and carry the token: `?token=` in the URL (the page then gets a cookie and is
 * redirected to the same address without it), the cookie, or the `X-Bullswarm-Token` header.
 * State-changing requests are POSTs and must carry the token in the header (a cookie alone is
 * what a cross-site form would send).
 */
export function createDashboardApp(options: DashboardAppOptions): Hono {
  const { source, token, assets, live, drives } = options;
  const app = new Hono();

  app.use('*', async (c, next) => {
    if (!hostAllowed(c.req.header('host'), options.bindHost)) {
      return c.text(
        'refused: unexpected Host header (the dashboard answers to localhost and IP addresses only)\n',
        403,
      );
    }
    const queryToken = c.req.query('token');
    const headerToken = c.req.header(TOKEN_HEADER);
    const cookieToken = cookieValue(c.req.header('cookie'), TOKEN_COOKIE);
    if (c.req.method === 'POST') {
      if (!tokenMatches(token, headerToken)) {
        return c.json({ error: `refused: a POST must carry the token in the ${TOKEN_HEADER} header` }, 403);
      }
    } else if (
      !tokenMatches(token, queryToken) &&
      !tokenMatches(token, cookieToken) &&
      !tokenMatches(token, headerToken)
    ) {
      return c.text(
        'refused: no valid token. Open the address `bullswarm dashboard` printed (it carries ?token=…).\n',
        401,
      );
    }
    if (queryToken !== undefined && tokenMatches(token, queryToken) && c.req.method === 'GET') {
      // Trade the token in the address for a cookie, and drop it from the address bar and history.
      const url = new URL(c.req.url);
      url.searchParams.delete('token');
      const location = `${url.pathname}${url.search}`;
      return new Response(null, {
        status: 303,
        headers: {
          Location: location,
          'Set-Cookie': `${TOKEN_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict`,
          ...SECURITY_HEADERS,
        },
      });
    }
    await next();
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) c.res.headers.set(name, value);
    // The home's clock (BULLSWARM_NOW when set): countdowns on the page count from it.
    c.res.headers.set(NOW_HEADER, String(source.now()));
  });

  app.onError((error, c) => {
    if (error instanceof DashboardInputError) {
      return c.json({ error: error.message, parameter: error.parameter }, 400);
    }
    return c.json({ error: source.redact(error.message) }, 500);
  });

  const html = assets.get('index.html')!.body.replace('__BULLSWARM_TOKEN__', token);
  app.get('/', (c) => c.html(html));
  app.get('/assets/:name', (c) => {
    const asset = assets.get(c.req.param('name'));
    if (asset === undefined || asset.type.startsWith('text/html')) return c.notFound();
    return c.body(asset.body, 200, { 'Content-Type': asset.type });
  });

  app.get('/api/pools', async (c) => c.json(source.redact(await poolsJson(source))));
  app.get('/api/pools/history', async (c) => c.json(source.redact(await poolHistories(source))));
  app.get('/api/why/options', async (c) => c.json(await whyOptions(source)));
  app.get('/api/why', async (c) =>
    c.json(source.redact(await whyJson(source, c.req.query('lane'), c.req.query('effort')))),
  );
  app.get('/api/runs', async (c) => c.json(source.redact(await runsJson(source))));
  app.get('/api/runs/:runId', async (c) => {
    const detail = await runDetailJson(source, c.req.param('runId'));
    if (detail === undefined) return c.json({ error: `no run ${c.req.param('runId')}` }, 404);
    return c.json(source.redact(detail));
  });
  app.get('/api/workflows', (c) => c.json(source.redact(workflowsJson(source))));
  app.get('/api/workflows/:runId', (c) => {
    const runId = c.req.param('runId');
    const detail = workflowDetailJson(source, runId);
    if (detail === undefined) return c.json({ error: `no workflow run ${runId}` }, 404);
    return c.json(
      source.redact({
        ...detail,
        drivenByDashboard: drives.driving(runId),
        dashboardError: drives.lastErrors.get(runId) ?? null,
      }),
    );
  });
  app.post('/api/workflows/:runId/resume', async (c) => {
    const drive = await drives.start(c.req.param('runId'), 'resume');
    return c.json({ started: true, runId: drive.runId, action: drive.action }, 202);
  });
  app.post('/api/workflows/:runId/restart', async (c) => {
    const body = (await c.req.json().catch(() => ({}))) as { step?: unknown };
    if (typeof body.step !== 'string' || body.step === '') {
      throw new DashboardInputError('step', 'restart needs {"step": "<step id>"} in the request body');
    }
    const drive = await drives.start(c.req.param('runId'), 'restart', body.step);
    return c.json({ started: true, runId: drive.runId, action: drive.action, step: body.step }, 202);
  });
  app.get('/api/swarm', async (c) => c.json(source.redact(await swarmJson(source))));

  app.get('/api/events', (c) => {
    if (live.listenerCount >= MAX_LIVE_CLIENTS) {
      return c.text(`refused: ${MAX_LIVE_CLIENTS} pages already listen for live updates\n`, 503);
    }
    return streamSSE(c, async (stream) => {
      let wake: (() => void) | undefined;
      const pending: string[][] = [];
      const stop = live.listen((topics) => {
        pending.push([...topics]);
        wake?.();
      });
      const end = () => wake?.();
      options.closing.addEventListener('abort', end);
      let aborted = false;
      stream.onAbort(() => {
        aborted = true;
        wake?.();
      });
      try {
        await live.baseline();
        await stream.writeSSE({ event: 'ready', data: '{}' });
        const keepAliveMs = options.keepAliveMs ?? 15_000;
        while (!aborted && !options.closing.aborted) {
          if (pending.length === 0) {
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, keepAliveMs);
              wake = () => {
                clearTimeout(timer);
                resolve();
              };
            });
            wake = undefined;
          }
          if (aborted || options.closing.aborted) break;
          if (pending.length === 0) {
            await stream.write(': keep-alive\n\n');
            continue;
          }
          const topics = [...new Set(pending.splice(0).flat())];
          await stream.writeSSE({ event: 'change', data: JSON.stringify({ topics }) });
        }
      } finally {
        stop();
        options.closing.removeEventListener('abort', end);
      }
    });
  });

  return app;
}
