import { chmodSync, cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { defineConfig, type Options } from 'tsup';

type Plugin = NonNullable<Options['esbuildPlugins']>[number];

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

const providersSource = new URL('../../providers/', import.meta.url);
const providersTarget = new URL('./dist/providers/', import.meta.url);

/**
 * zod re-exports every message locale (`z.locales`, ~40 files, a third of zod's size), and a
 * bundle cannot drop members of a namespace object. bullswarm uses only the default English
 * messages, so the bundle's copy of zod's locale index exports `en` alone.
 */
const zodEnglishOnly: Plugin = {
  name: 'zod-english-only',
  setup(build) {
    build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({
      contents: 'export { default as en } from "./en.js";\n',
      loader: 'js',
      resolveDir: dirname(args.path),
    }));
  },
};

/** Bundle the workspace packages from their TypeScript sources (the `@bullswarm/source` condition). */
const sourceConditions = (conditions: string[]) => (options: { conditions?: string[] }) => {
  options.conditions = ['@bullswarm/source', ...conditions];
};

const shared = {
  platform: 'node',
  target: 'node20',
  dts: false,
  sourcemap: true,
  // The build script empties dist/ first; the two builds below run side by side.
  clean: false,
  tsconfig: 'tsconfig.build.json',
  define: { __BULLSWARM_VERSION__: JSON.stringify(version) },
  // Everything but better-sqlite3 (native; a direct dependency). tsup's `external` does not win
  // over `noExternal`, hence the negative lookahead.
  noExternal: [/^(?!better-sqlite3(\/|$))/],
} satisfies Options;

/*
 * Startup time matters (`bullswarm pools` runs in scripts and statuslines), and measured
 * (bench/cli.bench.mjs) most of it was loading and compiling JavaScript: zod, fast-glob, execa and
 * commander as hundreds of ES modules, then ~2 MB of code. So:
 *
 * 1. `bullswarm.cjs`: the whole CLI and every pure-JS dependency in one CommonJS bundle (commands
 *    stay lazily initialised: each is a dynamic import, which esbuild turns into a lazy module
 *    init). CommonJS because a script can be compiled with a V8 code cache in Node 20, an ES
 *    module cannot (see src/launcher/load-bundle.ts).
 * 2. `index.js`: the bin, a few lines that load `bullswarm.cjs` through the code cache.
 * 3. `sim-cli.js` and `providers/`: @bullswarm/connectors finds its built-in manifests and the
 *    bundled `bullswarm-sim` relative to its own code (`<package>/dist/providers/`,
 *    `<package>/dist/sim-cli.js`); bundled here, its code lives in this package's dist/, so the
 *    build puts both there too.
 */
export default defineConfig([
  {
    ...shared,
    entry: { bullswarm: 'src/main.ts' },
    format: ['cjs'],
    outExtension: () => ({ js: '.cjs' }),
    splitting: false,
    esbuildPlugins: [zodEnglishOnly],
    esbuildOptions(options) {
      sourceConditions(['require', 'module', 'default'])(options);
      // import.meta.url in bundled ES sources (the connectors' package paths) is the bundle's own URL.
      options.define = { ...options.define, 'import.meta.url': '__bullswarmImportMetaUrl' };
      options.banner = {
        js: "const __bullswarmImportMetaUrl = require('node:url').pathToFileURL(__filename).href;",
      };
    },
  },
  {
    ...shared,
    entry: { index: 'src/index.ts', 'sim-cli': '../../packages/connectors/src/sim/sim-cli.ts' },
    format: ['esm'],
    splitting: false,
    esbuildOptions: sourceConditions(['import', 'module', 'default']),
    // CommonJS dependencies call require() for Node built-ins; an ES module needs a real one. (The
    // entries' own `#!/usr/bin/env node` lines are kept first by esbuild.)
    banner: {
      js: "import { createRequire as __bullswarmCreateRequire } from 'node:module';\nconst require = __bullswarmCreateRequire(import.meta.url);",
    },
    async onSuccess() {
      rmSync(providersTarget, { recursive: true, force: true });
      if (existsSync(providersSource)) cpSync(providersSource, providersTarget, { recursive: true });
      for (const file of ['index.js', 'sim-cli.js']) {
        const path = new URL(`./dist/${file}`, import.meta.url);
        if (existsSync(path)) chmodSync(path, 0o755);
      }
    },
  },
]);
