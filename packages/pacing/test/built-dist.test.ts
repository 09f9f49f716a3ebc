/**
 * Proves the package works from its built dist in a plain Node process (no vitest, no TS sources,
 * no `@bullswarm/source` condition). Builds with tsup first when dist is missing or older than a
 * source file (see test/global-setup.ts).
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { distEntry, packageDir } from './ensure-built';

describe('built dist', () => {
  it('is importable by a plain Node script that calls chooseRoute', () => {
    const now = Date.UTC(2026, 10, 27, 12, 0, 0);
    const minute = 60_000;
    const pool = (id: string, usedPct: number, minutesLeft: number) => ({
      id,
      connectorId: id,
      providerFamily: id,
      credentialGroup: id,
      enabled: true,
      lanes: ['analyze', 'build', 'chore'],
      capabilities: [],
      models: { medium: { model: `${id}-model`, free: false } },
      pacingWindow: 'weekly',
      hasFiveHourWindow: false,
      meter: {
        status: 'live',
        windows: [{ kind: 'weekly', usedPct, windowMinutes: 10_080, resetsAt: now + minutesLeft * minute }],
      },
      spendRates: {},
      inflight: [],
      runs: [],
    });
    const input = {
      // codex: 30% used with 50% of its week gone (+20); grok: 45% used, 50% gone (+5).
      pools: [pool('grok', 45, 5040), pool('codex', 30, 5040)],
      task: { lane: 'analyze', tier: 'medium', kind: 'single-run' },
      now,
    };
    const script = [
      `const m = await import(${JSON.stringify(distEntry)});`,
      `const d = m.chooseRoute(${JSON.stringify(input)});`,
      `const error = new m.InvalidInputError({ field: 'now', expected: 'a number', received: null });`,
      'const internal = await import("@bullswarm/pacing/internal");',
      'console.log(JSON.stringify({ poolId: d.poolId, reason: d.reason, forecastLine: d.forecastLine,',
      '  isBullswarmError: m.BullswarmError.isInstance(error), free: internal.isFreeModelName("openrouter/qwen:free") }));',
    ].join('\n');
    const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: packageDir,
      encoding: 'utf8',
    });
    expect(JSON.parse(stdout)).toEqual({
      poolId: 'codex',
      reason: 'most-behind capable pool (surplus 20)',
      forecastLine: 'forecast: inflight=0 5h ?%->?% expected=5.67m rate=unmeasured basis=bootstrap',
      isBullswarmError: true,
      free: true,
    });
  });

  it('is loadable by CommonJS require, public entry and internal subpath alike', () => {
    const script = [
      'const m = require("@bullswarm/pacing");',
      'const internal = require("@bullswarm/pacing/internal");',
      'console.log(JSON.stringify({ chooseRoute: typeof m.chooseRoute, stall: m.stallThresholdMinutes({ runs: [], free: false, poolId: "p", tier: "low" }).minutes,',
      '  formatFieldPath: typeof internal.formatFieldPath, formatter: "formatPinSource" in m }));',
    ].join('\n');
    const stdout = execFileSync(process.execPath, ['-e', script], { cwd: packageDir, encoding: 'utf8' });
    expect(JSON.parse(stdout)).toMatchObject({
      chooseRoute: 'function',
      formatFieldPath: 'function',
      formatter: false,
      stall: 60,
    });
  });
});
