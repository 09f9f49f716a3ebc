import { type Colors, createColors } from '../output/color';
import type { DoctorReport, PoolDiagnosis } from './diagnose-pools';

/**
 * The lines of `bullswarm doctor`: per pool a head line (`<label>  ok | warning | CANNOT RUN: <why>`)
 * and one indented line per check, then a summary line.
 *
 * ```
 * codex  CANNOT RUN: codex not on PATH
 *   cli       codex not found (checked with >=0.171.0 <0.172.0)
 *   sign-in   unknown: no CLI to ask
 *   meter     codex-rollout: unmetered
 *   last run  none
 * ```
 */
export function formatDoctorReport(report: DoctorReport, colors: Colors = createColors(false)): string[] {
  if (report.pools.length === 0) {
    return [
      'no pools: nothing can run (`bullswarm setup` finds your agent CLIs; or `bullswarm pools add <connector>`)',
    ];
  }
  const lines: string[] = [];
  for (const pool of report.pools) lines.push(...poolLines(pool, colors));
  const cannot = report.pools.filter((pool) => !pool.canRun);
  const count = report.pools.length;
  lines.push(
    cannot.length === 0
      ? `${count} pool${count === 1 ? '' : 's'}: every one can run`
      : `${count - cannot.length} of ${count} pool${count === 1 ? '' : 's'} can run; cannot run: ${cannot
          .map((pool) => pool.poolLabel)
          .join(', ')}`,
  );
  return lines;
}

function poolLines(pool: PoolDiagnosis, colors: Colors): string[] {
  const head =
    pool.status === 'cannot-run'
      ? colors.red(`CANNOT RUN: ${pool.problems.join('; ')}`)
      : pool.status === 'warning'
        ? colors.yellow('warning')
        : colors.green('ok');
  const row = (name: string, text: string) => `  ${name.padEnd(9)} ${text}`;
  const lines = [`${colors.bold(pool.poolLabel)}  ${head}`, row('cli', cliText(pool))];
  const signIn = pool.signIn;
  lines.push(
    row(
      'sign-in',
      signIn.state === 'signed-in'
        ? `signed in (${signIn.evidence})`
        : signIn.state === 'signed-out'
          ? `not signed in (${signIn.evidence})`
          : `unknown: ${signIn.evidence}`,
    ),
  );
  lines.push(row('meter', meterText(pool)));
  const last = pool.lastRun;
  lines.push(
    row(
      'last run',
      last === null
        ? 'none'
        : `${last.outcome} at ${last.endedAt} (${last.action}, ${last.lane})${last.why === null ? '' : `: ${last.why}`}`,
    ),
  );
  for (const warning of pool.warnings) lines.push(row('warning', warning));
  return lines;
}

function cliText(pool: PoolDiagnosis): string {
  const cli = pool.cli;
  if (cli.command === null) return 'not checked (the connector does not say what it runs)';
  const range = cli.checked === null ? '' : ` (checked with ${cli.checked})`;
  if (cli.path === null) return `${cli.command} not found${range}`;
  if (cli.version === null) {
    return cli.checked === null
      ? `${cli.path} (no version range to check)`
      : `${cli.path}, version unknown${range}`;
  }
  const inside = cli.inRange === true ? 'inside' : 'OUTSIDE';
  return `${cli.path} ${cli.version} (${inside} the checked ${cli.checked})`;
}

function meterText(pool: PoolDiagnosis): string {
  const meter = pool.meter;
  if (meter.source === null) return 'no source (the connector is not installed)';
  if (meter.source === 'none') return 'none (the pool is unmetered by design)';
  if (meter.readable === false) return `${meter.source}: not readable: ${meter.error ?? meter.status}`;
  if (meter.status === 'unmetered') {
    return meter.source === 'manual'
      ? `manual: no reading set (bullswarm meters set ${pool.id} …)`
      : `${meter.source}: no reading yet`;
  }
  return `${meter.source}: readable (${meter.status}${meter.readAt === null ? '' : `, read ${meter.readAt}`})`;
}
