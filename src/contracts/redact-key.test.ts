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

describe('Redactor: hex, halves and the near misses the verifier sent', () => {
  const key = 'sk_live_9fQ2xZ7pLm4R8tVwq3';
  const hex = (text: string) => Buffer.from(text).toString('hex');
  const base64 = (text: string) => Buffer.from(text).toString('base64');

  it.each([
    ['as hex', hex(key)],
    ['as hex in upper case', hex(key).toUpperCase()],
    ['its first half', key.slice(0, 13)],
    ['its second half', key.slice(13)],
  ])('replaces a long key echoed %s', (_, form) => {
    expect(new Redactor(key).text(`echo: ${form}.`)).toBe(`echo: ${KEY_PLACEHOLDER}.`);
  });

  it('replaces both halves of an odd-length key, cut on either side of its middle', () => {
    const odd = `${key}Q`;
    const redactor = new Redactor(odd);
    for (const cut of [13, 14]) expect(redactor.text(`${odd.slice(0, cut)} / ${odd.slice(cut)}`)).toBe(`${KEY_PLACEHOLDER} / ${KEY_PLACEHOLDER}`);
  });

  it('leaves halves that ordinary text holds by chance: a word, a number', () => {
    expect(new Redactor('petstore-dev-key').text('petstore-mock: -dev-key')).toBe('petstore-mock: -dev-key');
    expect(new Redactor('1234567812345678').text('id 12345678')).toBe('id 12345678');
  });

  it('knows no near miss until the verifier builds it, then replaces it in every form', () => {
    const redactor = new Redactor(key);
    const suffixed = `${key}x`;
    const forms = [base64(suffixed), Buffer.from(suffixed).toString('base64url'), hex(suffixed), hex(suffixed).toUpperCase(), suffixed.slice(14)];
    expect(redactor.text(base64(suffixed))).not.toBe(KEY_PLACEHOLDER);
    redactor.know(suffixed);
    for (const form of forms) expect(redactor.text(`[${form}]`)).toBe(`[${KEY_PLACEHOLDER}]`);
  });

  it('replaces a near miss that shares nothing with the key as written (Basic, base64), in every form', () => {
    const redactor = new Redactor(key);
    const basic = base64(`${key}:`);
    redactor.know(basic);
    for (const form of [basic, base64(basic), hex(basic), encodeURIComponent(basic)]) expect(redactor.text(`<${form}>`)).toBe(`<${KEY_PLACEHOLDER}>`);
  });

  it('keeps the token rule for a short key and its near misses, and gives them no hex', () => {
    const redactor = new Redactor('a');
    redactor.know('A');
    redactor.know('ax');
    expect(redactor.text('A cat, ax; Ax; max 61')).toBe(`${KEY_PLACEHOLDER} cat, ${KEY_PLACEHOLDER}; Ax; max 61`);
  });

  it('keeps a JSON body parseable when a near miss is echoed in a string', () => {
    const redactor = new Redactor(key);
    redactor.know(base64(`${key}:`));
    const body = redactor.body(JSON.stringify({ message: `refused: Basic ${base64(`${key}:`)}`, status: 403 }), true);
    expect(JSON.parse(body)).toEqual({ message: `refused: Basic ${KEY_PLACEHOLDER}`, status: 403 });
  });
});
