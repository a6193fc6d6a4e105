import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { stillCompressed } from './encoding.js';

describe('stillCompressed', () => {
  it('sees gzip bytes read as UTF-8 text, and not JSON', () => {
    expect(stillCompressed(new TextDecoder().decode(gzipSync('[]')))).toBe(true);
    expect(stillCompressed('[{"id":1}]')).toBe(false);
    expect(stillCompressed('')).toBe(false);
  });
});
