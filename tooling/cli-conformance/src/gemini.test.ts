import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { describeCliConformance } from './conformance';
import { CAPTURED_ROOT } from './fixtures';
import { PINNED_CLIS } from './pinned-clis';
import { runCli } from './run-bullswarm';

const OVERRIDE = 'Approval mode overridden to "default" because the current folder is not trusted.';

describeCliConformance(PINNED_CLIS.gemini!, {
  signInWhenEmpty: 'signed-out',
  more: (context) => {
    it('keeps --approval-mode auto_edit in an untrusted folder only with --skip-trust (bullswarm passes it)', async () => {
      const installed = await context.installed();
      const sandbox = context.sandbox();
      const base = ['--approval-mode', 'auto_edit', '-p', 'Reply PONG.', '-o', 'stream-json'];
      const without = await runCli(sandbox, installed.binPath, base, 120_000);
      expect(without.output).toContain(OVERRIDE);
      const withFlag = await runCli(sandbox, installed.binPath, ['--skip-trust', ...base], 120_000);
      expect(withFlag.output).not.toContain(OVERRIDE);
      // …and the run through bullswarm (the previous check) did not see the override either.
      const stderr = readFileSync(`${CAPTURED_ROOT}gemini@${context.cli.version}/run.stderr`, 'utf8');
      expect(stderr).not.toContain(OVERRIDE);
    });
  },
});
