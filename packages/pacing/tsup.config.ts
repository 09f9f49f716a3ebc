import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

// ESM and CommonJS, each with its own declarations (index.d.ts / index.d.cts), so the package
// works from `import` and `require` with types (docs/architecture.md, "Entry points").
export default defineConfig({
  entry: { index: 'src/index.ts', internal: 'src/internal.ts' },
  format: ['esm', 'cjs'],
  platform: 'node',
  target: 'node20',
  dts: { tsconfig: 'tsconfig.build.json' },
  sourcemap: true,
  clean: true,
  tsconfig: 'tsconfig.build.json',
  define: { __BULLSWARM_VERSION__: JSON.stringify(version) },
});
