import { isJsonObject, parseJson, stringifyJson } from '../../json/lossless.js';
import { operationOfKind } from '../../openapi/resource-model.js';
import { breakages } from '../body-breakages.js';
import { idReusedFault } from '../causes.js';
import type { CheckContext, KindCheck } from '../check.js';
import { decoded, listOf } from '../contract.js';
import { runFieldsOf } from '../pet-fields.js';
import { changedFieldFault, createPet, exact, expectListed, expectReread, idOf, listPage, maxLimit, newPetBody, type PetJson } from '../pets.js';
import { bodyChecks } from './bodies.js';
import { typeChecks } from './check-types.js';

/** 2^53 + 1: the smallest integer a double cannot hold. */
const BEYOND_DOUBLE = '9007199254740993';

/** Checks that what was sent comes back exactly. */
function expectEcho(context: CheckContext, created: Awaited<ReturnType<typeof createPet>>): void {
  const create = context.kind('create');
  for (const [field, sent] of Object.entries(created.sent)) {
    const got = created.pet[field];
    if (exact(got) !== sent)
      context.fail(`${create} changed ${field}`, created.exchange, {
        expected: sent,
        actual: got === undefined ? '(missing)' : exact(got),
        fault: changedFieldFault(create, field, sent, got),
      });
  }
}

/** A category a deployment is unlikely to list: whether it takes one it never showed tells "any category" from "only known ones". */
const UNLISTED_CATEGORY = 4_242_424;

/** Two ids drawn at random from the int64 range are this far apart or more, but for one time in a hundred. */
const RANDOM_STEP = 2n ** 56n;

/**
 * The 201's `Location` names the new pet (RFC 9110 §10.2.2: for a 201 it refers to the resource the
 * request created). A relative one is resolved against the request's URI (RFC 3986 §5), so its path must
 * be the deployment's base path (the request's path without the create's) and then the read's path with
 * the new id, absolute or relative alike: `/pets/12` from a deployment under `/v1` names a resource no
 * client can read. Only the path is compared: a deployment behind a gateway may name itself by its public
 * origin. Undefined when it names the pet, else what is wrong.
 */
function locationProblem(context: CheckContext, location: string, id: string, requestUrl: string): { problem: string; expected: string } | undefined {
  const [create, read] = [operationOfKind(context.contract.model, 'create'), operationOfKind(context.contract.model, 'read')];
  // Without a read, no URI names a pet to compare with.
  if (create === undefined || read === undefined) return undefined;
  const [createPath, readPath] = [create.path, read.path];
  const requested = new URL(requestUrl).pathname;
  const base = requested.endsWith(createPath) ? requested.slice(0, -createPath.length) : '';
  const expected = `${base}${readPath.replace(/\{[^}]+\}/, encodeURIComponent(id))}`;
  let path: string;
  try {
    path = new URL(location.trim(), requestUrl).pathname;
  } catch {
    return { problem: `a Location that is not a URI reference: ${location}`, expected };
  }
  // A trailing slash is tolerated: a framework that routes items with one serves the item there.
  if (decoded(path.replace(/\/$/, '')) === decoded(expected)) return undefined;
  const what =
    decoded(path.replace(/\/$/, '').split('/').at(-1) ?? '') === id ? `the new pet ${id} outside the base path` : `another pet than the new one ${id}`;
  return {
    problem: `a Location that names ${what}: ${path} (resolved against ${requestUrl}), where the pet is at ${expected}; RFC 9110 §10.2.2: the Location of a 201 refers to the resource created, and a client that follows this one reads another resource or none`,
    expected,
  };
}

/** 2^53: ids beyond it are lost by a client that parses them as doubles. */
const DOUBLE_EXACT = 2n ** 53n;

/** What two pets created one after the other, without a status, show of the deployment's choices. */
function observeIds(context: CheckContext, first: PetJson, second: PetJson): void {
  const [a, b] = [idOf(context, first), idOf(context, second)];
  if (!/^-?\d+$/.test(a) || !/^-?\d+$/.test(b)) return;
  const step = BigInt(b) - BigInt(a);
  // The default the server stores for the field the list filters by (the profile's `defaultStatus`).
  const filtered = listOf(context.contract).filters[0]?.field;
  const stored = filtered === undefined ? undefined : first[filtered];
  context.observe({
    // A step past 2^56 is no sequence and no time-ordered id (a day of those is below 2^49): ids drawn at random.
    idScheme: step > 0n && step < RANDOM_STEP ? 'increasing' : 'unordered',
    idsBeyondDouble: [a, b].some((id) => BigInt(id) > DOUBLE_EXACT || BigInt(id) < -DOUBLE_EXACT),
    defaultStatus: typeof stored === 'string' ? stored : 'omitted',
  });
}

/**
 * Bodies the spec's schema of the create's body rejects, each a valid body broken one way (body-breakages.ts):
 * a field missing, null or outside its enum, or no JSON. A field of another JSON type has its own check,
 * with a value the deployment would otherwise accept: createPet.types (check-types.ts).
 */
function invalidBodies(context: CheckContext): [string, string][] {
  const valid = parseJson(newPetBody(context.state, 'invalid'));
  const fields = isJsonObject(valid) ? Object.fromEntries(Object.entries(valid).map(([name, value]) => [name, stringifyJson(value)])) : {};
  return breakages(context.contract.body(context.kind('create')))
    .filter((breakage) => breakage.kind === 'field' || breakage.kind === 'syntax')
    .map((breakage) => [breakage.what, breakage.apply(fields)]);
}

export const createChecks: KindCheck[] = [
  {
    kind: 'create',
    name: 'echo',
    title: (op) =>
      `${op} answers 201 with the pet, echoing a non-ASCII name (Basic Multilingual Plane), the categoryId and the status exactly, with a Location naming it when it sends one`,
    writes: true,
    async run(context) {
      const create = context.kind('create');
      // Each filter's field with a value other than the first of its enum, which a server may store by default.
      const fields = Object.fromEntries(listOf(context.contract).filters.map(({ field, values }) => [field, values[1] ?? values[0] ?? null]));
      const created = await createPet(context, 'Zoë 小狗 "quoted"', { fields });
      expectEcho(context, created);
      const location = created.exchange.headers.get('location');
      // The spec describes Location, the interface does not ask for it: without one a client loses nothing it was promised.
      if (location === null || location.trim() === '')
        return context.advise(`${create}'s 201 carries no Location header, which the spec describes (the interface does not ask for it)`);
      const wrong = locationProblem(context, location, idOf(context, created.pet), created.exchange.request.url);
      if (wrong)
        context.fail(`${create}'s 201 carries ${wrong.problem}; write it from the base path the service is mounted under`, created.exchange, {
          expected: `Location: ${wrong.expected}`,
          actual: location,
          fault: `location:${create}`,
        });
    },
  },
  {
    kind: 'create',
    name: 'big-category',
    title: (op) => `${op} keeps a categoryId beyond 2^53 exactly (or refuses it with 400)`,
    writes: true,
    async run(context) {
      expectEcho(context, await createPet(context, 'big categoryId', { categoryId: BEYOND_DOUBLE }));
    },
  },
  {
    kind: 'create',
    name: 'unlisted-category',
    title: (op) => `${op} with a category no listed pet has answers 201 or 400 (a deployment may know only some categories)`,
    writes: true,
    async run(context) {
      const create = context.kind('create');
      const { category } = runFieldsOf(context.contract.model);
      const listed = [...new Set(context.state.listing.map((pet) => pet[category]).filter((id) => typeof id === 'bigint' || typeof id === 'number'))].map(
        String,
      );
      let unlisted = UNLISTED_CATEGORY;
      while (listed.includes(String(unlisted))) unlisted++;
      const exchange = await context.call(create, { body: newPetBody(context.state, 'unlisted category', { categoryId: String(unlisted) }) });
      if (exchange.status === 201) context.observe({ unlistedCategory: 'accepted' });
      else if (exchange.status === 400) context.observe({ unlistedCategory: 'refused', listedCategories: listed });
      else context.failStatus(`${create} answered ${exchange.status} for the category ${unlisted}`, exchange, '201 or 400');
    },
  },
  {
    kind: 'create',
    name: 'unique-ids',
    title: (op) => `${op} assigns every pet its own id`,
    writes: true,
    async run(context) {
      const create = context.kind('create');
      const first = await createPet(context, 'unique 1');
      const second = await createPet(context, 'unique 2');
      observeIds(context, first.pet, second.pet);
      const taken = new Set(context.state.listing.map((pet) => idOf(context, pet)));
      if (idOf(context, first.pet) === idOf(context, second.pet))
        context.fail(`${create} gave two new pets the same id ${idOf(context, first.pet)}`, second.exchange, { fault: idReusedFault(create) });
      for (const { pet, exchange } of [first, second]) {
        if (taken.has(idOf(context, pet)))
          context.fail(`${create} gave a new pet the id ${idOf(context, pet)} of a pet listed before`, exchange, { fault: idReusedFault(create) });
      }
    },
  },
  {
    kind: 'create',
    name: 'persisted',
    title: (op) => `a pet ${op} created is then readable by id, field by field as created, and listed (when the page is not full)`,
    writes: true,
    async run(context) {
      const { pet } = await createPet(context, 'persisted');
      await expectReread(context, pet, 'without a status');
      const page = await listPage(context);
      const max = maxLimit(context);
      if (page.pets.length < max) expectListed(context, pet, page, context.kind('list'));
    },
  },
  {
    kind: 'create',
    name: 'invalid',
    title: (op) => `${op} answers 400 to each invalid body (missing and null fields, a status outside the enum, malformed JSON)`,
    writes: true,
    async run(context) {
      const create = context.kind('create');
      for (const [what, body] of invalidBodies(context)) {
        const exchange = await context.call(create, { body });
        if (exchange.status !== 400) context.failStatus(`${create} answered ${exchange.status} to a body with ${what}`, exchange, '400');
      }
    },
  },
  ...bodyChecks,
  ...typeChecks,
];
