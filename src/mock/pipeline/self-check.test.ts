import { describe, expect, it } from 'vitest';
import type { operations } from '../../generated/spec-types.js';
import { errorResponse, jsonResponse } from '../core/messages.js';
import { createSelfCheck, findMismatch } from './self-check.js';

const PET = '{"id":1,"name":"Gus","categoryId":8,"status":"available"}';
const PET_HEADERS = { deprecation: 'true', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT', link: '</v1/pets>; rel="successor-version"' };

describe('findMismatch', () => {
  it('passes answers that keep the spec, big integers included', () => {
    expect(findMismatch('getPet', jsonResponse(200, PET, PET_HEADERS))).toBeUndefined();
    expect(findMismatch('listPets', jsonResponse(200, '[{"id":9007199254740993,"name":"Gus","categoryId":9223372036854775807}]'))).toBeUndefined();
    expect(findMismatch('createPet', jsonResponse(201, PET, { location: '/v1/pets/1' }))).toBeUndefined();
    expect(findMismatch('listPets', errorResponse('unauthorized', 'no key', { 'www-authenticate': 'Bearer' }))).toBeUndefined();
    expect(findMismatch(undefined, errorResponse('not_found', 'no such path'))).toBeUndefined();
    expect(findMismatch(undefined, jsonResponse(200, '{"status":"ok"}'))).toBeUndefined();
    // A CORS preflight's 204 answers no operation.
    expect(findMismatch(undefined, jsonResponse(204, ''))).toBeUndefined();
  });

  const broken: [string, keyof operations | undefined, ReturnType<typeof jsonResponse>, RegExp][] = [
    [
      'a status the operation does not document',
      'listPets',
      errorResponse('not_found', 'x'),
      /listPets answered 404, a status .* does not document .*200, 400, 401/,
    ],
    ['a documented header left out', 'getPet', jsonResponse(200, PET, { deprecation: 'true', link: '<x>' }), /without the header sunset/],
    ['a 401 without WWW-Authenticate', 'getPet', errorResponse('unauthorized', 'x'), /without the header www-authenticate/],
    ['a body that breaks the schema', 'listPets', jsonResponse(200, '[{"id":1,"name":7,"categoryId":1}]'), /breaks its schema .*\/0\/name must be string/],
    ['an int64 beyond its range', 'getPet', jsonResponse(200, '{"id":9223372036854775808,"name":"Gus","categoryId":1}', PET_HEADERS), /\/id must be integer/],
    [
      'a Deprecation header that is no RFC 9745 date',
      'getPet',
      jsonResponse(200, PET, { ...PET_HEADERS, deprecation: 'yes-please' }),
      /header deprecation: yes-please/,
    ],
    [
      'a Sunset header that is no HTTP-date',
      'getPet',
      jsonResponse(200, PET, { ...PET_HEADERS, sunset: 'soon' }),
      /header sunset: soon, which breaks its schema/,
    ],
    ['a body that is not JSON', 'listPets', jsonResponse(200, '[{'), /not JSON/],
    ['a body that is not application/json', 'listPets', { status: 200, headers: { 'content-type': 'text/plain' }, body: '[]' }, /Content-Type text\/plain/],
    [
      'an Error whose status is not the HTTP status',
      undefined,
      jsonResponse(404, '{"code":"not_found","message":"x","status":400}'),
      /Error whose status is 400/,
    ],
    ['an error that is not an Error', undefined, jsonResponse(405, '{"error":"nope"}'), /breaks its schema/],
    [
      'a JSON body in a charset other than UTF-8',
      'listPets',
      { status: 200, headers: { 'content-type': 'application/json; charset=latin1' }, body: '[]' },
      /charset latin1/,
    ],
  ];
  for (const [what, operationId, response, message] of broken) {
    it(`names ${what}`, () => {
      expect(findMismatch(operationId, response)).toMatch(message);
    });
  }

  it('names every mismatch of one answer, not only the first', () => {
    const mismatch = findMismatch('getPet', { status: 200, headers: { 'content-type': 'text/plain' }, body: '{"id":1}' });
    for (const part of [/without the header deprecation/, /without the header sunset/, /Content-Type text\/plain/, /\/name must have required property/])
      expect(mismatch).toMatch(part);
  });
});

describe('createSelfCheck', () => {
  it('returns a good answer as it is, and turns a bad one into a 500 after reporting it', () => {
    const reported: string[] = [];
    const check = createSelfCheck((mismatch) => reported.push(mismatch));
    const good = jsonResponse(200, '[]');
    expect(check('listPets', good)).toBe(good);
    const bad = check('listPets', jsonResponse(200, '{}'));
    expect(bad.status).toBe(500);
    expect(JSON.parse(bad.body)).toMatchObject({ code: 'internal_error', status: 500, message: expect.stringMatching(/^Self-check: listPets answered 200/) });
    expect(reported).toEqual([expect.stringMatching(/^listPets answered 200 with a body that breaks its schema/)]);
  });

  it('answers the 500 even when the reporter throws', () => {
    const check = createSelfCheck(() => {
      throw new Error('expect failed');
    });
    expect(check('listPets', jsonResponse(200, '{}')).status).toBe(500);
  });
});
