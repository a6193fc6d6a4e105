import { describe, expect, it } from 'vitest';
import { redactor } from './hide-credentials.js';

describe('redactor', () => {
  // Each form the request log hides (pipeline/request-log.ts) is hidden from what the proxy records and relays too.
  const KEY = 'staging/K3y+0=';
  const base64 = Buffer.from(KEY).toString('base64');
  const hide = redactor([KEY, undefined, 'abc']);

  it.each([
    ['as sent', KEY],
    ['without its = padding', KEY.slice(0, -1)],
    ['in base64', base64],
    ['in base64 without its padding', base64.replace(/=+$/, '')],
    ['in base64url', Buffer.from(KEY).toString('base64url')],
    ['percent-encoded', encodeURIComponent(KEY)],
    ['percent-encoded twice', encodeURIComponent(encodeURIComponent(KEY))],
    ['JSON-escaped', KEY.replaceAll('/', '\\/')],
  ])('hides a secret %s, and only it', (_form, text) => {
    expect(hide(`owner ${text} here`)).toBe('owner *** here');
  });

  it('leaves other text, and a secret too short to hide without hiding everything else', () => {
    expect(hide('a cat named abc')).toBe('a cat named abc');
  });
});
