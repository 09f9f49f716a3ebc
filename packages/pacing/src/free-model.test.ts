import { describe, expect, it } from 'vitest';
import { isFreeModelName, isFreeTierModel } from './free-model';

describe('isFreeModelName', () => {
  it.each([
    ['openrouter/qwen:free', true],
    ['opencode/mimo-v2.6-flash-free', true],
    ['free', true],
    ['free/model', true],
    ['vendor/free_tier', true],
    ['model.free.v2', true],
    ['freedom', false],
    ['carefree', false],
    ['opencode/freebie', false],
    ['openrouter/qwen:FREE', false],
    ['gpt-5', false],
    ['', false],
    [undefined, false],
  ])('%s → %s', (model, expected) => {
    expect(isFreeModelName(model)).toBe(expected);
  });
});

describe('isFreeTierModel', () => {
  it.each([
    [{ model: 'opencode/union-alpha', free: true }, true],
    [{ free: true }, true],
    [{ model: 'openrouter/qwen:free', free: false }, true],
    [{ model: 'gpt-5', free: false }, false],
    [null, false],
    [undefined, false],
  ])('%j → %s', (tierModel, expected) => {
    expect(isFreeTierModel(tierModel)).toBe(expected);
  });
});
