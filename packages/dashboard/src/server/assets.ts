import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** One file the dashboard serves from memory. */
export interface Asset {
  readonly body: string;
  readonly type: string;
}

/**
 * The page, its script and style, and the chart library (uPlot), read once from this package's
 * `assets/` and from the installed `uplot` package: nothing is fetched from the network, so the
 * dashboard works offline. The package is found by its name (this code may be bundled elsewhere,
 * as in the CLI, where its own file location says nothing about the package's).
 */
export function loadAssets(): ReadonlyMap<string, Asset> {
  // Not `require.resolve('literal')`: a bundler would try to bundle the named file.
  const self = ['@bullswarm', 'dashboard'].join('/');
  const require = createRequire(import.meta.url);
  const packageDir = dirname(require.resolve(`${self}/package.json`));
  const fromPackage = createRequire(join(packageDir, 'package.json'));
  const uplotDir = dirname(fromPackage.resolve(['uplot', 'package.json'].join('/')));
  const read = (path: string) => readFileSync(path, 'utf8');
  const assetsDir = join(packageDir, 'assets');
  return new Map<string, Asset>([
    ['index.html', { body: read(join(assetsDir, 'index.html')), type: 'text/html; charset=utf-8' }],
    ['app.js', { body: read(join(assetsDir, 'app.js')), type: 'text/javascript; charset=utf-8' }],
    ['app.css', { body: read(join(assetsDir, 'app.css')), type: 'text/css; charset=utf-8' }],
    [
      'uPlot.iife.min.js',
      { body: read(join(uplotDir, 'dist', 'uPlot.iife.min.js')), type: 'text/javascript; charset=utf-8' },
    ],
    [
      'uPlot.min.css',
      { body: read(join(uplotDir, 'dist', 'uPlot.min.css')), type: 'text/css; charset=utf-8' },
    ],
  ]);
}
