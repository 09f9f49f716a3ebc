import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One packed package the registry serves. */
export interface PackedPackage {
  readonly name: string;
  readonly version: string;
  /** The tarball (absolute path). */
  readonly tarball: string;
  /** The package.json inside the tarball (what `pnpm pack` wrote). */
  readonly manifest: Record<string, unknown>;
}

/** A running registry: its URL, and `close()`. */
export interface LocalRegistry {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * A minimal npm registry on 127.0.0.1 that serves only the packed `@bullswarm/*` tarballs: the
 * packument of each name (`GET /@bullswarm%2fcli`) and its tarball. npm is pointed at it for the
 * `@bullswarm` scope alone (`--@bullswarm:registry=<url>`), so every other dependency comes from
 * the real registry, and `npm i -g @bullswarm/cli` installs exactly as a user's would: the CLI at
 * the top of the prefix with our packages among its own dependencies (one better-sqlite3 build),
 * never a workspace link. Anything else is a 404.
 */
export async function startLocalRegistry(packages: readonly PackedPackage[]): Promise<LocalRegistry> {
  const tarballs = new Map<string, Buffer>();
  const byName = new Map<string, PackedPackage>();
  for (const pkg of packages) {
    byName.set(pkg.name, pkg);
    tarballs.set(
      `/${pkg.name}/-/${pkg.name.split('/').at(-1)}-${pkg.version}.tgz`,
      readFileSync(pkg.tarball),
    );
  }
  let base = '';
  const packument = (pkg: PackedPackage) => {
    const path = `/${pkg.name}/-/${pkg.name.split('/').at(-1)}-${pkg.version}.tgz`;
    const bytes = tarballs.get(path)!;
    return {
      name: pkg.name,
      'dist-tags': { latest: pkg.version },
      versions: {
        [pkg.version]: {
          ...pkg.manifest,
          _id: `${pkg.name}@${pkg.version}`,
          dist: {
            tarball: `${base}${path}`,
            shasum: createHash('sha1').update(bytes).digest('hex'),
            integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
          },
        },
      },
    };
  };
  const server: Server = createServer((request, response) => {
    const path = decodeURIComponent((request.url ?? '/').split('?')[0]!);
    const tarball = tarballs.get(path);
    if (tarball !== undefined) {
      response.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': tarball.length,
      });
      response.end(tarball);
      return;
    }
    const pkg = byName.get(path.slice(1));
    if (pkg !== undefined && request.method === 'GET') {
      const body = JSON.stringify(packument(pkg));
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(body);
      return;
    }
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: `not a packed package: ${path}` }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
