import { describe, expect, it } from 'vitest';
import { detailRedactor, targetRedactor } from './request-log.js';

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

  // Issue 23: a key inside a segment, in an absolute-form target's userinfo, or spanning separators.
  const KEY = 'Zm9vYmFyYmF6cXV4MTIzNDU2Nzg=';
  const redact = targetRedactor([KEY, 'k/+ey'], '/v1');

  it('hides a key inside a path segment, and only the part that holds it', () => {
    // The key without its padding is the key: the `=` left is no secret.
    expect(redact(`/v1/pets/${KEY}.json`)).toBe('/v1/pets/***=.json');
    expect(redact(`/v1/pets/1;k=${KEY}`)).toBe('/v1/pets/1;k=***=');
    expect(redact(`/v1/pets/Bearer%20${encodeURIComponent(KEY)}`)).toBe('/v1/pets/***');
    expect(redact(`/v1/${KEY.slice(0, -1)}/pets`)).toBe('/v1/***/pets');
    expect(redact('/v1/pets/1/k/+ey/2')).toBe('/v1/pets/1/***/***/2');
    expect(redact('/v1/pets/%zz%6B%2F%2Bey')).toBe('/v1/pets/***');
  });

  it('hides the key as base64, and one spanning = or & in the query', () => {
    expect(redact(`/v1/pets?t=${Buffer.from(KEY).toString('base64url')}&limit=5`)).toBe('/v1/pets?t=***&limit=5');
    expect(redact(`/v1/pets?${KEY}&limit=5`)).toBe('/v1/pets?***=&limit=5');
  });

  it('hides the userinfo of an absolute-form target, and an authority that holds a key', () => {
    expect(redact(`http://u:${KEY}@127.0.0.1:4010/v1/pets?limit=1`)).toBe('http://***@127.0.0.1:4010/v1/pets?limit=1');
    expect(redact('http://user@127.0.0.1/v1/pets')).toBe('http://***@127.0.0.1/v1/pets');
    expect(redact(`http://${KEY.slice(0, -1)}.example/v1/pets`)).toBe('http://***/v1/pets');
    expect(redact('http://127.0.0.1:4010/v1/pets/pets')).toBe('http://127.0.0.1:4010/v1/pets/pets');
  });

  it('hides userinfo that holds a raw / (as Node passes it on), so a key with a / in it shows on neither side', () => {
    expect(redact('http://u:k/+ey@127.0.0.1:4010/v1/pets?limit=1')).toBe('http://***@127.0.0.1:4010/v1/pets?limit=1');
    expect(redact('http://k/+ey@127.0.0.1/v1/pets')).toBe('http://***@127.0.0.1/v1/pets');
    expect(redact('http://127.0.0.1/v1/pets?a=b@c')).toBe('http://127.0.0.1/v1/pets?a=b@c');
  });
});

describe('detailRedactor', () => {
  it('hides a session name that holds a key, and leaves labels and other names', () => {
    const redact = detailRedactor(['s3cret-key']);
    expect(redact('key=ci session=s3cret-key')).toBe('key=ci session=***');
    expect(redact('session=x-s3cret-key-y')).toBe('session=***');
    expect(redact('key=ci session=worker-1')).toBe('key=ci session=worker-1');
  });
});
