import { describe, expect, it } from 'vitest';
import { openapi } from '../generated/openapi.js';
import { headerValidators } from '../generated/validators.js';
import type { JsonValue } from '../json/lossless.js';
import { RESPONSE_SCHEMAS } from '../mock/pipeline/self-check.js';
import { createConformance, jsonMediaTypeProblem, SCHEMA_PROBLEMS_TOLD, type SchemaProblem, schemaProblems } from './conformance.js';

describe('jsonMediaTypeProblem', () => {
  it.each([
    'application/json',
    'APPLICATION/JSON',
    'application/json; charset=utf-8',
    'application/json;charset="UTF-8"',
    'application/problem+json',
    'application/vnd.api+json; ext=x',
  ])('accepts %s', (contentType) => {
    expect(jsonMediaTypeProblem(contentType)).toBeUndefined();
  });

  it.each([
    [undefined, /no Content-Type/],
    ['text/plain', /not a JSON media type/],
    ['application/jsonp', /not a JSON media type/],
    ['application/json-seq', /not a JSON media type/],
    ['text/json', /not a JSON media type/],
    ['application/json; charset=latin1', /charset latin1/],
    ['application/json; charset="iso-8859-1"', /charset iso-8859-1/],
    ['application/json; charset=utf8', /charset utf8/],
  ])('refuses %s', (contentType, problem) => {
    expect(jsonMediaTypeProblem(contentType)).toMatch(problem);
  });
});

describe('createConformance', () => {
  const noProblems: SchemaProblem[] = [];
  const schemaProblem: SchemaProblem = { instancePath: '/name', schemaPath: '#/properties/name/type', message: 'must be string' };
  const headers = (values: Record<string, string>) => (name: string) => values[name];

  it('returns every violation as data, in the order a reader checks them', () => {
    const conformance = createConformance(openapi, { violations: () => [schemaProblem], headerViolations: () => undefined }, { everyDocumentedHeader: true });
    const violations = conformance('getPet', {
      status: 418,
      header: headers({ 'content-type': 'text/plain' }),
      body: '{"code":"x","message":"y","status":400}',
    });
    expect(violations.map(({ path, rule }) => `${rule} ${path}`)).toEqual([
      'status status',
      'media-type headers/content-type',
      'schema body/name',
      'error-status body/status',
    ]);
    expect(violations[0]?.message).toMatch(/^getPet answered 418, a status the spec does not document for it \(it documents 200, 400, 401, 404, 410/);
    expect(violations[2]).toMatchObject({ schemaPath: '#/properties/name/type' });
  });

  it('holds a deployment to the required headers only, and the mock to every documented one', () => {
    const answer = { status: 200, header: headers({ 'content-type': 'application/json' }), body: '{}' };
    expect(createConformance(openapi, { violations: () => noProblems, headerViolations: () => undefined })('getPet', answer)).toEqual([]);
    const strict = createConformance(openapi, { violations: () => noProblems, headerViolations: () => undefined }, { everyDocumentedHeader: true });
    expect(strict('getPet', answer).map((violation) => violation.path)).toEqual(['headers/deprecation', 'headers/sunset', 'headers/link']);
  });

  it("documents getPet's deprecation headers on every answer of it, its errors too, and on its 410 only Sunset", () => {
    const strict = createConformance(openapi, { violations: () => noProblems, headerViolations: () => undefined }, { everyDocumentedHeader: true });
    const error = (status: number) => ({
      status,
      header: headers({ 'content-type': 'application/json' }),
      body: `{"code":"x","message":"y","status":${status}}`,
    });
    for (const status of [400, 404, 429, 500, 503]) {
      // A 429 or 503 also documents when to retry.
      const retry = status === 429 || status === 503 ? ['headers/retry-after'] : [];
      expect(
        strict('getPet', error(status)).map((violation) => violation.path),
        String(status),
      ).toEqual(['headers/deprecation', 'headers/sunset', 'headers/link', ...retry]);
    }
    expect(strict('getPet', error(401)).map((violation) => violation.path)).toEqual([
      'headers/www-authenticate',
      'headers/deprecation',
      'headers/sunset',
      'headers/link',
    ]);
    expect(strict('getPet', error(410)).map((violation) => violation.path)).toEqual(['headers/sunset']);
  });

  it(`tells one body's first ${SCHEMA_PROBLEMS_TOLD} schema problems and counts the rest in one more (red team 8, #13: 99,000 lines for one answer)`, () => {
    const many = Array.from({ length: 15_000 }, (_, i) => ({ ...schemaProblem, instancePath: `/${i}/name` }));
    const conformance = createConformance(openapi, { violations: () => many, headerViolations: () => undefined });
    const violations = conformance('listPets', { status: 200, header: headers({ 'content-type': 'application/json' }), body: '[]' });
    expect(violations).toHaveLength(SCHEMA_PROBLEMS_TOLD + 1);
    expect(violations[SCHEMA_PROBLEMS_TOLD - 1]?.path).toBe(`body/${SCHEMA_PROBLEMS_TOLD - 1}/name`);
    expect(violations.at(-1)?.message).toMatch(new RegExp(`in ${15_000 - SCHEMA_PROBLEMS_TOLD} more places than the ${SCHEMA_PROBLEMS_TOLD} above$`));
  });

  it(`checks a long list by slices until ${SCHEMA_PROBLEMS_TOLD} problems are found: the work follows what is told, not the body (red team 8, #15: 19 s of CPU for 30,000 invalid objects)`, () => {
    // The mock's own validators, counting the items each call is given.
    const given: number[] = [];
    const counting = {
      ...RESPONSE_SCHEMAS,
      violations(operationId: string, status: number, body: JsonValue) {
        given.push(Array.isArray(body) ? body.length : 1);
        return RESPONSE_SCHEMAS.violations(operationId, status, body);
      },
    };
    const conformance = createConformance(openapi, counting);
    const json = headers({ 'content-type': 'application/json' });
    const violations = conformance('listPets', { status: 200, header: json, body: JSON.stringify(Array.from({ length: 100_000 }, () => ({}))) });
    expect(violations).toHaveLength(SCHEMA_PROBLEMS_TOLD + 1);
    expect(violations.slice(0, 3).map((violation) => violation.path)).toEqual(['body/0/name', 'body/0/categoryId', 'body/0/id']);
    expect(violations.at(-1)?.message).toMatch(new RegExp(`in more places than the ${SCHEMA_PROBLEMS_TOLD} above \\(the rest not looked for\\)$`));
    // 21 problems, three an item: 7 items were needed, checked in the first slice of 64.
    expect(given).toEqual([64]);
  });

  it('tells a long list with few problems exactly, each at its place, from one check of the whole', () => {
    const pets = Array.from({ length: 1_000 }, (_, id) => ({ id, name: `pet ${id}`, categoryId: 1 }));
    const body = JSON.stringify(pets.map((pet) => (pet.id === 700 ? { ...pet, name: 7 } : pet)));
    const violations = createConformance(openapi, RESPONSE_SCHEMAS)('listPets', { status: 200, header: headers({ 'content-type': 'application/json' }), body });
    expect(violations.map((violation) => violation.path)).toEqual(['body/700/name']);
  });

  it('stops at an empty body or one that is not JSON, since nothing more can be read', () => {
    const conformance = createConformance(openapi, { violations: () => [schemaProblem], headerViolations: () => undefined });
    const json = headers({ 'content-type': 'application/json' });
    expect(conformance('listPets', { status: 200, header: json, body: ' ' }).map((violation) => violation.rule)).toEqual(['body-empty']);
    expect(conformance('listPets', { status: 200, header: json, body: '[{' }).map((violation) => violation.rule)).toEqual(['body-json']);
  });

  it('reads answers outside the operations as Errors when it is given the Error schema, and leaves a 204 without a body', () => {
    const conformance = createConformance(openapi, { violations: () => noProblems, headerViolations: () => undefined, errorViolations: () => [schemaProblem] });
    expect(conformance(undefined, { status: 404, header: headers({ 'content-type': 'application/json' }), body: '{}' }).map((v) => v.rule)).toEqual(['schema']);
    expect(conformance(undefined, { status: 204, header: headers({}), body: '' })).toEqual([]);
  });

  it('holds the value of each documented header to its schema in the spec, by the compiled validators', () => {
    const conformance = createConformance(openapi, {
      violations: () => noProblems,
      headerViolations(operationId, status, sent) {
        const validator = headerValidators.get(operationId as 'getPet')?.get(status);
        return validator === undefined ? undefined : validator(sent) ? [] : schemaProblems(validator.errors);
      },
    });
    const answer = (values: Record<string, string>) => ({ status: 200, header: headers({ 'content-type': 'application/json', ...values }), body: '{}' });
    const good = { deprecation: '@1748736000', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT', link: '</v1/pets>; rel="successor-version"' };
    expect(conformance('getPet', answer(good))).toEqual([]);
    expect(conformance('getPet', answer({ ...good, deprecation: 'true' }))).toEqual([]);
    const bad = conformance('getPet', answer({ deprecation: 'yes-please', sunset: 'soon', link: 'nonsense' }));
    expect(bad.map(({ rule, path }) => `${rule} ${path}`)).toEqual(['header headers/deprecation', 'header headers/sunset', 'header headers/link']);
    expect(bad[0]?.message).toMatch(/^getPet answered 200 with the header deprecation: yes-please, which breaks its schema in the spec: must match pattern/);
    expect(bad[1]).toMatchObject({ actual: 'soon' });
  });
});
