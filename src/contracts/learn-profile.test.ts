import { describe, expect, it } from 'vitest';
import { UNKNOWN_PROFILE } from '../profile/profile.js';
import { learnProfile } from './learn-profile.js';

describe('learnProfile', () => {
  it('knows nothing from nothing', () => {
    expect(learnProfile({})).toEqual(UNKNOWN_PROFILE);
  });

  it('keeps a choice seen two ways unknown', () => {
    expect(learnProfile({ listOrder: 'mixed', limitOutOfRange: 'mixed', defaultStatus: 'mixed' })).toEqual(UNKNOWN_PROFILE);
  });

  it('maps each situation to the code spelled like it, else the only code seen with its status', () => {
    const profile = learnProfile({ errorCodesByStatus: { '400': ['BAD_REQUEST', 'MALFORMED_JSON'], '401': ['E401'], '404': ['E404', 'gone?'] } });
    expect(profile.errorCodes).toEqual({ bad_request: 'BAD_REQUEST', malformed_json: 'MALFORMED_JSON', unauthorized: 'E401' });
  });

  it('learns "any" category when one no pet has was accepted, and the known ones when it was refused', () => {
    expect(learnProfile({ unlistedCategory: 'accepted', categories: ['1'] }).categories).toBe('any');
    expect(
      learnProfile({ unlistedCategory: 'refused', listedCategories: ['7', '9'], categories: ['9'], refusedCategories: ['7', '4242424'] }).categories,
    ).toEqual({
      known: ['9'],
    });
    expect(learnProfile({ categories: ['1'] }).categories).toBe('unknown');
  });

  it('reads unordered ids as random, and holds no pet data beyond the categories', () => {
    const profile = learnProfile({ idScheme: 'unordered', idsBeyondDouble: true, errorCodes: ['x'] });
    expect(profile).toMatchObject({ idScheme: 'random', idsBeyondDouble: true });
    expect(Object.keys(profile)).not.toContain('errorCodesByStatus');
  });

  it('learns each side of the limit range on its own when the deployment treats them apart (a gateway clamping above the maximum), in a version-2 profile', () => {
    const profile = learnProfile({ limitOutOfRange: 'mixed', limitAboveMaximum: 'clamp', limitBelowMinimum: 'refuse' });
    expect(profile).toMatchObject({ version: 2, limitOutOfRange: 'unknown', limitAboveMaximum: 'clamp', limitBelowMinimum: 'refuse' });
  });

  it('learns one choice for both sides when they agree, in a version-1 profile', () => {
    const profile = learnProfile({ limitOutOfRange: 'clamp', limitAboveMaximum: 'clamp', limitBelowMinimum: 'clamp' });
    expect(profile).toMatchObject({ version: 1, limitOutOfRange: 'clamp', limitAboveMaximum: 'unknown', limitBelowMinimum: 'unknown' });
  });
});
