import { describe, expect, it } from 'vitest';
import { KEY_PLACEHOLDER, Redactor } from './redact-key.js';

describe('Redactor', () => {
  const key = 'k3y/with+plus=eq%25pct"quote';
  const redactor = new Redactor(key);

  it.each([
    ['as sent', key],
    ['JSON-escaped', JSON.stringify(key).slice(1, -1)],
    ['JSON-escaped with \\/', JSON.stringify(key).slice(1, -1).replaceAll('/', '\\/')],
    ['URL-encoded', encodeURIComponent(key)],
    ['URL-encoded in lower case', encodeURIComponent(key).toLowerCase()],
    ['base64', Buffer.from(key).toString('base64')],
    ['base64url', Buffer.from(key).toString('base64url')],
  ])('replaces a long key echoed %s, wherever it stands', (_, form) => {
    expect(redactor.text(`x${form}y`)).toBe(`x${KEY_PLACEHOLDER}y`);
  });

  it('keeps a JSON body parseable, touching only its strings, for a one-character key', () => {
    const one = new Redactor('1');
    expect(one.body('{"id":1,"echo":"key 1 sent","name":"Rex1"}', true)).toBe(`{"id":1,"echo":"key ${KEY_PLACEHOLDER} sent","name":"Rex1"}`);
  });

  it('replaces a short key only where it stands as a token', () => {
    expect(new Redactor('1').text('http://127.0.0.1:4010/v1 key=1')).toBe(`http://127.0.0.${KEY_PLACEHOLDER}:4010/v1 key=${KEY_PLACEHOLDER}`);
    expect(new Redactor('a').text('a cat; Bearer a')).toBe(`${KEY_PLACEHOLDER} cat; Bearer ${KEY_PLACEHOLDER}`);
  });

  it('redacts every header value', () => {
    const headers = new Redactor('sk_live_123456').headers(new Headers({ 'x-echo': 'sk_live_123456', 'content-type': 'application/json' }));
    expect(Object.fromEntries(headers)).toEqual({ 'x-echo': KEY_PLACEHOLDER, 'content-type': 'application/json' });
  });

  it.each([
    ['upper-cased', 'SK-LIVE-ABC123XYZ'],
    ['with its case changed', 'SK-LIVE-abc123xyz'],
    ['with one byte percent-encoded', 'sk%2Dlive-Abc123xyz'],
    ['with every character percent-encoded', [...'sk-live-Abc123xyz'].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')],
    ['without its last character (the near miss sent), URL-encoded', 'sk-live-Abc123xy'],
    ['after Bearer, URL-encoded', 'Bearer%20sk-live-Abc123xyz'],
  ])('replaces a long key echoed %s', (_, form) => {
    const text = new Redactor('sk-live-Abc123xyz').text(`echo: ${form}.`);
    expect(text).toContain(KEY_PLACEHOLDER);
    expect(text.toLowerCase()).not.toContain('abc123x');
    expect(text).not.toMatch(/%61%62%63/i);
  });
});
