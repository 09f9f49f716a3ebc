/**
 * The core bundle's entry (`dist/bullswarm.cjs`; see launcher/choose-bundle.ts): `main` of
 * main.ts, for the short read-and-print commands (`pools`, `strategy`, `meters`, `assignments`).
 *
 * They parse a handful of documents once (state.json, pool-labels.json), so zod's JIT is switched
 * off for them (`jitless`, zod's documented setting): on a first parse zod compiles a parser per
 * object schema with `new Function`, code no V8 code cache keeps, which costs more than it saves
 * in a one-shot command. Parsing and its results are the same. The full bundle (long workflow
 * runs) keeps the JIT.
 */
import { config as configureZod } from 'zod/v4/core';

configureZod({ jitless: true });

export { main, runCli } from './main';
