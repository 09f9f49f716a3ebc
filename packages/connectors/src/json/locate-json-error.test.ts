import { describe, expect, it } from 'vitest';
import { locateJsonError } from './locate-json-error';

describe('locateJsonError', () => {
  it.each([
    ['{\n  "version": 1,\n  "pools": [,]\n}', 3, 13, /expected a value, found ","/],
    ['{"a": 1,}', 1, 9, /double-quoted field name/],
    ['{"a" 1}', 1, 6, /expected ":"/],
    ['[1 2]', 1, 4, /expected "," or "]"/],
    ['{"a": "x\ny"}', 1, 9, /control character/],
    ['{"a": tru}', 1, 7, /expected a value/],
    ['{"a": 1} x', 1, 10, /after the end/],
    ['{"a": [1, 2', 1, 12, /^expected "," or "\]", found the end of the file$/],
    ['{"a": [1, ', 1, 11, /^expected a value, found the end of the file$/],
    ['', 1, 1, /expected a value/],
  ])('%j fails at line %i column %i', (text, line, column, problem) => {
    const location = locateJsonError(text);
    expect(location).toMatchObject({ line, column });
    expect(location?.problem).toMatch(problem);
  });

  it.each(['{}', '[]', '{"a": [1, -2.5e3, true, false, null, "\\u00e9\\n"]}', '\ufeff{"bom": 1}'])(
    'finds nothing wrong in %j',
    (text) => {
      expect(locateJsonError(text)).toBeUndefined();
    },
  );
});
