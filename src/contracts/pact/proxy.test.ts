import { describe, expect, it } from 'vitest';
import { canonicalJsonContentType, restoreExactIntegers } from './proxy.js';

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

describe('canonicalJsonContentType', () => {
  it('writes a JSON media type in any case or spacing in its lower-case form, for the Pact Verifier', () => {
    expect(canonicalJsonContentType('Application/JSON;charset=UTF-8')).toBe('application/json;charset=utf-8');
    expect(canonicalJsonContentType('application/json ; Charset = "utf-8"')).toBe('application/json;charset=utf-8');
    expect(canonicalJsonContentType('APPLICATION/PROBLEM+JSON')).toBe('application/problem+json');
  });

  it('leaves what is not JSON in UTF-8 as it came, for the Pact Verifier to reject', () => {
    expect(canonicalJsonContentType('text/html')).toBe('text/html');
    expect(canonicalJsonContentType('Application/JSON; charset=latin1')).toBe('Application/JSON; charset=latin1');
  });
});
