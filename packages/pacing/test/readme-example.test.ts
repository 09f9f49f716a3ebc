/** Runs the README's example, as written, against the built package with plain Node. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageDir } from './ensure-built';

describe('README example', () => {
  it('prints what the README says it prints', () => {
    const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Example'));
    const code = /```js\n([\s\S]*?)```/.exec(section)?.[1];
    const printed = /prints\n\n```text\n([\s\S]*?)```/.exec(section)?.[1];
    expect(code).toContain("from '@bullswarm/pacing'");
    // Run from the package directory so `@bullswarm/pacing` resolves to its own built dist
    // (package self-reference through "exports").
    const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', code!], {
      cwd: packageDir,
      encoding: 'utf8',
    });
    expect(stdout).toBe(printed);
  });
});
