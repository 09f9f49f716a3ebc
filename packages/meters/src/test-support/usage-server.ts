import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

/** A loopback HTTP server standing in for the Claude OAuth usage endpoint. */
export interface UsageServer {
  readonly baseUrl: string;
  /** Requests received so far (path and headers). */
  readonly requests: { readonly path: string; readonly headers: IncomingHttpHeaders }[];
  /** What the next requests get. */
  respond(status: number, body: unknown): void;
}

const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

/** Starts a server on 127.0.0.1 (random port), closed after the current test. */
export async function startUsageServer(): Promise<UsageServer> {
  let reply: { status: number; body: unknown } = { status: 500, body: { error: 'not configured' } };
  const requests: { path: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((request, response) => {
    requests.push({ path: request.url ?? '', headers: request.headers });
    const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
    response.writeHead(reply.status, { 'content-type': 'application/json' });
    response.end(text);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    respond(status, body) {
      reply = { status, body };
    },
  };
}

/** A loopback URL on a port that was free a moment ago and has nothing listening. */
export async function closedLoopbackUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
