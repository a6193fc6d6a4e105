import { describe, expect, it } from 'vitest';
import { BigIntegers } from './lossy-integers.js';

const beyond = (offset: bigint) => 2n ** 53n + offset;

describe('BigIntegers', () => {
  it('tells integers written through a double: eight or more beyond 2^53 of one member, every one a double', () => {
    const seen = new BigIntegers();
    seen.observe(JSON.stringify([0, 2, 4, 6, 8, 10, 12, 14].map((n) => ({ id: Number(beyond(BigInt(n))) }))));
    expect(seen.rounded).toHaveLength(8);
  });

  it('takes an exact id (odd beyond 2^53) for proof there is no rounding, and seven doubles for too few to tell', () => {
    const exact = new BigIntegers();
    exact.observe(`[${[0n, 2n, 4n, 6n, 8n, 10n, 12n, 15n].map((n) => `{"id":${beyond(n)}}`).join(',')}]`);
    expect(exact.rounded).toBeUndefined();
    const few = new BigIntegers();
    few.observe(`[${[0n, 2n, 4n, 6n, 8n, 10n, 12n].map((n) => `{"id":${beyond(n)}}`).join(',')}]`);
    expect(few.rounded).toBeUndefined();
  });

  it('judges each member apart: exact categories beside rounded ids still show the ids rounded', () => {
    const seen = new BigIntegers();
    seen.observe(`[${[0n, 2n, 4n, 6n, 8n, 10n, 12n, 14n].map((n) => `{"id":${beyond(n)},"categoryId":${beyond(n + 1n)}}`).join(',')}]`);
    expect(seen.rounded?.map(String)).toEqual([0n, 2n, 4n, 6n, 8n, 10n, 12n, 14n].map((n) => String(beyond(n))));
  });
});
