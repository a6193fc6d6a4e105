import { describe, expect, it } from 'vitest';
import { targetRedactor } from './request-log.js';

describe('targetRedactor', () => {
  it('hides a key in any encoding in the query, and only the name or value that holds it', () => {
    const redact = targetRedactor(['k/+ey'], '/v1');
    expect(redact('/v1/pets?a=k%2F%2Bey&limit=5')).toBe('/v1/pets?a=***&limit=5');
    expect(redact('/v1/pets?a=k%252F%252Bey')).toBe('/v1/pets?a=***');
    expect(redact('/v1/pets?k%2F%2Bey=1')).toBe('/v1/pets?***=1');
    expect(redact('/v1/pets?a=%E0%A4%A')).toBe('/v1/pets?a=%E0%A4%A');
  });

  it('hides a path segment equal to a key where the API takes a value, never a word of its paths', () => {
    const redact = targetRedactor(['pets', 'v1'], '/v1');
    expect(redact('/v1/pets')).toBe('/v1/pets');
    expect(redact('/v1/pets/pets')).toBe('/v1/pets/***');
    expect(redact('/v1/pets/v1')).toBe('/v1/pets/***');
    expect(redact('/elsewhere/pets/secret')).toBe('/elsewhere/pets/secret');
  });

  it('leaves a target without keys as it is', () => {
    expect(targetRedactor(['s3cret'], '/v1')('/v1/pets?limit=5&status=sold')).toBe('/v1/pets?limit=5&status=sold');
  });
});
