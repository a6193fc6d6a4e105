import { describe, expect, it } from 'vitest';
import { isHostName, parseUserUrl } from './user-url.js';

const HTTP = { name: '--base-url', schemes: ['http:', 'https:'], example: 'https://staging.example.com/v1' } as const;

describe('isHostName (RFC 1123, or an IP address)', () => {
  it('takes names, IPv4 and IPv6 addresses', () => {
    for (const host of ['localhost', 'staging.example.com', 'mock.internal.', 'xn--bcher-kva.de', '127.0.0.1', '::1', 'fe80::1'])
      expect(isHostName(host), host).toBe(true);
  });

  it('refuses empty, dotted, hyphen-edged, numeric-looking and over-long names', () => {
    for (const host of ['', '.', '....', 'a..b', '-evil.com', 'evil-.com', '1.2.3.256', '0x7f.1', '300', `${'a'.repeat(64)}.test`, 'pets_test', 'fe80::1%eth0'])
      expect(isHostName(host), host).toBe(false);
  });
});

describe('parseUserUrl: every URL a user gives, its host as written', () => {
  it('parses a URL whose host passes the rule, with a port, user info or brackets', () => {
    expect(parseUserUrl('https://staging.example.com/v1', HTTP).pathname).toBe('/v1');
    expect(parseUserUrl('http://[::1]:8080/v1', HTTP).port).toBe('8080');
    expect(parseUserUrl('http://bücher.de/v1', HTTP).hostname).toBe('xn--bcher-kva.de');
  });

  // WHATWG's parser reads http:///v1 and http:v1 as the host v1: the text is what the user wrote.
  for (const url of ['http:///v1', 'http:////v1', 'http://:80/v1', 'http://user@/v1']) {
    it(`refuses ${url}, which names no host, naming the flag`, () => {
      expect(() => parseUserUrl(url, HTTP)).toThrow(/^--base-url: must name the host .*https:\/\/staging\.example\.com\/v1\.$/);
    });
  }

  for (const url of ['http:/v1', 'http:v1', 'staging.example.com/v1', '']) {
    it(`refuses ${JSON.stringify(url)}, not written scheme://host`, () => {
      expect(() => parseUserUrl(url, HTTP)).toThrow(/^--base-url: is not a URL written scheme:\/\/host/);
    });
  }

  for (const host of ['-evil.com', '....', 'a..b', '0x7f.1', '%65vil.com', 'a_b.test']) {
    it(`refuses the host ${host}, naming it and the rule, never the rest of the URL`, () => {
      const error = (() => {
        try {
          parseUserUrl(`http://${host}/s3cret-in-path/v1`, HTTP);
        } catch (thrown) {
          return thrown as Error;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(TypeError);
      expect(error?.message).toContain(`--base-url: ${JSON.stringify(host)} is no IP address nor host name`);
      expect(error?.message).toContain('(RFC 1123)');
      expect(error?.message).not.toContain('s3cret');
    });
  }

  // WHATWG's parser drops them: ' http://h/v1 ' and 'http://h/v\n1' would be read as http://h/v1.
  for (const url of [
    ' http://staging.example.com/v1',
    'http://staging.example.com/v1 ',
    'http://staging.example.com/v\n1',
    'http://staging.example.com/v\t1',
  ]) {
    it(`refuses ${JSON.stringify(url)}, white space or a control character the parser would drop`, () => {
      expect(() => parseUserUrl(url, HTTP)).toThrow(/^--base-url: holds white space or a control character/);
    });
  }

  it('refuses another scheme, and a URL WHATWG cannot parse', () => {
    expect(() => parseUserUrl('ftp://example.com/v1', HTTP)).toThrow(/^--base-url: must be a http:\/\/ or https:\/\/ URL, not ftp:/);
    expect(() => parseUserUrl('http://example.com:99999/v1', HTTP)).toThrow(/^--base-url: is not a URL \(/);
  });
});
