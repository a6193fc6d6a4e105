import { describe, expect, it } from 'vitest';
import { canonicalJsonContentType } from './proxy.js';

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
