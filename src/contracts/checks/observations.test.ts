import { describe, expect, it } from 'vitest';
import { isEmpty, mergeObservations } from './observations.js';

describe('mergeObservations', () => {
  it('keeps only what was seen', () => {
    expect(mergeObservations([{ listOrder: 'id-asc' }, undefined, {}])).toEqual({ listOrder: 'id-asc' });
    expect(isEmpty(mergeObservations([]))).toBe(true);
  });

  it('unions lists in the order first seen', () => {
    expect(mergeObservations([{ errorCodes: ['b', 'a'] }, { errorCodes: ['a', 'c'] }])).toEqual({ errorCodes: ['b', 'a', 'c'] });
  });

  it('calls a choice seen two ways mixed, and the same way twice that way', () => {
    expect(mergeObservations([{ limitOutOfRange: 'clamp' }, { limitOutOfRange: 'refuse' }])).toEqual({ limitOutOfRange: 'mixed' });
    expect(mergeObservations([{ nonIntegerPetId: 404 }, { nonIntegerPetId: 404 }])).toEqual({ nonIntegerPetId: 404 });
  });

  it('joins the codes seen by status key by key, each list unioned', () => {
    const seen = mergeObservations([
      { errorCodesByStatus: { '404': ['not_found'] } },
      { errorCodesByStatus: { '404': ['missing', 'not_found'], '400': ['bad'] } },
    ]);
    expect(seen).toEqual({ errorCodesByStatus: { '404': ['not_found', 'missing'], '400': ['bad'] } });
  });

  it('sees ids beyond 2^53 when any check saw one', () => {
    expect(mergeObservations([{ idsBeyondDouble: false }, { idsBeyondDouble: true }])).toEqual({ idsBeyondDouble: true });
  });
});
