import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { WindowKind } from '@bullswarm/pacing';
import { DEFAULT_WINDOW_MINUTES } from '@bullswarm/pacing/internal';
import { CliExit, CliUsageError } from '../cli/cli-errors';
import type { CliIo } from '../cli/cli-io';
import type { CommandContext } from '../cli/command-context';
import { EXIT } from '../cli/exit-codes';

/** Marks a directory as a demo home, so `demo --home <dir>` may reuse it but never clobbers a real one. */
export const DEMO_MARKER = '.bullswarm-demo';

const MINUTE = 60_000;

/** One window of a demo pool's meter, its reset given relative to now. */
interface DemoWindow {
  readonly kind: WindowKind;
  readonly usedPct: number;
  readonly resetsInMin: number;
}

/** A demo pool: a sim account and the meter state it starts in. */
interface DemoPool {
  readonly connector: string;
  /** The account; undefined for the connector's own login (pool id = connector id). */
  readonly account?: string;
  readonly windows?: readonly DemoWindow[];
  readonly models: Record<string, string | null>;
  readonly subscription?: { readonly quotaWindow: 'weekly' | 'monthly' };
  /** What this pool is there to show (written to the demo home's README). */
  readonly shows: string;
}

/**
 * The demo pools. Sim pools run `sim/lite` (paid) on the low tier, so only the echo pool is free
 * for a chore and free-first shows on it.
 */
export function demoPools(connectors: ReadonlySet<string>): DemoPool[] {
  const simModels = { low: 'sim/lite' };
  const pools: DemoPool[] = [
    {
      connector: 'sim',
      account: 'behind',
      windows: [
        { kind: 'five_hour', usedPct: 12, resetsInMin: 180 },
        { kind: 'weekly', usedPct: 20, resetsInMin: 3 * 1440 },
      ],
      models: simModels,
      shows: 'well behind pace: 57% of its week gone, 20% used',
    },
    {
      connector: 'sim',
      account: 'ahead',
      windows: [
        { kind: 'five_hour', usedPct: 30, resetsInMin: 60 },
        { kind: 'weekly', usedPct: 71, resetsInMin: 4 * 1440 },
      ],
      models: simModels,
      shows: 'ahead of pace: 71% used with 43% of its week gone',
    },
    {
      connector: 'sim',
      account: 'near5h',
      windows: [
        { kind: 'five_hour', usedPct: 82, resetsInMin: 120 },
        { kind: 'weekly', usedPct: 25, resetsInMin: 3.5 * 1440 },
      ],
      models: simModels,
      shows: 'near its 5-hour line (82%)',
    },
    {
      connector: 'sim',
      account: 'gated',
      windows: [
        { kind: 'five_hour', usedPct: 100, resetsInMin: 40 },
        { kind: 'weekly', usedPct: 40, resetsInMin: 2 * 1440 },
      ],
      models: simModels,
      shows: 'at its 5-hour limit: burst-gated until the window resets',
    },
    {
      connector: 'sim',
      account: 'monthly',
      windows: [{ kind: 'monthly', usedPct: 55, resetsInMin: 2 * 1440 }],
      models: simModels,
      subscription: { quotaWindow: 'monthly' },
      shows: 'a monthly subscription resetting in 2 days with quota left: expiring soon',
    },
    {
      connector: 'echo',
      models: { medium: null, high: null },
      shows: 'a free model on the low tier only: takes the chore',
    },
  ];
  if (connectors.has('sim-codex')) {
    pools.push({
      connector: 'sim-codex',
      account: 'demo',
      windows: [
        { kind: 'five_hour', usedPct: 5, resetsInMin: 200 },
        { kind: 'weekly', usedPct: 45, resetsInMin: 3 * 1440 },
      ],
      models: simModels,
      shows: 'a Codex-shaped sim pool',
    });
  }
  return pools;
}

/** Prepares the demo home: the marker, state.json with the pools, and each sim pool's meter file. */
async function prepareHome(home: string, pools: readonly DemoPool[], now: number): Promise<void> {
  const { openHome } = await import('@bullswarm/store');
  mkdirSync(join(home, 'work'), { recursive: true, mode: 0o700 });
  writeFileSync(join(home, DEMO_MARKER), 'made by `bullswarm demo`\n', { mode: 0o600 });
  const addedAt = new Date(now).toISOString();
  openHome({ home }).updateState((state) => {
    state.pools = pools.map((pool) => ({
      id: pool.account === undefined ? pool.connector : `${pool.connector}:${pool.account}`,
      connector: pool.connector,
      ...(pool.account === undefined ? {} : { account: pool.account }),
      enabled: true,
      models: pool.models,
      ...(pool.subscription ? { subscription: pool.subscription } : {}),
      addedAt,
    }));
    state.assignments = {};
  });
  for (const pool of pools) {
    if (!pool.windows || pool.account === undefined) continue;
    // The sim connectors keep each account's meter in <home>/<connector>/<account>/meter.json.
    const simHome = join(home, pool.connector, pool.account);
    mkdirSync(simHome, { recursive: true, mode: 0o700 });
    const reading = {
      readAt: addedAt,
      windows: pool.windows.map((w) => ({
        kind: w.kind,
        usedPct: w.usedPct,
        resetsAt: new Date(now + w.resetsInMin * MINUTE).toISOString(),
        windowMinutes: DEFAULT_WINDOW_MINUTES[w.kind],
      })),
    };
    writeFileSync(join(simHome, 'meter.json'), `${JSON.stringify(reading, null, 2)}\n`, { mode: 0o600 });
  }
}

function chooseHome(context: CommandContext): { home: string; temporary: boolean } {
  if (context.homeDir === undefined) {
    return { home: mkdtempSync(join(tmpdir(), 'bullswarm-demo-')), temporary: true };
  }
  const home = context.homeDir;
  if (existsSync(home) && !statSync(home).isDirectory()) {
    throw new CliUsageError({
      message: `--home ${home} is not a directory: give the demo a new or empty directory (or omit --home for a temporary one)`,
      flag: '--home',
    });
  }
  if (existsSync(home) && readdirSync(home).length > 0 && !existsSync(join(home, DEMO_MARKER))) {
    throw new CliUsageError({
      message: `--home ${home} is not empty and not a demo home: the demo replaces a home's pools, so give it a new or empty directory (or omit --home for a temporary one)`,
      flag: '--home',
    });
  }
  return { home, temporary: false };
}

/**
 * `bullswarm demo [--home <dir>] [--keep]`: routing at work on simulated pools, with nothing to
 * install or sign in to. Creates a home (a temporary one unless `--home`, which must be new, empty
 * or an earlier demo home) with `sim` pools whose meters are in varied states — well behind pace,
 * ahead of pace, near the 5-hour line, at the 5-hour limit, a monthly pool expiring within 3 days
 * — and an `echo` pool holding a free model on the low tier only (plus a `sim-codex` pool when
 * that connector exists). Then runs, each under a `$ bullswarm …` header, the real commands:
 * `pools`, a dry run, a real run (the sim is spawned), and a chore that free-first sends to echo.
 * The temporary home is removed unless `--keep`.
 *
 * The commands run through `runCli` (run-cli.ts's, passed in by the program).
 *
 * Exit 0 when every step did what it shows (each command exited 0); 1 otherwise.
 */
export async function demoCommand(
  context: CommandContext,
  options: { keep?: boolean },
  runCli: (argv: readonly string[], io: CliIo) => Promise<number>,
): Promise<void> {
  const [{ createClock }, { loadConnectors }] = await Promise.all([
    import('@bullswarm/store'),
    import('@bullswarm/connectors'),
  ]);
  const { home, temporary } = chooseHome(context);
  const out = context.io.out;
  let failures = 0;
  try {
    const now = createClock(context.io.env)();
    const loaded = await loadConnectors({ home });
    await prepareHome(home, demoPools(new Set(loaded.connectors.keys())), now);

    const { BULLSWARM_POOL: _caller, ...env } = context.io.env;
    const io: CliIo = {
      out,
      err: out,
      stdin: new PassThrough(),
      env: { ...env, BULLSWARM_HOME: home },
      stdoutIsTTY: context.colors.enabled,
      stderrIsTTY: false,
      stdinIsTTY: false,
      cwd: join(home, 'work'),
    };
    const steps: { args: string[]; note: string }[] = [
      { args: ['pools'], note: 'every pool, its pace against its own clock, and what keeps it out' },
      {
        args: ['run', '--lane', 'analyze', '--dry-run', 'Explain the parser in src/parse.ts'],
        note: 'the pick, and why, without spawning anything',
      },
      {
        args: ['run', '--lane', 'analyze', 'Explain the parser in src/parse.ts'],
        note: 'the same task for real (the sim answers)',
      },
      {
        args: ['run', '--lane', 'chore', 'Tidy the changelog'],
        note: 'a chore: the low tier, where only echo holds a free model',
      },
    ];
    out(`bullswarm demo: simulated pools in ${home}\n`);
    for (const step of steps) {
      out(`\n${context.colors.dim(`# ${step.note}`)}\n`);
      out(`${context.colors.bold(`$ bullswarm ${step.args.map(quote).join(' ')}`)}\n`);
      const code = await runCli(context.colors.enabled ? step.args : [...step.args, '--no-color'], io);
      if (code !== 0) {
        failures++;
        out(`(exit ${code})\n`);
      }
    }
    out('\n');
    if (temporary && !options.keep) {
      out(
        'The demo home above was temporary and is removed now; `bullswarm demo --keep` keeps it, with its attempt files.\n',
      );
      out('Next: `bullswarm setup` finds the agent CLIs on this machine and creates their pools.\n');
    } else {
      out(`The demo home is kept at ${home}: try \`bullswarm --home ${home} pools --json\`.\n`);
    }
  } finally {
    if (temporary && !options.keep) rmSync(home, { recursive: true, force: true });
  }
  if (failures > 0) throw new CliExit(EXIT.failed);
}

function quote(arg: string): string {
  return /^[A-Za-z0-9_./:=-]+$/.test(arg) ? arg : `"${arg.replace(/(["\\$`])/g, '\\$1')}"`;
}
