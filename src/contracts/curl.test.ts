import { describe, expect, it } from 'vitest';
import { KEY_PLACEHOLDER, toCurl } from './http.js';

describe('toCurl', () => {
  it('writes the key as the braced variable, so that a suffix after it is not read as part of the name', () => {
    const curl = toCurl({ method: 'GET', url: 'http://host/v1/pets', headers: { authorization: `Bearer ${KEY_PLACEHOLDER}x` } });
    expect(curl).toContain(`-H "authorization: Bearer $\{PETSTORE_API_KEY}x"`);
  });
});
