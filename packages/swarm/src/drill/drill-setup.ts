import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openHome } from '@bullswarm/store';
import { SwarmInputError } from '../errors/swarm-input-error';
import { git } from '../git/run-git';
import { type PlanLocation, planLocation } from '../plans/plan-location';
import { DRILL_GATE_SCRIPT, DRILL_PLAN_ID, DRILL_POOLS, drillPlan } from './drill-scenario';

/** The drill's scratch directory: `dir` when new or empty (created), else a new temp directory. */
export function prepareDrillDir(dir: string | undefined): string {
  if (dir === undefined) return realpathSync(mkdtempSync(join(tmpdir(), 'bullswarm-drill-')));
  const expected = 'a new or empty directory (the drill creates its home and repository there)';
  if (dir.trim() === '') throw new SwarmInputError({ field: 'dir', expected, received: dir });
  const absolute = resolve(dir);
  if (existsSync(absolute) && !statSync(absolute).isDirectory()) {
    throw new SwarmInputError({ field: 'dir', expected: `${expected}; it is a file`, received: dir });
  }
  try {
    mkdirSync(absolute, { recursive: true });
  } catch (error) {
    throw new SwarmInputError({
      field: 'dir',
      expected: `${expected}; it cannot be created (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      received: dir,
    });
  }
  if (readdirSync(absolute).length > 0) {
    throw new SwarmInputError({
      field: 'dir',
      expected,
      received: dir,
    });
  }
  return realpathSync(absolute);
}

/**
 * The drill's bullswarm home: its sim accounts and their labels (through the store, as `demo`
 * writes its home: validated, atomic), and each account's meter file.
 */
export function writeDrillHome(home: string, now: number): void {
  const addedAt = new Date(now).toISOString();
  const drillHome = openHome({ home });
  drillHome.updateState((state) => {
    state.pools = DRILL_POOLS.map((p) => ({
      id: `${p.connector}:${p.account}`,
      connector: p.connector,
      account: p.account,
      enabled: true,
      models: {},
      addedAt,
    }));
    state.assignments = {};
  });
  drillHome.updateLabels((labels) => {
    labels.labels = Object.fromEntries(DRILL_POOLS.map((p) => [`${p.connector}:${p.account}`, p.account]));
  });
  for (const p of DRILL_POOLS) {
    // Each sim connector keeps its accounts under <home>/<connector>/<account> (BULLSWARM_SIM_HOME).
    const simHome = join(home, p.connector, p.account);
    mkdirSync(simHome, { recursive: true });
    const reading = {
      readAt: addedAt,
      windows: [
        {
          kind: 'five_hour',
          usedPct: 5,
          resetsAt: new Date(now + 200 * 60_000).toISOString(),
          windowMinutes: 300,
        },
        {
          kind: 'weekly',
          usedPct: p.weeklyUsedPct,
          resetsAt: new Date(now + 3 * 86_400_000).toISOString(),
          windowMinutes: 10_080,
        },
      ],
    };
    writeFileSync(join(simHome, 'meter.json'), `${JSON.stringify(reading, null, 2)}\n`);
  }
}

/**
 * The scratch repository: the plan and its gates on main, pushed to `origin`, a bare repository
 * beside it (so the new lead's fenced merges, tag and pushes are checked against a real remote).
 */
export function createDrillRepo(repoDir: string, originDir: string): PlanLocation {
  mkdirSync(repoDir, { recursive: true });
  git(repoDir, ['init', '-q', '-b', 'main']);
  git(repoDir, ['config', 'user.email', 'drill@bullswarm.invalid']);
  git(repoDir, ['config', 'user.name', 'bullswarm drill']);
  git(repoDir, ['config', 'commit.gpgsign', 'false']);
  git(repoDir, ['config', 'tag.gpgsign', 'false']);
  const repo = realpathSync(repoDir);
  const plan = planLocation({ repo, id: DRILL_PLAN_ID });
  mkdirSync(plan.dir, { recursive: true });
  mkdirSync(join(repo, 'gates'), { recursive: true });
  writeFileSync(plan.planFile, `${JSON.stringify(drillPlan(), null, 2)}\n`);
  writeFileSync(join(repo, 'gates', 'check.mjs'), DRILL_GATE_SCRIPT);
  writeFileSync(
    join(repo, 'README.md'),
    '# bullswarm drill\n\nA scratch repository made by `bullswarm swarm drill`.\n',
  );
  git(repo, ['add', '-A']);
  git(repo, ['commit', '-q', '-m', 'drill: plan and gates']);
  mkdirSync(originDir, { recursive: true });
  git(originDir, ['init', '-q', '--bare', '-b', 'main']);
  git(repo, ['remote', 'add', 'origin', realpathSync(originDir)]);
  git(repo, ['push', '-q', '-u', 'origin', 'main']);
  return plan;
}
