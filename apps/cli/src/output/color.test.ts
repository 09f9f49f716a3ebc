import { describe, expect, it } from 'vitest';
import { createColors, shouldColor } from './color';

const tty = (env: Record<string, string>, isTTY = true) => ({ env, stdoutIsTTY: isTTY });

describe('shouldColor', () => {
  it.each([
    // [what, env, is a terminal, --no-color given, colour]
    ['a terminal', { TERM: 'xterm' }, true, false, true],
    ['a pipe', { TERM: 'xterm' }, false, false, false],
    ['TERM=dumb', { TERM: 'dumb' }, true, false, false],
    ['NO_COLOR=1 on a terminal', { NO_COLOR: '1' }, true, false, false],
    ['NO_COLOR empty (unset by convention)', { NO_COLOR: '' }, true, false, true],
    ['FORCE_COLOR=1 into a pipe', { FORCE_COLOR: '1' }, false, false, true],
    ['FORCE_COLOR=0 (any value forces)', { FORCE_COLOR: '0' }, false, false, true],
    ['FORCE_COLOR empty (unset by convention)', { FORCE_COLOR: '' }, false, false, false],
    ['FORCE_COLOR with TERM=dumb', { FORCE_COLOR: '1', TERM: 'dumb' }, false, false, true],
    ['FORCE_COLOR beats NO_COLOR', { FORCE_COLOR: '1', NO_COLOR: '1' }, false, false, true],
    ['--no-color beats FORCE_COLOR', { FORCE_COLOR: '1' }, true, true, false],
    ['--no-color on a terminal', {}, true, true, false],
  ] as const)('%s', (_what, env, isTTY, noColorFlag, expected) => {
    expect(shouldColor(tty(env, isTTY), !noColorFlag)).toBe(expected);
  });

  it('styles only when on', () => {
    expect(createColors(true).red('x')).toBe('\u001b[31mx\u001b[39m');
    expect(createColors(false).red('x')).toBe('x');
  });
});
