import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  dts: { tsconfig: 'tsconfig.build.json' },
  sourcemap: true,
  clean: true,
  tsconfig: 'tsconfig.build.json',
  // The connectors package is a peer: never bundle it.
  external: ['@bullswarm/connectors'],
});
