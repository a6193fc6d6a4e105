import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { jsonMediaTypeProblem, stillCompressed } from './encoding.js';

describe('jsonMediaTypeProblem', () => {
  it.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON; Charset="UTF-8"', 'application/problem+json', 'application/json;v=1'])(
    'accepts %s',
    (type) => {
      expect(jsonMediaTypeProblem(type)).toBeUndefined();
    },
  );

  it.each([
    ['application/json; charset=iso-8859-1', 'charset iso-8859-1, but JSON is UTF-8'],
    ['application/json; charset=utf-16', 'charset utf-16, but JSON is UTF-8'],
    ['text/plain', 'not a JSON media type'],
    ['text/json+html', 'not a JSON media type'],
    ['application/jsonx', 'not a JSON media type'],
    ['json', 'it is not a media type'],
  ])('refuses %s', (type, problem) => {
    expect(jsonMediaTypeProblem(type)).toBe(problem);
  });

  it('refuses a missing Content-Type', () => {
    expect(jsonMediaTypeProblem(null)).toMatch(/needs Content-Type/);
  });
});

describe('stillCompressed', () => {
  it('sees gzip bytes read as UTF-8 text, and not JSON', () => {
    expect(stillCompressed(new TextDecoder().decode(gzipSync('[]')))).toBe(true);
    expect(stillCompressed('[{"id":1}]')).toBe(false);
    expect(stillCompressed('')).toBe(false);
  });
});
