import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bullswarm, tempDirs } from './support/cli';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const HEADERS = [
  '$ bullswarm pools',
  '$ bullswarm run --lane analyze --dry-run "Explain the parser in src/parse.ts"',
  '$ bullswarm run --lane analyze "Explain the parser in src/parse.ts"',
  '$ bullswarm run --lane chore "Tidy the changelog"',
];

/** The output of each `$ bullswarm …` section, by header. */
function sections(stdout: string): Map<string, string> {
  const map = new Map<string, string>();
  const lines = stdout.split('\n');
  let current: string | undefined;
  for (const line of lines) {
    if (line.startsWith('$ bullswarm ')) {
      current = line;
      map.set(current, '');
    } else if (current !== undefined) {
      if (line.startsWith('# ') || line === '') current = line === '' ? current : undefined;
      if (current !== undefined && line !== '') map.set(current, `${map.get(current)}${line}\n`);
    }
  }
  return map;
}

describe('bullswarm demo', () => {
  it('runs end to end: pools, a dry run, a real run and a free chore, each under its header; the temp home is removed', async () => {
    const result = await bullswarm(['demo']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
    const home = /^bullswarm demo: simulated pools in (.+)$/m.exec(result.stdout)?.[1];
    expect(home).toBeDefined();
    const parts = sections(result.stdout);
    expect([...parts.keys()]).toEqual(HEADERS);

    const pools = parts.get(HEADERS[0]!)!;
    expect(pools).toMatch(/^echo +cost=1 .* unmetered surplus=- inflight=0 free=echo ready$/m);
    expect(pools).toMatch(/^sim:behind +cost=1 .* weekly used 20% elapsed 57.1% surplus=37.1 .* ready$/m);
    expect(pools).toMatch(/^sim:ahead +cost=1 .* weekly used 71% elapsed 42.9% surplus=-28.1 /m);
    expect(pools).toMatch(/^sim:near5h .* 5h=82% \(60% elapsed\) NEAR-5H-LIMIT$/m);
    expect(pools).toMatch(/^sim:gated .* 5h=100% .* BURST-GATED 5-hour until \S+Z$/m);
    expect(pools).toMatch(
      /^sim:monthly .* monthly used 55% elapsed 93.3% surplus=38.3 .* resets in 2d 0h EXPIRING-SOON urgency=575$/m,
    );

    const dry = parts.get(HEADERS[1]!)!;
    expect(dry).toMatch(
      /^OK \[sim:monthly\] expiring soon: sim:monthly \(urgency 575, monthly resets in 2d 0h, surplus 38.3\)/,
    );
    expect(dry).toContain('\nforecast: inflight=0 ');

    const real = parts.get(HEADERS[2]!)!;
    expect(real).toMatch(/^→ \[sim:monthly\] expiring soon: sim:monthly /);
    expect(real).toContain('\nsim: done: Explain the parser in src/parse.ts\n');

    const chore = parts.get(HEADERS[3]!)!;
    expect(chore).toMatch(
      /^→ \[echo\] free pool first: echo \(free model echo, 0 in flight\) · metered pools ranked below free: /,
    );
    expect(chore).toContain('\nTidy the changelog\n');

    // The attempt-file paths above point into the temporary home: say it is gone, and how to keep it.
    expect(result.stdout).toContain(
      'The demo home above was temporary and is removed now; `bullswarm demo --keep` keeps it',
    );
    expect(existsSync(home!)).toBe(false);
  });

  it('--home --keep keeps the home, which the next bullswarm can use; a non-empty non-demo --home is refused', async () => {
    const home = join(dirs.make(), 'demo-home');
    const result = await bullswarm(['demo', '--home', home, '--keep']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(`The demo home is kept at ${home}`);
    const state = JSON.parse(readFileSync(join(home, 'state.json'), 'utf8'));
    expect(state.pools.map((p: { id: string }) => p.id)).toContain('sim:monthly');
    const pools = await bullswarm(['pools', '--json'], { home });
    expect(JSON.parse(pools.stdout).pools.length).toBe(state.pools.length);
    // Running it again in its own home is fine.
    expect((await bullswarm(['demo', '--home', home, '--keep'])).exitCode).toBe(0);

    const real = dirs.make();
    mkdirSync(join(real, 'stuff'));
    writeFileSync(join(real, 'state.json'), '{"version":1}');
    const refused = await bullswarm(['demo', '--home', real]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(`--home ${real} is not empty and not a demo home`);
    expect(readFileSync(join(real, 'state.json'), 'utf8')).toBe('{"version":1}');
  });
});
