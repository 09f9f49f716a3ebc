import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  dts: { tsconfig: 'tsconfig.build.json' },
  sourcemap: true,
  clean: true,
  tsconfig: 'tsconfig.build.json',
  define: { __BULLSWARM_VERSION__: JSON.stringify(version) },
});
