import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { cleanEnv, expectOk, npmFlags, run, tempDirs } from './support';

const registryUrl = inject('registryUrl');
const pacing = inject('packed').find((pkg) => pkg.name === '@bullswarm/pacing')!;
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const dirs = tempDirs();

/** One pool snapshot and a task: the smallest input chooseRoute decides on (as in its README). */
const INPUT = `
const now = Date.parse('2026-11-27T12:00:00Z');
const pool = (id, weeklyUsedPct) => ({
  id, connectorId: id, providerFamily: id, credentialGroup: id, enabled: true,
  lanes: ['analyze', 'build', 'chore'], capabilities: [],
  models: { medium: { model: id + '-default', free: false } },
  pacingWindow: 'weekly', hasFiveHourWindow: false,
  meter: { status: 'live', windows: [{ kind: 'weekly', usedPct: weeklyUsedPct, windowMinutes: 10080, resetsAt: now + 3024 * 60000 }] },
  spendRates: {}, inflight: [], runs: [],
});
const input = { pools: [pool('codex', 40), pool('grok', 60)], task: { lane: 'analyze', tier: 'medium', kind: 'single-run' }, now };
`;

let project: string;

beforeAll(async () => {
  // A fresh npm project outside the repository, as another tool's would be.
  project = dirs('bullswarm-pacing-consumer-');
  writeFileSync(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }, null, 2)}\n`,
  );
  expectOk(
    await run('npm', ['install', `@bullswarm/pacing@${pacing.version}`, ...npmFlags(registryUrl)], {
      cwd: project,
    }),
  );
});

describe('@bullswarm/pacing installed in a fresh npm project', () => {
  it('installs alone: no dependency comes with it', async () => {
    const tree = JSON.parse(
      expectOk(await run('npm', ['ls', '--all', '--json'], { cwd: project })).stdout,
    ) as { dependencies: Record<string, { version: string; dependencies?: unknown }> };
    expect(Object.keys(tree.dependencies)).toEqual(['@bullswarm/pacing']);
    expect(tree.dependencies['@bullswarm/pacing']).toEqual(
      expect.objectContaining({ version: pacing.version }),
    );
    expect(tree.dependencies['@bullswarm/pacing']!.dependencies).toBeUndefined();
    const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, unknown>;
    };
    expect(Object.keys(lock.packages).sort()).toEqual(['', 'node_modules/@bullswarm/pacing']);
  });

  it('works from an ES module (import)', async () => {
    writeFileSync(
      join(project, 'route.mjs'),
      `import { chooseRoute, LANES } from '@bullswarm/pacing';\n${INPUT}\nconst decision = chooseRoute(input);\nconsole.log(JSON.stringify({ pick: decision.poolId, reason: decision.reason, lanes: LANES }));\n`,
    );
    const result = expectOk(await run('node', ['route.mjs'], { cwd: project }));
    expect(JSON.parse(result.stdout)).toEqual({
      pick: 'codex',
      reason: expect.stringMatching(/^most-behind capable pool \(surplus 30\)/),
      lanes: ['analyze', 'build', 'chore'],
    });
  });

  it('works from CommonJS (require), the same decision', async () => {
    writeFileSync(
      join(project, 'route.cjs'),
      `const { chooseRoute, BullswarmError, InvalidInputError } = require('@bullswarm/pacing');\n${INPUT}\nconst decision = chooseRoute(input);\nlet bad;\ntry { chooseRoute({ ...input, now: Number.NaN }); } catch (error) { bad = error; }\nconsole.log(JSON.stringify({ pick: decision.poolId, typed: BullswarmError.isInstance(bad) && InvalidInputError.isInstance(bad) }));\n`,
    );
    const result = expectOk(await run('node', ['route.cjs'], { cwd: project }));
    expect(JSON.parse(result.stdout)).toEqual({ pick: 'codex', typed: true });
  });

  it('has types for import and for require: tsc accepts a typed consumer and rejects a wrong call', async () => {
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          strict: true,
          noEmit: true,
          types: [],
          skipLibCheck: false,
        },
        include: ['*.mts', '*.cts'],
      }),
    );
    const typed = (imports: string) => `${imports}
const task: RouteTask = { lane: 'analyze', tier: 'medium', kind: 'single-run' };
const decide = (pools: PoolSnapshot[], now: number): RouteDecision => chooseRoute({ pools, task, now });
const pick: string | null = decide([], 0).poolId;
// @ts-expect-error: a task needs a lane (if the types were missing or any, this line would not error)
chooseRoute({ pools: [], task: { tier: 'medium', kind: 'single-run' }, now: 0 });
// @ts-expect-error: the lane is one of LANES
const lane: Lane = 'deploy';
export { pick, lane };
`;
    writeFileSync(
      join(project, 'consumer.mts'),
      typed(
        "import { chooseRoute, type Lane, type PoolSnapshot, type RouteDecision, type RouteTask } from '@bullswarm/pacing';",
      ),
    );
    writeFileSync(
      join(project, 'consumer.cts'),
      typed(
        "import pacing = require('@bullswarm/pacing');\nconst { chooseRoute } = pacing;\ntype Lane = pacing.Lane;\ntype PoolSnapshot = pacing.PoolSnapshot;\ntype RouteDecision = pacing.RouteDecision;\ntype RouteTask = pacing.RouteTask;",
      ),
    );
    const result = await run('node', [tsc, '-p', 'tsconfig.json'], { cwd: project, env: cleanEnv() });
    expectOk(result);
    // And the types resolved are the package's own: one .d.ts for import, one .d.cts for require.
    const traced = expectOk(
      await run('node', [tsc, '-p', 'tsconfig.json', '--traceResolution'], { cwd: project }),
    ).stdout;
    expect(traced).toMatch(/'@bullswarm\/pacing' was successfully resolved to '[^']*\/dist\/index\.d\.ts'/);
    expect(traced).toMatch(/'@bullswarm\/pacing' was successfully resolved to '[^']*\/dist\/index\.d\.cts'/);
  });
});
