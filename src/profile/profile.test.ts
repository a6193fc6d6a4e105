import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { PROFILE_SCHEMA, profileDocument, readProfile, UNKNOWN_PROFILE } from './profile.js';

describe('readProfile', () => {
  it('fills every choice a profile leaves out with unknown', () => {
    expect(readProfile({ version: 1, listOrder: 'id-desc' })).toEqual({ ...UNKNOWN_PROFILE, listOrder: 'id-desc' });
  });

  it.each([
    // A version this release does not know yet.
    [{ version: 3 }, /profile\.version/],
    // A field version 2 added, in a version-1 document: what a version-1 mock would refuse as unknown.
    [{ version: 1, limitAboveMaximum: 'clamp' }, /profile\.limitAboveMaximum needs "version": 2/],
    [{ version: 2, limitBelowMinimum: 'ignore' }, /profile\.limitBelowMinimum must be one of refuse, clamp, unknown/],
    [{ version: 1, defaultStatus: 'lost' }, /profile\.defaultStatus must be one of available, pending, sold, omitted, unknown/],
    [{ version: 1, limitOutOfRange: 500 }, /profile\.limitOutOfRange must be one of refuse, clamp, unknown/],
    [{ version: 1, nonIntegerPetId: 500 }, /profile\.nonIntegerPetId/],
    [{ version: 1, categories: { known: [] } }, /profile\.categories/],
    [{ version: 1, errorCodes: { teapot: 'E418' } }, /profile\.errorCodes .*no field teapot/],
    [{ version: 1, errorCodes: { not_found: '' } }, /profile\.errorCodes\.not_found/],
    [{ version: 1, apiKey: 'secret' }, /no field apiKey/],
    ['not an object', /profile must be object/],
  ])('refuses %j, naming the field', (value, message) => {
    expect(() => readProfile(value)).toThrow(TypeError);
    expect(() => readProfile(value)).toThrow(message);
  });

  it('reads version 2, with the two sides of the limit range', () => {
    expect(readProfile({ version: 2, limitAboveMaximum: 'clamp', limitBelowMinimum: 'refuse' })).toEqual({
      ...UNKNOWN_PROFILE,
      version: 2,
      limitAboveMaximum: 'clamp',
      limitBelowMinimum: 'refuse',
    });
  });

  it('is published as schemas/profile.schema.json, the same schema', async () => {
    const published: unknown = JSON.parse(await readFile(new URL('../../schemas/profile.schema.json', import.meta.url), 'utf8'));
    // When the spec's error codes change, write it again: npx tsx -e "import('./src/profile/profile.ts').then((m) => console.log(JSON.stringify(m.PROFILE_SCHEMA, null, 2)))" > schemas/profile.schema.json
    expect(published, 'schemas/profile.schema.json is stale: write it again from PROFILE_SCHEMA').toEqual(JSON.parse(JSON.stringify(PROFILE_SCHEMA)));
  });
});

describe('profileDocument', () => {
  it('writes version 1, without the fields version 2 added, when it knows none of them: a mock of an earlier release reads it', () => {
    const document = profileDocument({ ...UNKNOWN_PROFILE, listOrder: 'name' });
    expect(document).toMatchObject({ version: 1, listOrder: 'name' });
    expect(Object.keys(document)).not.toContain('limitAboveMaximum');
    expect(Object.keys(document)).not.toContain('limitBelowMinimum');
  });

  it('writes version 2 when it knows one of them, and reads back the same profile', () => {
    const profile = { ...UNKNOWN_PROFILE, version: 2 as const, limitAboveMaximum: 'clamp' as const, listOrder: 'name' as const };
    expect(profileDocument(profile)).toEqual(profile);
    expect(readProfile(JSON.parse(JSON.stringify(profileDocument(profile))))).toEqual(profile);
  });
});
