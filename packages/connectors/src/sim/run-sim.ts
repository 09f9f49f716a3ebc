import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { execa } from 'execa';
import { ISO_INSTANT_FORM, parseIsoInstant } from '../time/parse-iso-instant';
import { parseSimArgs, SIM_USAGE, type SimArgs } from './sim-args';
import { createSimEmitter, type SimOutput } from './sim-emitters';
import { exhaustOnMeter, spendOnMeter } from './sim-meter';
import { type SelectedScenario, SimScenarioError, selectScenario, stripDirective } from './sim-scenario';
import { schemaAnswerBlock } from './sim-schema-answer';

/** What one sim run needs from its process (injected so the logic is testable in-process too). */
export type SimIo = {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly out: SimOutput;
  /** Reads the whole of stdin (called only when there is no `-p`). */
  readStdin(): Promise<string>;
  /** Called once the scenario is known (for the invocation log). */
  onScenario?(scenario: SelectedScenario, args: SimArgs): void;
  /** Called with the grandchild's pid when `stall` spawns one. */
  onChild?(pid: number): void;
};

/**
 * The time the sim prints resets from: `BULLSWARM_NOW` read by bullswarm's own rule
 * (`parseIsoInstant`: an ISO-8601 instant with a zone, empty = unset), else the clock.
 */
export function simNow(env: Readonly<Record<string, string | undefined>>): number {
  const value = env.BULLSWARM_NOW;
  if (value === undefined || value.trim() === '') return Date.now();
  const parsed = parseIsoInstant(value.trim());
  if (parsed === undefined) {
    throw new SimScenarioError(
      `bullswarm-sim: BULLSWARM_NOW=${JSON.stringify(value)} is not valid; expected ${ISO_INSTANT_FORM}`,
    );
  }
  return parsed;
}

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, Math.max(0, ms)));

function num(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new SimScenarioError(
      `bullswarm-sim: scenario parameter ${name}=${JSON.stringify(value)} is not valid; expected a non-negative number`,
    );
  }
  return value;
}

/** The numeric scenario parameters (each a non-negative number when given). */
const NUMERIC_PARAMS = ['ms', 'tickMs', 'spendPct', 'resetsInMin', 'waitSec', 'code'] as const;

/**
 * Checks every parameter of the scenario before anything is written, so a bad one exits 2 with one
 * line and no half-written output (an init event with no answer would look like a real stall).
 */
function checkParams(scenario: SelectedScenario): void {
  const p = scenario.params;
  for (const name of NUMERIC_PARAMS) num(p[name], name, 0);
  num(scenario.fileSpendPct, 'spendPct', 0);
  if (
    scenario.name === 'usage-limit' &&
    p.window !== undefined &&
    p.window !== 'five_hour' &&
    p.window !== 'weekly'
  ) {
    throw new SimScenarioError(
      `bullswarm-sim: scenario parameter window=${JSON.stringify(p.window)} is not valid; expected five_hour or weekly`,
    );
  }
}

function isPongProbe(prompt: string): boolean {
  return /\bPONG\b/.test(prompt);
}

/**
 * Plays one scenario and resolves with the exit code (never resolves for `stall`, and for
 * `read-only-loop` without `ms`). See the package README for every scenario and parameter.
 */
export async function runSim(io: SimIo): Promise<number> {
  const args = parseSimArgs(io.argv);
  if (args.help) {
    io.out.stdout(
      `${SIM_USAGE}\nThe scenario comes from a [sim:<name>,k=v] directive in the prompt, BULLSWARM_SIM_SCENARIO or BULLSWARM_SIM_SCRIPT; see the @bullswarm/connectors README.\n`,
    );
    return 0;
  }
  const prompt = args.prompt ?? (await io.readStdin());
  const scenario = selectScenario(prompt, io.env);
  io.onScenario?.(scenario, args);
  checkParams(scenario);
  const p = scenario.params;
  const now = simNow(io.env);
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const cwd = args.cwd === undefined ? io.cwd : resolve(io.cwd, args.cwd);
  const model = args.model ?? 'sim/standard';
  const emit = createSimEmitter(args.format, { out: io.out, model, cwd, now, timeZone });
  const simHome = io.env.BULLSWARM_SIM_HOME || undefined;
  const task = stripDirective(prompt);

  const succeed = (text: string): number => {
    emit.answer(text);
    if (simHome !== undefined) {
      const spend = num(p.spendPct ?? scenario.fileSpendPct, 'spendPct', 0);
      spendOnMeter(simHome, now, spend);
    }
    return 0;
  };

  emit.start();
  // Every scenario: `stderr` is written to stderr first (leak and classification tests plant text).
  if (typeof p.stderr === 'string') io.out.stderr(`${p.stderr}\n`);
  switch (scenario.name) {
    case 'ok': {
      await sleep(num(p.ms, 'ms', 0));
      const answer =
        typeof p.answer === 'string'
          ? p.answer
          : isPongProbe(task)
            ? 'PONG'
            : `sim: done: ${task.slice(0, 60)}`;
      // A workflow step with an output schema gets the smallest object its schema accepts.
      const block = typeof p.answer === 'string' ? undefined : schemaAnswerBlock(task);
      return succeed(block === undefined ? answer : `${answer}\n${block}`);
    }
    case 'echo':
      return succeed(task);
    case 'json': {
      const value = p.value ?? { ok: true };
      return succeed(typeof value === 'string' ? value : JSON.stringify(value));
    }
    case 'slow': {
      const total = num(p.ms, 'ms', 3000);
      const tick = Math.max(1, num(p.tickMs, 'tickMs', 500));
      for (let elapsed = 0; elapsed < total; elapsed += tick) {
        emit.progress(`working (${elapsed} ms)`);
        await sleep(Math.min(tick, total - elapsed));
      }
      return succeed(typeof p.answer === 'string' ? p.answer : `sim: done: ${task.slice(0, 60)}`);
    }
    case 'wait': {
      // A barrier for concurrency tests: answer once `file` exists (checked every `tickMs`), at
      // most `ms` (then exit 1 naming the file), so a test can hold many runs in flight at once.
      if (typeof p.file !== 'string' || p.file === '') {
        throw new SimScenarioError(
          `bullswarm-sim: scenario wait needs parameter file (the path whose existence releases it)`,
        );
      }
      const target = isAbsolute(p.file) ? p.file : resolve(cwd, p.file);
      const total = num(p.ms, 'ms', 60_000);
      const tick = Math.max(1, num(p.tickMs, 'tickMs', 50));
      for (let elapsed = 0, ticks = 0; !existsSync(target); elapsed += tick, ticks += 1) {
        if (elapsed >= total) {
          io.out.stderr(`bullswarm-sim: waited ${total} ms for ${target}; it never appeared\n`);
          return 1;
        }
        if (ticks % 20 === 0) emit.progress(`waiting for ${target}`);
        await sleep(tick);
      }
      return succeed(typeof p.answer === 'string' ? p.answer : `sim: done: ${task.slice(0, 60)}`);
    }
    case 'stall': {
      emit.partial();
      if (p.child === true) {
        // A grandchild in the sim's process group that outlives the sim unless the group is ended
        // (`cleanup: false`: execa would otherwise end it when the sim exits, hiding a kill of the
        // leader alone).
        const child = execa(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], {
          stdio: 'ignore',
          reject: false,
          cleanup: false,
        });
        if (child.pid !== undefined) {
          io.onChild?.(child.pid);
          io.out.stderr(`sim: grandchild pid ${child.pid}\n`);
        }
      }
      return new Promise<number>(() => {
        setInterval(() => {}, 1 << 30);
      });
    }
    case 'write':
    case 'write-slowly': {
      const files: Record<string, string> = {};
      if (typeof p.files === 'object' && p.files !== null) Object.assign(files, p.files);
      if (typeof p.file === 'string')
        files[p.file] = typeof p.content === 'string' ? p.content : 'written by bullswarm-sim\n';
      if (scenario.name === 'write') {
        if (Object.keys(files).length === 0) files['sim-output.txt'] = 'written by bullswarm-sim\n';
        for (const [path, content] of Object.entries(files)) {
          const target = isAbsolute(path) ? path : resolve(cwd, path);
          mkdirSync(dirname(target), { recursive: true });
          writeFileSync(target, String(content));
        }
        return succeed(`sim: wrote ${Object.keys(files).join(', ')}`);
      }
      const path = typeof p.path === 'string' ? p.path : 'sim-progress.txt';
      const target = isAbsolute(path) ? path : resolve(cwd, path);
      mkdirSync(dirname(target), { recursive: true });
      const total = num(p.ms, 'ms', 3000);
      const tick = Math.max(1, num(p.tickMs, 'tickMs', 500));
      let step = 0;
      for (let elapsed = 0; elapsed < total; elapsed += tick) {
        writeFileSync(target, `step ${step}\n`);
        emit.progress(`edited ${path} (step ${step})`);
        step += 1;
        await sleep(Math.min(tick, total - elapsed));
      }
      return succeed(`sim: rewrote ${path} ${step} times`);
    }
    case 'read-only-loop': {
      const tick = Math.max(1, num(p.tickMs, 'tickMs', 500));
      const total = p.ms === undefined ? Number.POSITIVE_INFINITY : num(p.ms, 'ms', 0);
      for (let elapsed = 0; elapsed < total; elapsed += tick) {
        emit.progress(`reading files (${elapsed} ms)`);
        await sleep(Math.min(tick, total - elapsed));
      }
      return succeed('sim: read everything, changed nothing');
    }
    case 'usage-limit': {
      const window =
        p.window === 'weekly'
          ? 'weekly'
          : p.window === undefined || p.window === 'five_hour'
            ? 'five_hour'
            : undefined;
      if (window === undefined) {
        throw new SimScenarioError(
          `bullswarm-sim: scenario parameter window=${JSON.stringify(p.window)} is not valid; expected five_hour or weekly`,
        );
      }
      const minutes = num(p.resetsInMin, 'resetsInMin', 60);
      const resetsAt = Math.floor((now + minutes * 60_000) / 60_000) * 60_000;
      if (simHome !== undefined) exhaustOnMeter(simHome, now, window, resetsAt);
      emit.usageLimit(window, resetsAt);
      return 1;
    }
    case 'throttle':
      emit.throttle(p.waitSec === undefined ? undefined : num(p.waitSec, 'waitSec', 0));
      return 1;
    case 'auth':
      emit.auth();
      return 1;
    case 'empty':
      emit.empty();
      return 0;
    case 'crash': {
      const code = num(p.code, 'code', 1);
      emit.partial();
      const message =
        typeof p.message === 'string'
          ? p.message
          : `bullswarm-sim crashed on purpose (scenario crash, code ${code})`;
      io.out.stderr(`Error: ${message}\n`);
      return code === 0 ? 1 : code;
    }
    case 'probe-404':
      emit.probe404();
      return 1;
    case 'probe-error':
      emit.probeError();
      return 1;
  }
}
