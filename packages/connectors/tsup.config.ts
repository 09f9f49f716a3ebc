import { chmodSync, cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

const providersSource = new URL('../../providers/', import.meta.url);
const providersTarget = new URL('./dist/providers/', import.meta.url);
const simCli = new URL('./dist/sim-cli.js', import.meta.url);

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    internal: 'src/internal.ts',
    redact: 'src/redact/index.ts',
    test: 'src/test/index.ts',
    'sim-cli': 'src/sim/sim-cli.ts',
  },
  format: ['esm', 'cjs'],
  // import.meta.url (src/package-paths.ts) in the CommonJS build.
  shims: true,
  platform: 'node',
  target: 'node20',
  dts: {
    tsconfig: 'tsconfig.build.json',
    entry: {
      index: 'src/index.ts',
      internal: 'src/internal.ts',
      redact: 'src/redact/index.ts',
      test: 'src/test/index.ts',
    },
  },
  sourcemap: true,
  clean: true,
  tsconfig: 'tsconfig.build.json',
  define: { __BULLSWARM_VERSION__: JSON.stringify(version) },
  // The built-in manifests live in the repo's top-level providers/; the published package loads
  // them from dist/providers/ (see src/package-paths.ts), with builtin-manifests.json beside them:
  // every manifest validated by the zod schema NOW, at build time (an invalid one fails the build),
  // so a start of bullswarm does not build the schema and parse them again.
  async onSuccess() {
    rmSync(providersTarget, { recursive: true, force: true });
    if (existsSync(providersSource)) {
      cpSync(providersSource, providersTarget, { recursive: true });
      // In the package, the schema sits two levels above dist/providers/<id>/connector.json.
      for (const id of readdirSync(providersTarget)) {
        const file = new URL(`${id}/connector.json`, providersTarget);
        if (!existsSync(file)) continue;
        const text = readFileSync(file, 'utf8');
        writeFileSync(
          file,
          text.replace(
            '"../../packages/connectors/connector.schema.json"',
            '"../../../connector.schema.json"',
          ),
        );
      }
      // The validator is the package just built (a fresh URL: never a cached copy of an older build).
      const built = new URL(`./dist/index.js?build=${Date.now()}`, import.meta.url);
      const { writeBuiltinManifestsFile } = (await import(built.href)) as typeof import('./src/index');
      await writeBuiltinManifestsFile(fileURLToPath(providersTarget));
    }
    if (existsSync(simCli)) chmodSync(simCli, 0o755);
  },
});
