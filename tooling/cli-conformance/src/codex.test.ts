import { execa } from 'execa';
import { expect, it } from 'vitest';
import { describeCliConformance } from './conformance';
import { readManifest } from './manifest-flags';
import { PINNED_CLIS } from './pinned-clis';

/** How long one model check may read the CLI's output before it is stopped. */
const MODEL_CHECK_MS = 30_000;

describeCliConformance(PINNED_CLIS.codex!, {
  signInWhenEmpty: 'signed-out',
  more: (context) => {
    const models = [
      ...new Set(
        Object.values(readManifest('codex').modelProfiles).flatMap((profiles) =>
          profiles.map((p) => p.model),
        ),
      ),
    ];
    it(`knows every model of the connector (${models.join(', ')}): no "Model metadata for … not found"`, async () => {
      const installed = await context.installed();
      const sandbox = context.sandbox();
      const unknown: string[] = [];
      for (const model of models) {
        // Its first lines tell: the metadata warning comes before `turn.started`.
        const child = execa(
          installed.binPath,
          ['exec', '--json', '--skip-git-repo-check', '-m', model, '-C', sandbox.work, '--', 'Reply PONG.'],
          {
            cwd: sandbox.work,
            env: sandbox.env,
            extendEnv: false,
            stdin: 'ignore',
            reject: false,
            detached: true,
          },
        );
        let seen = '';
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, MODEL_CHECK_MS);
          child.stdout?.on('data', (chunk: Buffer) => {
            seen += chunk.toString('utf8');
            if (seen.includes('"turn.started"')) {
              clearTimeout(timer);
              resolve();
            }
          });
          child.on('exit', () => {
            clearTimeout(timer);
            resolve();
          });
        });
        try {
          if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
        await child;
        expect(seen, `codex -m ${model} printed nothing within ${MODEL_CHECK_MS / 1000}s`).toContain(
          '"thread.started"',
        );
        if (seen.includes(`Model metadata for \`${model}\` not found`)) unknown.push(model);
      }
      expect(unknown).toEqual([]);
    });
  },
});
