#!/usr/bin/env node
/**
 * `bullswarm`, the bin: picks the bundle that runs this command line (the core one for `pools`,
 * `strategy`, `meters`, …, else the full one; see launcher/choose-bundle.ts), loads it through a
 * V8 code cache and runs the command line. See `bullswarm --help`.
 *
 * Built as CommonJS (dist/package.json says so): a CommonJS entry starts without Node's ES module
 * loader, a few milliseconds of every start.
 */
import { writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { bundleFor, commandWord } from './launcher/choose-bundle';
import { compileCacheDir, loadBundle } from './launcher/load-bundle';

async function run(): Promise<void> {
  const argv = process.argv.slice(2);
  const bundle = loadBundle(join(__dirname, bundleFor(argv)), {
    cacheDir: compileCacheDir(process.env, process.env.HOME || homedir()),
    version: __BULLSWARM_VERSION__,
    // One code cache per command (`pools`, `run`, …): each warms the functions it uses.
    variant: commandWord(argv) ?? 'default',
  });
  if (process.env.BULLSWARM_DEBUG_COMPILE_CACHE === '1') {
    try {
      writeSync(2, `compile cache: ${bundle.cacheUsed ? 'hit' : 'miss'} ${bundle.cacheFile ?? '(off)'}\n`);
    } catch {
      // A debugging aid only: never fail the command for it.
    }
  }
  const main = bundle.exports.main as (argv: readonly string[]) => Promise<number>;
  // Resolves once the command's output is flushed.
  const code = await main(argv);
  process.exitCode = code;
  bundle.saveCache();
  // The command is done: do not wait for timers or handles a library may leave behind (a
  // kill-grace timer after a canceled run, a watcher being closed).
  process.exit(code);
}

void run();
