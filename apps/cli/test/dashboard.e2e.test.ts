/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '@bullswarm/store';
import {
  CHROMIUM_FLAGS,
  nowEnv,
  requireChromium,
  runChromiumTests,
  writeTestHome,
} from '@bullswarm/test-support';
import type { ResultPromise } from 'execa';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bullswarm, startBullswarm } from './support/cli';
import { createPlanRepo } from './support/plan-repo';

// End to end: the built `bullswarm dashboard` against a sim home, driven by Debian's headless
// Chromium through playwright-core. Screenshots go to test-results/dashboard/ (the key ones are
// copied to docs/images/ by hand when the pages change).

const NOW = Date.parse('2026-11-28T12:00:00Z');
const MIN = 60_000;
const SHOTS = new URL('../test-results/dashboard/', import.meta.url).pathname;
/** Bound of every wait for the page (a live update must arrive well within it). */
const PAGE_WAIT_MS = 20_000;

if (!runChromiumTests()) {
  console.warn(
    'dashboard browser tests skipped: /usr/bin/chromium is missing (apt-get install chromium; CI sets BULLSWARM_REQUIRE_CHROMIUM=1 and fails instead)',
  );
}

describe.runIf(runChromiumTests())('bullswarm dashboard in a real browser', () => {
  let root: string;
  let home: string;
  let work: string;
  let env: Record<string, string>;
  let server: ResultPromise | undefined;
  let url = '';
  let base = '';
  let context: BrowserContext | undefined;
  let userDataDir = '';
  let page: Page;
  const consoleErrors: string[] = [];
  let workflowRunId = '';

  const run = (args: string[]) => bullswarm(args, { home, env, cwd: work });

  async function shot(name: string): Promise<void> {
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  }

  /** Navigates by the page's own links (hash routes) and waits until the page has drawn. */
  async function open(hash: string): Promise<void> {
    const before = await page.evaluate(() => document.getElementById('main')?.dataset.rendered ?? '0');
    await page.evaluate((h) => {
      location.hash = h;
    }, hash);
    await page.waitForFunction(
      (b) => {
        const main = document.getElementById('main');
        return main !== null && main.dataset.rendered !== b && main.getAttribute('aria-busy') === 'false';
      },
      before,
      { timeout: PAGE_WAIT_MS },
    );
  }

  beforeAll(async () => {
    const executablePath = requireChromium();
    root = mkdtempSync(join(tmpdir(), 'bullswarm-dashboard-e2e-'));
    home = join(root, 'home');
    work = join(root, 'work');
    mkdirSync(work, { recursive: true });
    mkdirSync(SHOTS, { recursive: true });
    writeTestHome(home, {
      now: NOW,
      pools: [
        {
          account: 'behind',
          label: 'team-behind',
          windows: [
            { kind: 'five_hour', usedPct: 12, resetsInMin: 180 },
            { kind: 'weekly', usedPct: 20, resetsInMin: 3 * 1440 },
          ],
        },
        {
          account: 'ahead',
          label: 'team-ahead',
          windows: [
            { kind: 'five_hour', usedPct: 80, resetsInMin: 60 },
            { kind: 'weekly', usedPct: 71, resetsInMin: 4 * 1440 },
          ],
        },
        {
          account: 'gated',
          windows: [
            { kind: 'five_hour', usedPct: 100, resetsInMin: 40 },
            { kind: 'weekly', usedPct: 40, resetsInMin: 2 * 1440 },
          ],
        },
        {
          account: 'flaky',
          label: 'flaky',
          windows: [{ kind: 'weekly', usedPct: 5, resetsInMin: 5 * 1440 }],
          // The second invocation crashes, every later one is ok (scenario.json sequence).
          scenario: { sequence: ['ok', 'crash'], default: 'ok' },
        },
      ],
    });
    env = { ...nowEnv(NOW), BULLSWARM_SIM_LOG: join(root, 'sim.log') };

    // The meter log of the last days (what the pool charts draw), as earlier reads retained it.
    const store = openStore({ dbPath: join(home, 'bullswarm.db') });
    const week = 7 * 1440 * MIN;
    const behindReset = NOW + 3 * 1440 * MIN;
    store.meters.appendReadings(
      [0, 1, 2, 3, 4].map((day) => ({
        poolId: 'sim:behind',
        window: 'weekly' as const,
        usedPct: 4 * day,
        resetsAt: behindReset,
        windowMinutes: week / MIN,
        readAt: behindReset - week + day * 24 * 60 * MIN,
        source: 'file',
      })),
    );
    store.close();

    // A recorded run, and a workflow whose fan-out has one failed item.
    expect(
      (await run(['run', '--lane', 'analyze', '--worker-pool', 'team-behind', 'Explain the parser']))
        .exitCode,
    ).toBe(0);
    const program = join(root, 'review.json');
    writeFileSync(
      program,
      JSON.stringify({
        schemaVersion: 'bullswarm.workflow.program.v3',
        name: 'review-modules',
        settings: { retryAttempts: 0, concurrency: 1 },
        steps: [
          {
            id: 'review',
            forEach: { items: ['parser', 'lexer', 'docs'] },
            prompt: 'Review the {{item}} module',
            route: { pools: { use: ['sim:flaky'] } },
          },
          { id: 'summary', dependsOn: ['review'], prompt: 'Summarise the reviews' },
        ],
      }),
    );
    const goal = await run(['workflow', 'goal', program, '--json']);
    expect(goal.exitCode).toBe(1);
    workflowRunId = JSON.parse(goal.stdout).runId;

    // Swarm records: a plan in a repository, its lead handed over (epoch 2), a lease, a notice and
    // an escalation, as the swarm commands write them.
    const repo = join(root, 'repo');
    createPlanRepo(repo, {
      schema: 'bullswarm-plan/v1',
      id: 'p1',
      contract: { goal: 'ship the parser' },
      tasks: [{ id: 'cli' }, { id: 'docs', dependsOn: ['cli'] }],
    });
    const swarm = async (args: string[]) => {
      const result = await bullswarm(args, { home, env, cwd: repo });
      expect(result, args.join(' ')).toMatchObject({ exitCode: 0 });
    };
    await swarm([
      'lead',
      'claim',
      '--plan',
      'p1',
      '--lanes',
      'lane-a,lane-b',
      '--succession',
      'deputy',
      '--as',
      'boss',
    ]);
    await swarm(['lead', 'handover', 'deputy', '--plan', 'p1', '--as', 'boss']);
    await swarm(['agent', 'register', 'deputy', '--pool', 'team-behind']);
    await swarm(['lease', 'flaky', '--to', 'lane-a', '--owner', 'deputy']);
    await swarm(['notify', 'lead', '--plan', 'p1', '--as', 'lane-a', 'cli done capacity=ok 95% @flaky']);
    await swarm([
      'escalate',
      '--class',
      'C1',
      '--plan',
      'p1',
      '--task',
      'docs',
      '--as',
      'lane-b',
      'production deploy needed',
    ]);

    server = startBullswarm(['dashboard', '--port', '0'], { home, env, cwd: work });
    url = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(
        () => reject(new Error(`no URL from bullswarm dashboard: ${out}`)),
        PAGE_WAIT_MS,
      );
      server!.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /bullswarm dashboard: (http:\/\/\S+)/.exec(out);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
    });
    base = url.slice(0, url.indexOf('/?token='));

    userDataDir = mkdtempSync(join(tmpdir(), 'bullswarm-chromium-'));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath,
      headless: true,
      args: [...CHROMIUM_FLAGS],
      viewport: { width: 1280, height: 900 },
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    await page.goto(url);
    await page.waitForFunction(
      () => document.getElementById('main')?.getAttribute('aria-busy') === 'false',
      null,
      {
        timeout: PAGE_WAIT_MS,
      },
    );
  });

  afterAll(async () => {
    await context?.close();
    if (server !== undefined) {
      server.kill('SIGTERM');
      await server.catch(() => undefined);
    }
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('prints the URL with its token, and the page drops the token from the address bar', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}$/);
    expect(page.url()).not.toContain('token=');
  });

  it('refuses a request without the token (a fresh browser context has no cookie)', async () => {
    const other = await chromium.launch({
      executablePath: requireChromium(),
      headless: true,
      args: [...CHROMIUM_FLAGS],
    });
    try {
      const stranger = await other.newPage();
      const response = await stranger.goto(`${base}/api/pools`);
      expect(response?.status()).toBe(401);
      expect(await stranger.textContent('body')).toMatch(/no valid token/);
    } finally {
      await other.close();
    }
  });

  it('Pools shows each pool by label with its state words, bars, surplus, forecast, countdowns and chart', async () => {
    await open('#/pools');
    const behind = page.locator('section.pool[data-pool="team-behind"]');
    await expect(behind.locator('h3').textContent()).resolves.toBe('team-behind');
    expect(await behind.locator('.state').allTextContents()).toEqual(['READY']);
    expect(await behind.textContent()).toMatch(/Surplus\+37\.1 pts \(behind pace/);
    expect(await behind.textContent()).toMatch(
      /Forecast35%? used at the weekly reset|Forecast\d+(\.\d)?% used at the weekly reset/,
    );
    expect(await behind.locator('.countdown').first().textContent()).toMatch(/^resets in /);
    expect(await behind.locator('.bar[role="img"]').first().getAttribute('aria-label')).toMatch(
      /five_hour: 12% used/,
    );
    expect(await behind.locator('.chart canvas').count()).toBeGreaterThan(0);
    const gated = page.locator('section.pool[data-pool="sim:gated"]');
    expect((await gated.locator('.state').allTextContents())[0]).toBe('BURST-GATED');
    const ahead = page.locator('section.pool[data-pool="team-ahead"]');
    expect(await ahead.locator('.state').allTextContents()).toContain('NEAR-5H-LIMIT');
    // Labels on the page, never the ids of labelled pools.
    expect(await page.locator('main').textContent()).not.toContain('sim:behind');
    await shot('pools');
  });

  it('Why this pool? shows the dry-run decision with every candidate row and the reason line', async () => {
    await open('#/why?lane=analyze&effort=medium');
    expect(await page.locator('.decision').textContent()).toMatch(/OK \[\S+\] /);
    const candidates = await page.locator('table[aria-label="Candidates"] tbody tr').count();
    expect(candidates).toBeGreaterThanOrEqual(2);
    expect(await page.locator('table[aria-label="Pools left out"]').textContent()).toMatch(
      /sim:gated.*at its 5-hour limit/,
    );
    // The form works from the keyboard: pick another effort and submit with Enter.
    await page.selectOption('#why-effort', 'low');
    await page.focus('#why-go');
    const before = await page.evaluate(() => document.getElementById('main')?.dataset.rendered);
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      (b) => location.hash.includes('effort=low') && document.getElementById('main')?.dataset.rendered !== b,
      before,
      { timeout: PAGE_WAIT_MS },
    );
    expect(await page.locator('.decision').textContent()).toMatch(/OK \[\S+\] /);
    await shot('why');
  });

  it('Runs lists the run, one run shows its attempts and transcript, and a new run appears live', async () => {
    await open('#/runs');
    const rows = page.locator('table[aria-label="Recent runs"] tbody tr[data-key]');
    expect(await rows.count()).toBe(1);
    expect(await rows.first().textContent()).toMatch(/team-behind.*analyze · medium.*OK/);
    await page.evaluate(() => {
      (window as unknown as { marker: number }).marker = 42;
    });
    // A run finishes while the page is open: its row shows without a reload.
    expect(
      (await run(['run', '--lane', 'chore', '--worker-pool', 'team-ahead', 'Tidy the changelog'])).exitCode,
    ).toBe(0);
    // The finished run's row (the page may first show it running, then its verdict).
    await page.waitForFunction(
      () => {
        const rows = [...document.querySelectorAll('table[aria-label="Recent runs"] tbody tr[data-key]')];
        return rows.length === 2 && rows.some((row) => /team-ahead[\s\S]*OK/.test(row.textContent ?? ''));
      },
      null,
      { timeout: PAGE_WAIT_MS },
    );
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
    // Both runs started at the same (fixed) instant: find the new one by its pool.
    const fresh = rows.filter({ hasText: 'team-ahead' });
    expect(await fresh.textContent()).toMatch(/team-ahead.*chore · low.*OK/s);
    await shot('runs');
    await fresh.locator('a').click();
    await page.waitForFunction(() => document.getElementById('main')?.dataset.page === 'run', null, {
      timeout: PAGE_WAIT_MS,
    });
    expect(await page.locator('table[aria-label="Attempts"] tbody tr').count()).toBe(1);
    expect(await page.locator('pre').first().textContent()).toContain('Tidy the changelog');
    await shot('run');
  });

  it('Workflows shows the fan-out items with their verdicts, and the resume button resumes the run', async () => {
    await open('#/workflows');
    expect(await page.locator(`tr[data-key="${workflowRunId}"]`).textContent()).toMatch(/review-modules/);
    await open(`#/workflows/${workflowRunId}`);
    const items = page.locator('.step[data-step="review"] li');
    expect(await items.count()).toBe(3);
    const verdicts = await items.evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.status));
    expect([...verdicts].sort()).toEqual(['failed', 'ok', 'ok']);
    expect(await page.locator('.step[data-step="summary"] .state').textContent()).toBe('BLOCKED');
    await shot('workflow-before-resume');
    await page.focus('#resume');
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('.step[data-step="review"] li')].every(
          (el) => (el as HTMLElement).dataset.status === 'ok',
        ) && document.querySelector('.step[data-step="summary"] .state')?.textContent === 'OK',
      null,
      { timeout: PAGE_WAIT_MS * 3 },
    );
    await shot('workflow');
    const shown = await run(['workflow', 'show', workflowRunId, '--json']);
    expect(JSON.parse(shown.stdout)).toMatchObject({ outcome: 'ok' });
    // The restart button of a step runs it again (a POST carrying the token).
    await page.waitForFunction(
      () =>
        (document.querySelector('[data-restart="summary"]') as HTMLButtonElement | null)?.disabled === false,
      null,
      { timeout: PAGE_WAIT_MS },
    );
    await page.click('[data-restart="summary"]');
    const restarted = async () => {
      const report = JSON.parse((await run(['workflow', 'show', workflowRunId, '--json'])).stdout);
      return report.steps.find((step: { id: string }) => step.id === 'summary');
    };
    const deadline = Date.now() + PAGE_WAIT_MS * 3;
    let summary = await restarted();
    // Attempt 2 is counted when it starts: wait for it to end too (bounded by the deadline).
    while ((summary.attempts < 2 || summary.status === 'running') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      summary = await restarted();
    }
    expect(summary).toMatchObject({ status: 'ok', attempts: 2 });
  });

  it('Swarm shows plans, leases, capacity verdicts and notices', async () => {
    await open('#/swarm');
    const capacity = page.locator('table[aria-label="Capacity verdicts"] tbody tr');
    expect(await capacity.count()).toBe(4);
    expect(await page.locator('table[aria-label="Capacity verdicts"]').textContent()).toMatch(
      /team-behind.*OK/,
    );
    const plan = page.locator('section[aria-label^="plan "]');
    expect(await plan.count()).toBe(1);
    const planText = (await plan.textContent()) ?? '';
    expect(planText).toMatch(/Leaddeputy · epoch 2/);
    expect(planText).toMatch(/Succession.*lane-a \(lane\)/);
    expect(planText).toMatch(/Open escalations1/);
    expect(await plan.locator('table[aria-label^="tasks of"] tbody tr').allTextContents()).toEqual([
      expect.stringMatching(/^cliREADY/),
      expect.stringMatching(/^docsBLOCKED.*escalation #1/),
    ]);
    expect(await plan.locator('table[aria-label^="escalations of"]').textContent()).toMatch(
      /C1docsOPENproduction deploy needed/,
    );
    expect(await page.locator('table[aria-label="Leases"] tbody').textContent()).toMatch(
      /^flakylane-adeputy/,
    );
    expect(await page.locator('table[aria-label="Notices"] tbody').textContent()).toMatch(
      /cli done capacity=ok/,
    );
    expect(await page.locator('table[aria-label="Agents"] tbody').textContent()).toMatch(/deputy/);
    await shot('swarm');
  });

  it('keyboard: Tab reaches the navigation links and Enter follows them', async () => {
    await page.keyboard.press('Home');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    for (let i = 0; i < 10; i += 1) {
      await page.keyboard.press('Tab');
      if ((await page.evaluate(() => document.activeElement?.textContent)) === 'Runs') break;
    }
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Runs');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.getElementById('main')?.dataset.page === 'runs', null, {
      timeout: PAGE_WAIT_MS,
    });
  });

  it('the browser console shows no errors', () => {
    expect(consoleErrors).toEqual([]);
  });
});

describe('bullswarm dashboard (no browser)', () => {
  it('exits 2 naming --port for a bad port, and prints help with examples', async () => {
    const bad = await bullswarm(['dashboard', '--port', 'http']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/--port/);
    expect((await bullswarm(['dashboard', '--port', '70000'])).exitCode).toBe(2);
    const help = await bullswarm(['dashboard', '--help']);
    expect(help.stdout).toMatch(/bullswarm dashboard --port 0 --open/);
  });

  it('warns on a non-loopback --host, and stops on SIGTERM sent the moment the address is printed (exit 0, 8 times)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'bullswarm-dashboard-host-'));
    try {
      writeTestHome(home, {
        now: NOW,
        pools: [{ account: 'a', windows: [{ kind: 'weekly', usedPct: 10 }] }],
      });
      // Signalled at once, a dashboard used to die by SIGTERM most of the time: its listener was
      // installed after the address was printed, and removed inside the handler before execa's
      // signal-exit hook ran (which then re-raised the signal).
      for (let round = 0; round < 8; round++) {
        const server = startBullswarm(['dashboard', '--host', '0.0.0.0', '--port', '0'], {
          home,
          env: nowEnv(NOW),
        });
        let out = '';
        let err = '';
        let signalled = false;
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no URL: ${out} ${err}`)), PAGE_WAIT_MS);
          server.stderr!.on('data', (chunk: Buffer) => {
            err += chunk.toString();
          });
          server.stdout!.on('data', (chunk: Buffer) => {
            out += chunk.toString();
            // Once: the next chunk matches too, and a second signal after the listeners are gone
            // (the dashboard closed, the process about to exit) would end it by the signal.
            if (!signalled && /bullswarm dashboard: http:\/\/0\.0\.0\.0:\d+\/\?token=/.test(out)) {
              signalled = true;
              clearTimeout(timer);
              server.kill('SIGTERM');
              resolve();
            }
          });
        });
        const result = await server;
        expect([round, result.exitCode, result.signal]).toEqual([round, 0, undefined]);
        expect(err).toMatch(/warning: --host 0\.0\.0\.0 is not a loopback address/);
      }
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
