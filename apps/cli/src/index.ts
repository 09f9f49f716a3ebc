#!/usr/bin/env node
/**
 * `bullswarm`, the bin: loads the CLI bundle (`bullswarm.cjs`, beside this file) through a V8
 * code cache and runs the command line. See `bullswarm --help`.
 */
import { homedir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { compileCacheDir, loadBundle } from './launcher/load-bundle';

const bundlePath = fileURLToPath(new URL('./bullswarm.cjs', import.meta.url));
const argv = process.argv.slice(2);
const bundle = loadBundle(bundlePath, {
  cacheDir: compileCacheDir(process.env, process.env.HOME || homedir()),
  version: __BULLSWARM_VERSION__,
  // One code cache per command (`pools`, `run`, …): each warms the functions it uses.
  variant: argv.find((arg, i) => !arg.startsWith('-') && argv[i - 1] !== '--home') ?? 'default',
});
const debugCache = process.env.BULLSWARM_DEBUG_COMPILE_CACHE === '1';
if (debugCache)
  process.stderr.write(
    `compile cache: ${bundle.cacheUsed ? 'hit' : 'miss'} ${bundle.cacheFile ?? '(off)'}\n`,
  );
const main = bundle.exports.main as (argv: readonly string[]) => Promise<number>;
const code = await main(argv);
process.exitCode = code;
bundle.saveCache();
// The command is done once its output is flushed: do not wait for timers or handles a library
// may leave behind (a kill-grace timer after a canceled run, a watcher being closed).
const flushed = (stream: NodeJS.WriteStream) =>
  new Promise<void>((resolve) => stream.write('', () => resolve()));
await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
process.exit(code);
