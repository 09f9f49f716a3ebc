import { chmodSync, cpSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Options } from 'tsup';
import { CORE_BUNDLE, FULL_BUNDLE } from './src/launcher/choose-bundle';
import { MODULE_WRAPPER } from './src/launcher/load-bundle';

type Plugin = NonNullable<Options['esbuildPlugins']>[number];

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

const providersSource = new URL('../../providers/', import.meta.url);
const providersTarget = new URL('./dist/providers/', import.meta.url);
const templateSource = new URL('../../examples/connector-template/', import.meta.url);
const templateTarget = new URL('./dist/connector-template/', import.meta.url);

/**
 * `bullswarm connectors init` writes the connector template (examples/connector-template, see
 * src/connectors/scaffold-connector.ts): copied into dist/connector-template/ without what its
 * build and install made, as the standalone package a user gets. Its package.json is the one to
 * publish: not private, and each workspace range is `^` the version of that package here (so
 * `@bullswarm/connectors` is `^<the connectors version this CLI bundles>`). `.gitignore` is
 * shipped as `gitignore` (npm never packs a `.gitignore`) and `package.json` as
 * `package.template.json` (a nested package.json in dist is a package of its own, whose `exports`
 * Node ignores); init renames both back.
 */
function copyConnectorTemplate(): void {
  rmSync(templateTarget, { recursive: true, force: true });
  const from = fileURLToPath(templateSource);
  cpSync(from, fileURLToPath(templateTarget), {
    recursive: true,
    filter: (path) => !/^(?:node_modules|dist|test-results|\.turbo)(?:[\\/]|$)/.test(relative(from, path)),
  });
  const file = new URL('package.json', templateTarget);
  const pkg = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  delete pkg.private;
  pkg.version = '0.1.0';
  for (const field of ['dependencies', 'devDependencies', 'peerDependencies']) {
    const ranges = pkg[field] as Record<string, string> | undefined;
    for (const [name, range] of Object.entries(ranges ?? {})) {
      if (!range.startsWith('workspace:')) continue;
      const dir = name.replace(/^@bullswarm\//, '');
      const own = JSON.parse(
        readFileSync(new URL(`../../packages/${dir}/package.json`, import.meta.url), 'utf8'),
      );
      ranges![name] = `^${(own as { version: string }).version}`;
    }
  }
  writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
  renameSync(new URL('.gitignore', templateTarget), new URL('gitignore', templateTarget));
  renameSync(file, new URL('package.template.json', templateTarget));
}

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

/**
 * commander requires node:child_process when it loads, for executable subcommands (`git-style`
 * `program.command('x', 'desc')`), which bullswarm does not use. Loading child_process (and with
 * it dgram, the socket list, spawn_sync) is milliseconds of every start; in the bundle it is
 * required on the first spawn instead. Fails the build if commander's line ever changes.
 */
const commanderLazyChildProcess: Plugin = {
  name: 'commander-lazy-child-process',
  setup(build) {
    build.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, (args) => {
      const eager = "const childProcess = require('node:child_process');";
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes(eager)) throw new Error(`${args.path}: expected the line ${eager}`);
      const lazy =
        "const childProcess = { spawn: (...spawnArgs) => require('node:child_process').spawn(...spawnArgs) };";
      return { contents: text.replace(eager, lazy), loader: 'js' };
    });
  },
};

/**
 * string-width builds an `Intl.Segmenter` and Unicode property expressions (`\p{RGI_Emoji}`) when
 * it loads: milliseconds of every start of the full bundle (the settings check loads
 * @bullswarm/workflow, whose run view measures text with it), for a function only a workflow's
 * live view calls. In the bundle, the workflow's display-width module loads it on the first
 * measure instead (a `require`, which esbuild turns into a lazy module init). Fails the build if
 * the import line ever changes.
 */
const lazyStringWidth: Plugin = {
  name: 'lazy-string-width',
  setup(build) {
    build.onLoad({ filter: /[\\/]workflow[\\/]src[\\/]view[\\/]display-width\.ts$/ }, (args) => {
      const eager = "import stringWidth from 'string-width';";
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes(eager)) throw new Error(`${args.path}: expected the line ${eager}`);
      const lazy = [
        "declare const require: (id: 'string-width') => { default: (text: string) => number };",
        'let loadedStringWidth: ((text: string) => number) | undefined;',
        "const stringWidth = (text: string): number => (loadedStringWidth ??= require('string-width').default)(text);",
      ].join('\n');
      return { contents: text.replace(eager, lazy), loader: 'ts' };
    });
  },
};

/**
 * execa is half a hundred modules whose initialisation is milliseconds of every start of the full
 * bundle (dispatch, gates, the workflow's tree snapshot and the swarm import it), while most of
 * those commands spawn nothing (`run --dry-run`, `workflow validate`, `swarm status`) or spawn
 * well after they start. In the bundle, each workspace module's `import { execa } from 'execa'`
 * (or `execaSync`) becomes a function that requires execa on its first call (esbuild turns the
 * `require` into a lazy module init). The calls and their results are execa's own.
 */
const EXECA_IMPORT = /^import \{ (execa|execaSync) \} from 'execa';$/m;
const lazyExeca: Plugin = {
  name: 'lazy-execa',
  setup(build) {
    build.onLoad({ filter: /[\\/](?:packages[\\/][a-z-]+|apps[\\/]cli)[\\/]src[\\/].*\.ts$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const match = EXECA_IMPORT.exec(text);
      if (!match) return undefined;
      const name = match[1];
      const lazy = [
        `declare const require: (id: 'execa') => Record<string, (...args: unknown[]) => any>;`,
        `const ${name} = (...args: unknown[]) => require('execa').${name}!(...args);`,
      ].join('\n');
      return { contents: text.replace(EXECA_IMPORT, lazy), loader: 'ts' };
    });
  },
};

/**
 * `import('node:crypto')` and other dynamic imports of Node built-ins become a `require` inside the
 * bundle (esbuild would keep them as `import()`, which Node 20 cannot run in a script compiled from
 * a code cache; see MODULE_WRAPPER in src/launcher/load-bundle.ts).
 */
const builtinDynamicImports: Plugin = {
  name: 'builtin-dynamic-imports',
  setup(build) {
    build.onResolve({ filter: /^[a-z_:/]+$/ }, (args) => {
      if (args.kind !== 'dynamic-import' || !isBuiltin(args.path)) return undefined;
      return { path: args.path.replace(/^node:/, ''), namespace: 'builtin-import' };
    });
    build.onLoad({ filter: /.*/, namespace: 'builtin-import' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(`node:${args.path}`)});\n`,
      loader: 'js',
    }));
  },
};

/**
 * The one `import()` of a module outside the bundle (a configured connector package, by file URL)
 * calls the bin's `__bullswarmImport` (see MODULE_WRAPPER) instead. Fails the build if the line
 * ever changes.
 */
const configuredConnectorImport: Plugin = {
  name: 'configured-connector-import',
  setup(build) {
    build.onLoad(
      { filter: /[\\/]connectors[\\/]src[\\/]loading[\\/]load-configured-connectors\.ts$/ },
      (args) => {
        const dynamic = 'await import(pathToFileURL(resolved).href)';
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes(dynamic)) throw new Error(`${args.path}: expected ${dynamic}`);
        const contents = text.replace(dynamic, 'await __bullswarmImport(pathToFileURL(resolved).href)');
        return {
          contents: `declare const __bullswarmImport: (specifier: string) => Promise<unknown>;\n${contents}`,
          loader: 'ts',
        };
      },
    );
  },
};

/**
 * better-sqlite3's JavaScript (a dozen small CommonJS files) is bundled, so it loads with the rest
 * of the bundle through the code cache instead of through Node's module loader file by file; only
 * its native addon stays outside. The addon is required from the installed package's
 * `build/Release/` (where its install puts it), else found by `bindings` from that package, as
 * better-sqlite3 itself would.
 */
const betterSqliteAddon: Plugin = {
  name: 'better-sqlite3-addon',
  setup(build) {
    build.onLoad({ filter: /[\\/]better-sqlite3[\\/]lib[\\/]database\.js$/ }, (args) => {
      const lookup = "require('bindings')('better_sqlite3.node')";
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes(lookup)) throw new Error(`${args.path}: expected ${lookup}`);
      // (The package name is not a literal: esbuild would try to bundle what require.resolve names.)
      const addon = `function __bullswarmSqliteAddon() {
  const name = 'better-sqlite3';
  const pkg = require('path').dirname(require.resolve(name + '/package.json'));
  const built = require('path').join(pkg, 'build', 'Release', 'better_sqlite3.node');
  if (require('fs').existsSync(built)) return require(built);
  const bindings = require.resolve('bindings', { paths: [pkg] });
  return require(bindings)({ bindings: 'better_sqlite3.node', module_root: pkg });
}
`;
      return { contents: addon + text.replace(lookup, '__bullswarmSqliteAddon()'), loader: 'js' };
    });
  },
};

/**
 * Escapes every non-ASCII character of a built bundle as `\uXXXX`. esbuild already escapes string
 * literals; what is left is comments and regular expression literals, where the escape means the
 * same character. An ASCII file is read as Latin-1 by the bin (src/launcher/load-bundle.ts), a
 * copy, where UTF-8 decoding of the same megabytes costs milliseconds of every start.
 */
function escapeNonAscii(file: URL): void {
  const text = readFileSync(file, 'utf8');
  const ascii = text.replace(
    /[^\x00-\x7f]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  if (ascii !== text) writeFileSync(file, ascii);
}

/** Bundle the workspace packages from their TypeScript sources (the `@bullswarm/source` condition). */
const sourceConditions = (conditions: string[]) => (options: { conditions?: string[] }) => {
  options.conditions = ['@bullswarm/source', ...conditions];
};

/**
 * Validates the built-in manifests copied into dist/providers/ with the zod schema and writes the
 * parsed result beside them (builtin-manifests.json), which the bundled connector loader trusts:
 * a start then builds no schema and parses no manifest. The validator is @bullswarm/connectors's
 * build (turbo builds it first: `pnpm turbo run build --filter=@bullswarm/cli...`).
 */
async function writeBuiltinManifests(): Promise<void> {
  let connectors: typeof import('@bullswarm/connectors');
  try {
    connectors = await import('@bullswarm/connectors');
  } catch (cause) {
    throw new Error(
      'the CLI build validates the built-in manifests with the built @bullswarm/connectors: build it first (pnpm turbo run build --filter=@bullswarm/cli...)',
      { cause },
    );
  }
  await connectors.writeBuiltinManifestsFile(fileURLToPath(providersTarget));
}

/**
 * The core bundle (src/launcher/choose-bundle.ts) runs `pools`, `assignments`, `strategy`,
 * `meters` and help. Here, in its build, the modules only other commands use are replaced by one
 * that throws: the command modules of run, demo, setup, dashboard, mcp, store, the workflow and swarm commands (not
 * their `register-*` files, which define the commands for help), and the packages that spawn
 * agents (@bullswarm/workflow, @bullswarm/swarm, the main @bullswarm/dispatch entry). None of
 * their code is in the core bundle, and a core command that reached one would fail loudly.
 */
const FULL_ONLY_MODULES = [
  /[\\/]apps[\\/]cli[\\/]src[\\/]commands[\\/](?:run|demo|setup|dashboard|mcp|store)-command\.ts$/,
  /[\\/]apps[\\/]cli[\\/]src[\\/]cli[\\/]check-full-bundle-settings\.ts$/,
  // Their registrars and the option tuples the registrars share (swarm-options.ts) define help.
  /[\\/]apps[\\/]cli[\\/]src[\\/]commands[\\/](?:swarm|workflow)[\\/](?!register-|swarm-options\.ts$)[^\\/]+\.ts$/,
  /[\\/]packages[\\/](?:workflow|swarm|dispatch|dashboard|mcp)[\\/]src[\\/]index\.ts$/,
];

const fullOnly: Plugin = {
  name: 'full-only-modules',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      if (!FULL_ONLY_MODULES.some((pattern) => pattern.test(args.path))) return undefined;
      const module = relative(fileURLToPath(new URL('../..', import.meta.url)), args.path);
      return {
        contents: `throw new Error(${JSON.stringify(`bullswarm internal error: ${module} is not in the core bundle (${CORE_BUNDLE}); the bin should have loaded ${FULL_BUNDLE} for this command`)});\n`,
        loader: 'js',
      };
    });
  },
};

const shared = {
  platform: 'node',
  target: 'node20',
  dts: false,
  sourcemap: true,
  // The build script empties dist/ first; the builds below run side by side.
  clean: false,
  tsconfig: 'tsconfig.build.json',
  define: { __BULLSWARM_VERSION__: JSON.stringify(version) },
  // Keep `node:` specifiers: tsup's plugin that strips them would also mark `import('node:crypto')`
  // external before builtinDynamicImports sees it.
  removeNodeProtocol: false,
  // Every dependency, better-sqlite3's JavaScript too (its native addon is required at run time:
  // see betterSqliteAddon).
  noExternal: [/./],
} satisfies Options;

/** A CommonJS build of TypeScript sources that use `import.meta.url` (the connectors' paths). */
const commonJs = {
  ...shared,
  format: ['cjs'],
  splitting: false,
  esbuildOptions(options) {
    sourceConditions(['require', 'module', 'default'])(options);
    // import.meta.url in bundled ES sources (the connectors' package paths) is the bundle's own URL.
    options.define = { ...options.define, 'import.meta.url': '__bullswarmImportMetaUrl' };
    options.banner = { js: importMetaUrl };
  },
} satisfies Options;

const importMetaUrl = "const __bullswarmImportMetaUrl = require('node:url').pathToFileURL(__filename).href;";

/** The CLI program as one CommonJS bundle, loaded by the bin through a V8 code cache. */
const cliBundle = (name: string, entry: string, plugins: Plugin[]): Options => ({
  ...commonJs,
  entry: { [name]: entry },
  outExtension: () => ({ js: '.cjs' }),
  esbuildPlugins: [
    zodEnglishOnly,
    commanderLazyChildProcess,
    betterSqliteAddon,
    builtinDynamicImports,
    configuredConnectorImport,
    lazyStringWidth,
    ...plugins,
    // After the core bundle's stand-ins (fullOnly), which replace some of the modules it rewrites.
    lazyExeca,
  ],
  esbuildOptions(options) {
    commonJs.esbuildOptions(options);
    // Built inside the CommonJS module wrapper, which the bin then compiles as it is.
    options.banner = { js: `${MODULE_WRAPPER.head}${importMetaUrl}` };
    options.footer = { js: MODULE_WRAPPER.tail };
  },
  async onSuccess() {
    escapeNonAscii(new URL(`./dist/${name}.cjs`, import.meta.url));
  },
});

/*
 * Startup time matters (`bullswarm pools` runs in scripts and statuslines), and measured
 * (bench/cli.bench.mjs) most of it is loading, compiling and initialising JavaScript. So:
 *
 * 1. `bullswarm.cjs` (core) and `bullswarm-full.cjs`: the CLI and every pure-JS dependency as
 *    CommonJS bundles (commands stay lazily initialised: each is a dynamic import, which esbuild
 *    turns into a lazy module init). CommonJS because a script can be compiled with a V8 code
 *    cache in Node 20, an ES module cannot (see src/launcher/load-bundle.ts). The core one holds
 *    only what `pools`, `assignments`, `strategy` and `meters` use (see FULL_ONLY_MODULES).
 * 2. `index.js`: the bin, a few lines that pick a bundle by the command word and load it through
 *    the code cache. CommonJS too (dist/package.json): an ES module entry would start Node's ES
 *    module loader, milliseconds of every start.
 * 3. `sim-cli.js` and `providers/`: @bullswarm/connectors finds its built-in manifests and the
 *    bundled `bullswarm-sim` relative to its own code (`<package>/dist/providers/`,
 *    `<package>/dist/sim-cli.js`); bundled here, its code lives in this package's dist/, so the
 *    build puts both there too, with the pre-parsed built-in manifests (writeBuiltinManifests).
 */
export default defineConfig([
  cliBundle('bullswarm', 'src/main-core.ts', [fullOnly]),
  cliBundle('bullswarm-full', 'src/main.ts', []),
  {
    ...commonJs,
    entry: { index: 'src/index.ts', 'sim-cli': '../../packages/connectors/src/sim/sim-cli.ts' },
    outExtension: () => ({ js: '.js' }),
    async onSuccess() {
      // This package is an ES module package; its dist/ holds CommonJS.
      writeFileSync(new URL('./dist/package.json', import.meta.url), '{ "type": "commonjs" }\n');
      rmSync(providersTarget, { recursive: true, force: true });
      if (existsSync(providersSource)) {
        cpSync(providersSource, providersTarget, { recursive: true });
        await writeBuiltinManifests();
      }
      copyConnectorTemplate();
      for (const file of ['index.js', 'sim-cli.js']) {
        const path = new URL(`./dist/${file}`, import.meta.url);
        if (existsSync(path)) chmodSync(path, 0o755);
      }
    },
  },
]);
