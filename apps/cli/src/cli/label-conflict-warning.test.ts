import { describe, expect, it } from 'vitest';
import { labelConflictWarning } from './label-conflict-warning';

describe('labelConflictWarning', () => {
  it('names the file, the field, that the label is ignored, and the commands that repair it', () => {
    expect(
      labelConflictWarning(
        { labelsPath: '/h/pool-labels.json' },
        { poolId: 'sim:behind', label: 'sim:ahead' },
      ),
    ).toBe(
      '/h/pool-labels.json: labels.sim:behind: label "sim:ahead" equals the id of pool sim:ahead, ' +
        "so it is ignored (sim:behind shows as its id; a label is never another pool's id): " +
        'run `bullswarm pools label sim:behind --clear` or `bullswarm pools label sim:behind <other-label>`',
    );
  });
});
