import {
  chmodSync,
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { type CommandResult, cleanEnv, expectOk, npmFlags, REPO_ROOT, run, tempDirs } from './support';

const registryUrl = inject('registryUrl');
const packed = inject('packed');
const cli = packed.find((pkg) => pkg.name === '@bullswarm/cli')!;
const dirs = tempDirs();

let prefix: string;
let env: Record<string, string>;

/** Runs the globally installed `bullswarm` (found on PATH in the prefix). */
const bullswarm = (
  args: readonly string[],
  cwd: string,
  extra: Record<string, string> = {},
): Promise<CommandResult> =>
  run('bullswarm', args, { cwd, env: { ...env, ...extra }, timeoutMs: 5 * 60_000 });

beforeAll(async () => {
  prefix = dirs('bullswarm-global-');
  // What the README tells a user to run, with the @bullswarm scope served from the tarballs:
  // every other dependency (commander, better-sqlite3, zod…) comes from the npm registry.
  expectOk(
    await run(
      'npm',
      ['install', '--global', '--prefix', prefix, `@bullswarm/cli@${cli.version}`, ...npmFlags(registryUrl)],
      {
        cwd: prefix,
        timeoutMs: 20 * 60_000,
      },
    ),
  );
  env = cleanEnv({
    PATH: `${join(prefix, 'bin')}:${process.env.PATH}`,
    BULLSWARM_CACHE_DIR: join(prefix, 'code-cache'),
  });
});

describe('npm install --global @bullswarm/cli, from the packed tarballs', () => {
  it('installs the CLI and our packages as copies of the tarballs, nothing linked into the workspace', () => {
    const root = join(prefix, 'lib', 'node_modules', '@bullswarm', 'cli');
    expect(lstatSync(root).isSymbolicLink()).toBe(false);
    expect(realpathSync(join(prefix, 'bin', 'bullswarm')).startsWith(realpathSync(prefix))).toBe(true);
    const ours = readdirSync(join(root, 'node_modules', '@bullswarm')).sort();
    expect(ours).toEqual(
      packed
        .map((pkg) => pkg.name.replace('@bullswarm/', ''))
        .filter((name) => name !== 'cli')
        .sort(),
    );
    for (const name of ours) {
      const dir = join(root, 'node_modules', '@bullswarm', name);
      expect(lstatSync(dir).isSymbolicLink(), name).toBe(false);
      expect(realpathSync(dir).startsWith(realpathSync(REPO_ROOT)), name).toBe(false);
      const installed = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string };
      expect(installed.version).toBe(packed.find((pkg) => pkg.name === `@bullswarm/${name}`)!.version);
    }
    // One native build of better-sqlite3, shared by the CLI and @bullswarm/store.
    expect(
      existsSync(join(root, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node')),
    ).toBe(true);
  });

  it('bullswarm --version prints the packed version', async () => {
    const result = expectOk(await bullswarm(['--version'], prefix));
    expect(result.stdout).toBe(`${cli.version}\n`);
  });

  it('bullswarm demo routes, runs and cleans up on simulated pools', async () => {
    const result = expectOk(await bullswarm(['demo'], dirs('bullswarm-demo-cwd-')));
    expect(result.stdout).toContain('# the same task for real (the sim answers)');
    expect(result.stdout).toMatch(/sim: done: Explain the parser in src\/parse\.ts/);
    expect(result.stdout).toContain('The demo home above was temporary and is removed now');
  });

  it('runs an example workflow program (workflow goal) on the demo pools', async () => {
    const home = join(dirs('bullswarm-wf-'), 'home');
    expectOk(await bullswarm(['demo', '--home', home, '--keep'], prefix));
    const work = dirs('bullswarm-wf-work-');
    const program = join(REPO_ROOT, 'examples', 'workflows', 'docs-write-review.json');
    const result = expectOk(
      await bullswarm(['--home', home, 'workflow', 'goal', program, '--input', 'subject=the demo'], work),
    );
    const events = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; step?: string; status?: string; name?: string });
    expect(events[0]).toMatchObject({ type: 'run.started', name: 'docs-write-review' });
    expect(
      events.filter((event) => event.type === 'step.finished').map((event) => [event.step, event.status]),
    ).toEqual([
      ['write-docs', 'ok'],
      ['review-docs', 'ok'],
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'run.finished', status: 'finished' });
    // And its shell completion knows that home's pools and the run.
    const pools = expectOk(
      await bullswarm(['__complete', 'bash', '--home', home, 'pools', 'reserve', 'sim:m'], work),
    );
    expect(pools.stdout).toBe('sim:monthly\n:none\n');
  });
});

/**
 * A fake `acme-agent`: the made-up NDJSON CLI the connector template describes (it answers with
 * the prompt it read on stdin), and `usage --json`, the meter command the template names.
 */
const FAKE_AGENT = `#!/usr/bin/env node
const args = process.argv.slice(2);
if (args[0] === 'usage') {
  const resetsAt = new Date(Date.now() + 20 * 86400000).toISOString();
  process.stdout.write(JSON.stringify({ windows: [{ kind: 'monthly', usedPct: 12, resetsAt }] }) + '\\n');
  process.exit(0);
}
let prompt = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { prompt += chunk; });
process.stdin.on('end', () => {
  const model = args[args.indexOf('--model') + 1];
  const events = [
    { type: 'session', id: 's-1', model },
    { type: 'delta', text: 'acme answered: ' },
    { type: 'delta', text: prompt.trim() },
    { type: 'done', usage: { input: 3, output: 4 } },
  ];
  for (const event of events) process.stdout.write(JSON.stringify(event) + '\\n');
});
`;

describe('a connector package from bullswarm connectors init, outside the repository', () => {
  let pkg: string;

  beforeAll(async () => {
    pkg = join(dirs('bullswarm-connector-'), 'bullswarm-connector-acme');
    expectOk(await bullswarm(['connectors', 'init', pkg], prefix));
  });

  it('installs from the registry and the packed @bullswarm/connectors, builds, and passes its tests', async () => {
    const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    const connectors = packed.find((entry) => entry.name === '@bullswarm/connectors')!;
    expect(manifest.devDependencies['@bullswarm/connectors']).toBe(`^${connectors.version}`);
    expectOk(await run('npm', ['install', ...npmFlags(registryUrl)], { cwd: pkg, timeoutMs: 15 * 60_000 }));
    expect(
      realpathSync(join(pkg, 'node_modules', '@bullswarm', 'connectors')).startsWith(realpathSync(REPO_ROOT)),
    ).toBe(false);
    expectOk(await run('npm', ['run', 'typecheck'], { cwd: pkg }));
    expectOk(await run('npm', ['run', 'build'], { cwd: pkg }));
    expect(existsSync(join(pkg, 'dist', 'index.js'))).toBe(true);
    expect(existsSync(join(pkg, 'dist', 'index.d.ts'))).toBe(true);
    expectOk(await run('npm', ['test'], { cwd: pkg }));
    // Its own vitest report: every test passed, the conformance checks among them.
    const report = JSON.parse(readFileSync(join(pkg, 'test-results', 'vitest.json'), 'utf8')) as {
      numPassedTests: number;
      numFailedTests: number;
      testResults: { assertionResults: { title: string; status: string }[] }[];
    };
    expect(report.numFailedTests).toBe(0);
    const passed = report.testResults.flatMap((file) =>
      file.assertionResults.filter((test) => test.status === 'passed').map((test) => test.title),
    );
    expect(passed).toEqual(
      expect.arrayContaining([
        'manifest: a valid connector-v1',
        'package: loads as `bullswarm connectors add` loads it',
        'outcome: success sample 1 is ok',
        'outcome: usage-limit sample 1 is quota',
        'outcome: throttle sample 1 is throttle',
        'outcome: sign-in sample 1 is auth',
      ]),
    );
  });

  it('is added to a home and a task is routed through it to the agent CLI', async () => {
    const home = dirs('bullswarm-acme-home-');
    const bin = dirs('bullswarm-acme-bin-');
    const agent = join(bin, 'acme-agent');
    writeFileSync(agent, FAKE_AGENT);
    chmodSync(agent, 0o755);
    const withAgent = { PATH: `${bin}:${env.PATH}`, BULLSWARM_HOME: home };
    const elsewhere = dirs('bullswarm-acme-cwd-');
    const added = expectOk(await bullswarm(['connectors', 'add', pkg], elsewhere, withAgent));
    expect(added.stdout).toContain('added connector "acme" (Acme agent) from bullswarm-connector-acme');
    expectOk(await bullswarm(['pools', 'add', 'acme'], elsewhere, withAgent));
    const work = dirs('bullswarm-acme-work-');
    const result = expectOk(
      await bullswarm(
        ['run', '--lane', 'analyze', '--worker-pool', 'acme', 'Explain the parser'],
        work,
        withAgent,
      ),
    );
    expect(result.stdout).toContain('acme answered: Explain the parser');
    expect(result.stderr).toMatch(/→ \[acme\] pinned to acme/);
    const json = JSON.parse(
      expectOk(await bullswarm(['run', '--lane', 'analyze', '--json', 'Summarise it'], work, withAgent))
        .stdout,
    ) as { poolId: string; answer: string };
    expect(json).toMatchObject({ poolId: 'acme', answer: 'acme answered: Summarise it' });
  });
});
