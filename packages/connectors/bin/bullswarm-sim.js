#!/usr/bin/env node
// The `bullswarm-sim` command. This file is committed (package.json `bin` points here, not at
// dist/), so `pnpm install` links the command before anything is built; it runs the built CLI,
// dist/sim-cli.js (src/sim/sim-cli.ts), and says how to build it when it is missing.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const built = new URL('../dist/sim-cli.js', import.meta.url);
if (!existsSync(built)) {
  process.stderr.write(
    `bullswarm-sim: ${fileURLToPath(built)} is not built yet: run \`pnpm --filter @bullswarm/connectors build\`\n`,
  );
  process.exit(1);
}
await import(built.href);
