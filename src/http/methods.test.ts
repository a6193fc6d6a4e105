import { describe, expect, it } from 'vitest';
import { isWrite } from './methods.js';

describe('isWrite', () => {
  it('takes only the safe methods of RFC 9110 for reads', () => {
    expect(['GET', 'HEAD', 'OPTIONS', 'TRACE'].filter(isWrite)).toEqual([]);
  });

  it('takes every other method for a write, one it never heard of included, and a method spelt in another case', () => {
    expect(['POST', 'PUT', 'PATCH', 'DELETE', 'CONNECT', 'PURGE', 'get'].every(isWrite)).toBe(true);
  });
});
