import { describe, expect, it } from 'vitest';
import { SwarmInputError } from '../errors/swarm-input-error';
import { parseAddressList } from './agent-address';

describe('parseAddressList', () => {
  it('parses comma-separated addresses', async () => {
    expect(parseAddressList('deputy, lane-a', 'succession')).toEqual(['deputy', 'lane-a']);
    expect(parseAddressList(undefined, 'succession')).toEqual([]);
  });

  it.each([[''], [','], ['a,,b'], ['a,'], [' ']])(
    'refuses an empty address in %j, naming the flag',
    async (value) => {
      let error: unknown;
      try {
        parseAddressList(value, 'succession');
      } catch (caught) {
        error = caught;
      }
      expect(SwarmInputError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain(`succession ${JSON.stringify(value)} is not valid`);
      expect((error as Error).message).toContain('none of them empty');
    },
  );
});
