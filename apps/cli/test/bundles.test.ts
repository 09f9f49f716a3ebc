import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BUILTIN_MANIFESTS_FILE,
  type BuiltinManifestsFile,
  parseConnectorManifest,
} from '@bullswarm/connectors';
import { nowEnv, requireTmux, runTmuxTests, writeTestHome } from '@bullswarm/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { MODULE_WRAPPER } from '../src/launcher/load-bundle';
import { baseEnv, bullswarm, CLI_PATH, tempDirs } from './support/cli';

const DIST = dirname(CLI_PATH);
const NOW = Date.parse('2026-09-10T12:00:00Z');
const dirs = tempDirs();
afterEach(() => dirs.cleanup());

/** The workspace sources a bundle was built from (its source map), as repo-relative paths. */
function bundledSources(bundle: string): string[] {
  const map = JSON.parse(readFileSync(join(DIST, `${bundle}.map`), 'utf8')) as { sources: string[] };
  return map.sources.map((source) => source.replace(/^(\.\.\/)+/, ''));
}

function simHome(): string {
  const home = dirs.make();
  writeTestHome(home, {
    now: NOW,
    pools: [
      { connector: 'sim', account: 'a', windows: [{ kind: 'weekly', usedPct: 40, resetsInMin: 4000 }] },
      { connector: 'sim', account: 'b', windows: [{ kind: 'weekly', usedPct: 10, resetsInMin: 9000 }] },
    ],
  });
  return home;
}

describe('the two bundles', () => {
  const spawning = [
    /^packages\/workflow\/src\//,
    /^packages\/swarm\/src\//,
    /^packages\/dispatch\/src\/attempt\//,
    /^packages\/dispatch\/src\/dispatch\/dispatch-task\.ts$/,
    /^packages\/dispatch\/src\/probe\//,
  ];

  it('the core one holds no code that spawns agents; the full one does', () => {
    const core = bundledSources('bullswarm.cjs');
    const full = bundledSources('bullswarm-full.cjs');
    for (const pattern of spawning) {
      expect(core.filter((source) => pattern.test(source))).toEqual([]);
      expect(full.some((source) => pattern.test(source))).toBe(true);
    }
    // What pools runs on is in both.
    for (const source of [
      'packages/dispatch/src/routing.ts',
      'packages/store/src/index.ts',
      'src/commands/pools-command.ts',
    ]) {
      expect(core).toContain(source);
    }
  });

  it('are ASCII (the bin reads them as Latin-1) and start inside the module wrapper', () => {
    for (const bundle of ['bullswarm.cjs', 'bullswarm-full.cjs']) {
      const bytes = readFileSync(join(DIST, bundle));
      expect(bytes.every((byte) => byte < 0x80)).toBe(true);
      expect(bytes.subarray(0, MODULE_WRAPPER.head.length).toString()).toBe(MODULE_WRAPPER.head);
    }
  });

  it('the bin runs core commands from the core bundle and the others from the full one', async () => {
    const home = simHome();
    const env = {
      ...nowEnv(NOW),
      BULLSWARM_CACHE_DIR: join(dirs.make(), 'cache'),
      BULLSWARM_DEBUG_COMPILE_CACHE: '1',
    };
    const pools = await bullswarm(['pools', '--json'], { home, env });
    expect(pools.exitCode).toBe(0);
    expect(pools.stderr).toMatch(/^compile cache: miss .*\/bullswarm-bullswarm\.cjs-.*\.pools\.v8\n$/);
    expect((JSON.parse(pools.stdout) as { pools: unknown[] }).pools).toHaveLength(2);

    const dry = await bullswarm(['run', '--lane', 'analyze', '--dry-run', 'x'], { home, env });
    expect(dry.exitCode).toBe(0);
    expect(dry.stderr).toMatch(/^compile cache: miss .*\/bullswarm-bullswarm-full\.cjs-.*\.run\.v8\n/);
    expect(dry.stdout).toMatch(/^OK \[sim:a\]/);
  });

  it('ships builtin-manifests.json equal to what the zod schema parses from each shipped connector.json', () => {
    const providers = join(DIST, 'providers');
    const file = JSON.parse(
      readFileSync(join(providers, BUILTIN_MANIFESTS_FILE), 'utf8'),
    ) as BuiltinManifestsFile;
    const shipped = readdirSync(providers)
      .filter((id) => existsSync(join(providers, id, 'connector.json')))
      .map((id) => `providers/${id}/connector.json`)
      .sort();
    expect(file.manifests.map((entry) => entry.source)).toEqual(shipped);
    const repoProviders = fileURLToPath(new URL('../../../providers/', import.meta.url));
    for (const entry of file.manifests) {
      const text = readFileSync(join(DIST, entry.source), 'utf8');
      // The copy is the repo's manifest, byte for byte.
      expect(text).toBe(readFileSync(join(repoProviders, entry.source.slice('providers/'.length)), 'utf8'));
      expect(entry.manifest).toStrictEqual(parseConnectorManifest(JSON.parse(text), entry.source));
    }
  });
});

describe('a configured connector package', () => {
  it('loads through the bin’s import(), also when the bundle comes from the code cache', async () => {
    const home = dirs.make();
    writeTestHome(home, {
      now: NOW,
      pools: [{ connector: 'tmp', meter: { type: 'none' } }],
      config: { connectors: ['bullswarm-connector-tmp'] },
    });
    const project = dirs.make();
    writeFileSync(join(project, 'package.json'), '{"name":"project","private":true}');
    const pkg = join(project, 'node_modules', 'bullswarm-connector-tmp');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(
      join(pkg, 'package.json'),
      JSON.stringify({
        name: 'bullswarm-connector-tmp',
        type: 'module',
        exports: { '.': { default: './index.js' } },
      }),
    );
    // An ES module: it can only be import()ed.
    writeFileSync(
      join(pkg, 'index.js'),
      `export default {
  specificationVersion: 'connector-v1', connectorId: 'tmp', displayName: 'Tmp', providerFamily: 'tmp', credentialGroup: 'tmp',
  lanes: ['chore'], capabilities: [], pacingWindow: 'monthly', hasFiveHourWindow: false, cost: 2,
  modelProfiles: { low: [{ model: 'tmp-1' }] }, authSignatures: [], callerEnv: [], meter: { type: 'none' }, probe: false,
  accountEnv: () => ({}),
  buildInvocation: (r) => ({ command: 'tmp', args: [r.prompt], env: {}, cwd: r.cwd }),
  createOutputParser: () => ({ push() {}, end: () => ({ answer: '', events: { total: 0, ignored: 0, kinds: {} }, isError: false, notices: [], rateLimitEvents: [] }) }),
  classifyOutcome: () => ({ kind: 'ok', message: 'ok', evidence: 'tmp' }),
};
`,
    );
    const env = {
      ...nowEnv(NOW),
      BULLSWARM_CACHE_DIR: join(dirs.make(), 'cache'),
      BULLSWARM_DEBUG_COMPILE_CACHE: '1',
    };
    for (const cache of ['miss', 'hit']) {
      const result = await bullswarm(['pools', '--json'], { home, env, cwd: project });
      expect(result.stderr).toMatch(new RegExp(`^compile cache: ${cache} `));
      expect(result.exitCode).toBe(0);
      const [pool] = (
        JSON.parse(result.stdout) as { pools: { id: string; cost: number; problem: string | null }[] }
      ).pools;
      expect(pool).toMatchObject({ id: 'tmp', cost: 2, problem: null });
    }
  });
});

describe('standard output', () => {
  it('to a file: the whole document', () => {
    const home = simHome();
    const out = join(dirs.make(), 'pools.json');
    const result = spawnSync('sh', ['-c', `'${process.execPath}' '${CLI_PATH}' pools --json > '${out}'`], {
      env: { ...baseEnv(), ...nowEnv(NOW), BULLSWARM_HOME: home },
      encoding: 'utf8',
    });
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
    expect((JSON.parse(readFileSync(out, 'utf8')) as { pools: unknown[] }).pools).toHaveLength(2);
  });

  it('to a pipe whose reader is gone: exits 0 without a word', () => {
    const home = simHome();
    const script = `'${process.execPath}' '${CLI_PATH}' pools --json | true; echo "status \${PIPESTATUS[0]}" >&2`;
    const result = spawnSync('bash', ['-c', script], {
      env: { ...baseEnv(), ...nowEnv(NOW), BULLSWARM_HOME: home },
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('status 0\n');
  });

  // Skipped without tmux on PATH, unless BULLSWARM_REQUIRE_TMUX=1 (CI), which makes it fail instead.
  it.runIf(runTmuxTests())(
    'to a terminal (tmux): through the process stream, flushed before the exit',
    async () => {
      const TMUX = requireTmux();
      const home = simHome();
      const root = dirs.make();
      const script = join(root, 'pools.sh');
      writeFileSync(
        script,
        [
          `export BULLSWARM_HOME='${home}' BULLSWARM_NOW='${new Date(NOW).toISOString()}'`,
          `'${process.execPath}' '${CLI_PATH}' pools`,
          'echo "__DONE__ $?"',
          'sleep 600',
        ].join('\n'),
      );
      const socket = `bullswarm-cli-bundles-test-${process.pid}-${Date.now()}`;
      const tmux = (...args: string[]) => execFileSync(TMUX, ['-L', socket, ...args], { encoding: 'utf8' });
      tmux('new-session', '-d', '-x', '160', '-y', '20', '-s', 'pools', `sh ${script}`);
      try {
        let pane = '';
        for (let i = 0; i < 3000 && !pane.includes('__DONE__'); i++) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          pane = tmux('capture-pane', '-p', '-t', 'pools');
        }
        expect(pane).toContain('__DONE__ 0');
        expect(pane).toMatch(/^sim:a\b/m);
        expect(pane).toMatch(/^sim:b\b/m);
      } finally {
        tmux('kill-server');
      }
    },
  );
});
