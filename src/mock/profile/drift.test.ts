import { describe, expect, it } from 'vitest';
import { parseJson } from '../../json/lossless.js';
import { BUNDLED_MODEL } from '../../openapi/bundled-model.js';
import { type ComparedResponse, compareResponses } from './drift.js';

function response(status: number, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }): ComparedResponse {
  return { status, header: (name) => headers[name], json: parseJson(body) };
}

const none = new URLSearchParams();

describe('compareResponses', () => {
  it('ignores ids, generated names and fields the contract does not name', () => {
    const theirs = response(201, '{"id":9007199254740993,"name":"Rex","categoryId":1,"status":"sold","createdAt":"2026-01-01"}');
    const ours = response(201, '{"id":51,"name":"Rex","categoryId":1,"status":"sold"}');
    expect(compareResponses(BUNDLED_MODEL, 'createPet', 'POST /v1/pets', none, theirs, ours, 'id-asc')).toEqual([]);
  });

  it('names a different status, and stops there', () => {
    expect(
      compareResponses(BUNDLED_MODEL, 'listPets', 'GET /v1/pets?limit=0', none, response(200, '[]'), response(400, '{"code":"bad_request"}'), 'id-asc'),
    ).toMatchObject([{ aspect: 'status', upstream: '200', mock: '400' }]);
  });

  it('names a different Error code, charset, Deprecation form, echoed field and missing field', () => {
    const drifts = compareResponses(
      BUNDLED_MODEL,
      'createPet',
      'POST /v1/pets',
      none,
      response(201, '{"id":1,"name":"Rex","categoryId":2}', { 'content-type': 'application/json; charset=utf-8' }),
      response(201, '{"id":1,"name":"Rex","categoryId":3,"status":"available"}'),
      'id-asc',
    );
    expect(drifts.map((drift) => drift.aspect).sort()).toEqual(['field', 'header', 'shape']);
    const errors = compareResponses(
      BUNDLED_MODEL,
      'getPet',
      'GET /v1/pets/9',
      none,
      response(404, '{"code":"E404"}', { 'content-type': 'application/json', deprecation: 'true' }),
      response(404, '{"code":"not_found"}', { 'content-type': 'application/json', deprecation: '@1748736000' }),
      'id-asc',
    );
    expect(errors.map((drift) => drift.message)).toEqual([
      'GET /v1/pets/9: Error code: the deployment code E404, the mock code not_found',
      'GET /v1/pets/9: Deprecation: the deployment legacy true, the mock RFC 9745 date',
    ]);
  });

  it('names a page out of the mock’s order, or with pets of another status than the filter', () => {
    const page = response(200, '[{"id":3,"name":"A","status":"sold"},{"id":1,"name":"B","status":"pending"}]');
    expect(compareResponses(BUNDLED_MODEL, 'listPets', 'GET /v1/pets', none, page, response(200, '[]'), 'id-asc').map((drift) => drift.aspect)).toEqual([
      'order',
    ]);
    expect(compareResponses(BUNDLED_MODEL, 'listPets', 'GET /v1/pets', none, page, response(200, '[]'), 'id-desc')).toEqual([]);
    expect(
      compareResponses(BUNDLED_MODEL, 'listPets', 'GET /v1/pets?status=sold', new URLSearchParams('status=sold'), page, response(200, '[]'), 'id-desc'),
    ).toMatchObject([{ aspect: 'field', upstream: '1 pet(s) of another status' }]);
  });
});
