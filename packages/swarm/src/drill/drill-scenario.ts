import type { PlanInput } from '../plans/plan-schema';

/** The plan id of the drill. */
export const DRILL_PLAN_ID = 'drill';

/**
 * The drill's accounts: a lead, a deputy, three lanes' worth of sim accounts and two spares, one
 * of them another provider family (`sim-codex`). Weekly usage rises down the list, so pacing
 * ranks them in this order and the spares are left for the successor.
 */
export const DRILL_POOLS: readonly {
  readonly connector: 'sim' | 'sim-codex';
  readonly account: string;
  readonly weeklyUsedPct: number;
}[] = [
  { connector: 'sim', account: 'lead', weeklyUsedPct: 20 },
  { connector: 'sim', account: 'deputy', weeklyUsedPct: 25 },
  { connector: 'sim', account: 'lane-a', weeklyUsedPct: 10 },
  { connector: 'sim', account: 'lane-b', weeklyUsedPct: 15 },
  { connector: 'sim', account: 'lane-c', weeklyUsedPct: 20 },
  { connector: 'sim', account: 'spare-1', weeklyUsedPct: 30 },
  { connector: 'sim-codex', account: 'spare-2', weeklyUsedPct: 40 },
];

/** The drill's plan: three lane tasks and the lead's release, each with a gate. */
export function drillPlan(): PlanInput {
  return {
    schema: 'bullswarm-plan/v1',
    id: DRILL_PLAN_ID,
    title: 'bullswarm swarm drill',
    contract: {
      goal: 'an api note, a two-part cli note and usage docs naming the api flag, merged into main and tagged drill-done',
      authorization: ['merge lane/* branches into main', 'tag drill-done', 'lease declared sim accounts'],
      freshContextPct: 60,
    },
    pools: DRILL_POOLS.map((p) => `${p.connector}:${p.account}`),
    tasks: [
      {
        id: 'api',
        title: 'write the api note',
        lane: 'build',
        tier: 'medium',
        steps: ['write', 'verify'],
        gate: { command: ['node', 'gates/check.mjs', 'api'] },
      },
      {
        id: 'cli',
        title: 'write the cli note in two parts',
        lane: 'build',
        tier: 'medium',
        steps: ['part-1', 'part-2', 'verify'],
        gate: { command: ['node', 'gates/check.mjs', 'cli'] },
      },
      {
        id: 'docs',
        title: 'document the api flag',
        lane: 'chore',
        tier: 'medium',
        steps: ['ask', 'write', 'verify'],
        gate: { command: ['node', 'gates/check.mjs', 'docs'] },
      },
      {
        id: 'release',
        title: 'merge the lanes and tag',
        lane: 'chore',
        tier: 'medium',
        dependsOn: ['api', 'cli', 'docs'],
        steps: ['merge', 'verify', 'tag'],
        gate: { command: ['node', 'gates/check.mjs', 'all'] },
      },
    ],
  };
}

/** What each gate requires: files and a phrase each must contain. */
export const DRILL_GATE_SCRIPT = `// The drill's gates: each checks files and a phrase in each. Exit 0 only when all are there.
import { existsSync, readFileSync } from 'node:fs';

const need = {
  api: [['src/api.txt', 'flag --format']],
  cli: [['src/cli-part1.txt', 'cli part 1'], ['src/cli-part2.txt', 'cli part 2 final']],
  docs: [['docs/usage.md', '--format']],
};
const which = process.argv[2];
const tasks = which === 'all' ? Object.keys(need) : [which];
if (!tasks.every((task) => need[task])) {
  console.error(\`unknown gate \${which}: expected \${Object.keys(need).join(', ')} or all\`);
  process.exit(2);
}
let failed = 0;
for (const task of tasks) {
  for (const [file, phrase] of need[task]) {
    if (!existsSync(file)) {
      console.error(\`FAIL \${task}: \${file} is missing\`);
      failed += 1;
    } else if (!readFileSync(file, 'utf8').includes(phrase)) {
      console.error(\`FAIL \${task}: \${file} does not say "\${phrase}"\`);
      failed += 1;
    } else {
      console.log(\`ok \${task}: \${file}\`);
    }
  }
}
process.exit(failed === 0 ? 0 : 1);
`;

/** The sim directives that do each piece of lane work (content has no "," or "]"). */
export const DRILL_WORK = {
  api: '[sim:write,file=src/api.txt,content=api v1: output flag --format]',
  cliPart1: '[sim:write,file=src/cli-part1.txt,content=cli part 1: parse arguments]',
  cliDraft: '[sim:write,file=src/cli-part2.txt,content=cli part 2 draft (unfinished)]',
  cliFinal: '[sim:write,file=src/cli-part2.txt,content=cli part 2 final: print with the api flag]',
  docs: (flag: string) =>
    `[sim:write,file=docs/usage.md,content=usage: run the api with ${flag} (flag confirmed by lane-a)]`,
} as const;
