import { existsSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runDrill } from './run-drill';

const drillTemps = () => readdirSync(tmpdir()).filter((name) => name.startsWith('bullswarm-drill-'));

// A drill without --dir leaves nothing behind (it used to leave a 1.1 MB temp folder per run).
describe('the drill’s own temp directory', () => {
  it('is removed once the drill passes; keep: true keeps it (the report names it)', async () => {
    const before = drillTemps();
    const report = await runDrill({ env: { PATH: process.env.PATH } });
    expect(report.ok).toBe(true);
    expect(existsSync(report.dir)).toBe(false);
    expect(drillTemps()).toEqual(before);

    const kept = await runDrill({ env: { PATH: process.env.PATH }, keep: true });
    onTestFinished(() => rmSync(kept.dir, { recursive: true, force: true }));
    expect(existsSync(kept.evidencePath)).toBe(true);
    expect(drillTemps()).toHaveLength(before.length + 1);
  });
});
