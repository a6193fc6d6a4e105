import { describe, expect, it } from 'vitest';
import { restoreExactIntegers } from './proxy.js';

describe('restoreExactIntegers', () => {
  const exact = [2n ** 53n + 1n];

  it('puts back an integer JSON.parse rounded from a value a provider state handed out', () => {
    const rounded = JSON.stringify(JSON.parse('{"name":"Rex","categoryId":9007199254740993}'));
    expect(rounded).toBe('{"name":"Rex","categoryId":9007199254740992}');
    expect(restoreExactIntegers(rounded, exact)).toBe('{"name":"Rex","categoryId":9007199254740993}');
  });

  it('leaves a body alone when no state handed out a big value, or nothing matches, or it is not JSON', () => {
    const body = '{"categoryId": 9007199254740992}';
    expect(restoreExactIntegers(body, [])).toBe(body);
    expect(restoreExactIntegers('{"categoryId": 3}', exact)).toBe('{"categoryId": 3}');
    expect(restoreExactIntegers('not json', exact)).toBe('not json');
  });
});
