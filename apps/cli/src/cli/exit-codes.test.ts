import { BullswarmError } from '@bullswarm/pacing';
import { ConfigFileError, UnknownPoolError } from '@bullswarm/store';
import { SwarmInputError } from '@bullswarm/swarm';
import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { CliExit, CliUsageError } from './cli-errors';
import { reportError } from './exit-codes';

describe('reportError', () => {
  it.each<[string, unknown, number, string]>([
    ['a usage error', new CliUsageError({ message: '--lane is required' }), 2, 'error: --lane is required'],
    [
      'an unknown pool',
      new UnknownPoolError({ ref: 'x', knownPools: [{ id: 'a' }] }),
      2,
      'error: unknown pool "x": known pools: a',
    ],
    [
      'an invalid config file',
      new ConfigFileError({
        filePath: '/h/state.json',
        kind: 'invalid-schema',
        fieldPath: 'pools[0]',
        problem: 'bad',
        recovery: 'fix it',
      }),
      2,
      'error: /h/state.json: pools[0]: bad. fix it',
    ],
    [
      'a commander parse error',
      new CommanderError(1, 'commander.unknownOption', "error: unknown option '--x'"),
      2,
      '',
    ],
    ['help', new CommanderError(0, 'commander.helpDisplayed', '(outputHelp)'), 0, ''],
    ['a missing subcommand', new CommanderError(1, 'commander.help', '(outputHelp)'), 2, ''],
    ['an exit already explained', new CliExit(1), 1, ''],
    ['another bullswarm error', new BullswarmError({ message: 'store busy' }), 1, 'error: store busy'],
    [
      'any error whose fault is the input (the exit code comes from the field, not a list of classes)',
      new BullswarmError({ name: 'SomeNewInputError', message: 'bad value', fault: 'input' }),
      2,
      'error: bad value',
    ],
    [
      'a swarm input error',
      new SwarmInputError({ field: '--as', expected: 'an address', received: 'a b' }),
      2,
      'error: --as "a b" is not valid: expected an address',
    ],
    ['anything else', new TypeError('x is undefined'), 1, 'error: x is undefined'],
  ])('%s', (_label, error, exitCode, message) => {
    const report = reportError(error);
    expect(report.exitCode).toBe(exitCode);
    expect(report.message).toBe(message);
  });

  it('marks only non-bullswarm errors as unexpected', () => {
    expect(reportError(new TypeError('boom')).unexpected).toBe(true);
    expect(reportError(new BullswarmError({ message: 'x' })).unexpected).toBe(false);
  });
});
