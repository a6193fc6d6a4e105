import { INT64_MAX, INT64_MIN } from '../../json/int64.js';
import { objectText } from '../body-breakages.js';
import { idReusedFault } from '../causes.js';
import type { CheckContext, KindCheck } from '../check.js';
import type { Exchange } from '../http.js';
import { runFieldsOf } from '../pet-fields.js';
import { bodyCategoryId, changedFieldFault, createPet, exact, expectReread, idOf, isPet, petName } from '../pets.js';

/** A body at a boundary of the NewPet schema, each field as the exact JSON text sent. */
interface Boundary {
  readonly what: string;
  readonly fields: Readonly<Record<string, string>>;
  /** True when no correct deployment may accept it. */
  readonly mustReject?: boolean;
  /** Why it must be rejected, in the spec's words, when that is not plain from `what`. */
  readonly because?: string;
  /**
   * The same body with the field at another valid value of the same standing (a value the run never sent
   * before): when the deployment refuses the boundary and takes this, it refused the value itself.
   */
  readonly control?: { readonly what: string; readonly fields: Readonly<Record<string, string>> };
  /** Why a deployment may refuse the boundary though its control is taken (a mainstream framework's default): advice, not a failure. */
  readonly mayRefuse?: string;
}

/** An integer no listed pet is likely to have as its category, as new to the deployment as 0 is. */
const FRESH_INTEGER = '4242425';

/** A value some code takes for "not sent", and another of the same type as new to the deployment: see `zeroValues`. */
interface ZeroValue {
  readonly zero: string;
  readonly other: string;
  readonly mayRefuse?: string;
}

/**
 * The values of a JSON type that some code takes for "not sent" (Go's zero values, a truthiness test in
 * JavaScript, Python, Perl or PHP), where JSON Schema makes each a value like any other when the
 * field's schema allows it: `""`, `0`, `false`, and the string `"0"`, false in Perl and PHP. Each comes
 * with another value of the type as new to the deployment. A blank string is one mainstream frameworks
 * refuse by default (Django REST framework's `CharField`, `allow_blank=False`; Rails' `presence`):
 * refusing it is advice.
 */
function zeroAndOther(state: CheckContext['state'], field: string, type: string | undefined): ZeroValue[] {
  if (type === 'string')
    return [
      {
        zero: '""',
        other: JSON.stringify(petName(state, `${field} not empty`)),
        mayRefuse: "a blank string, which Django REST framework's CharField (allow_blank=False) and Rails' presence validation refuse by default",
      },
      { zero: '"0"', other: '"1"' },
    ];
  if (type === 'integer' || type === 'number') return [{ zero: '0', other: FRESH_INTEGER }];
  if (type === 'boolean') return [{ zero: 'false', other: 'true' }];
  return [];
}

/**
 * Each field at each value some code takes for "not sent", when its schema allows it there (the body
 * stays valid), with its control. Not the field the run names its pets with: every pet the run creates
 * carries the run's prefix there, so that a shared staging can tell them apart (docs/verifier.md).
 */
function zeroValues(context: CheckContext, valid: (purpose: string) => Readonly<Record<string, string>>): Boundary[] {
  const shape = context.contract.body(context.kind('create'));
  const cases: Boundary[] = [];
  const named = valid('zero');
  const isValid = (body: Record<string, string>) =>
    (context.contract.requestViolations(context.kind('create'), JSON.parse(objectText(body))) ?? []).length === 0;
  for (const [field, { type, enum: allowed }] of Object.entries(shape.properties)) {
    if (allowed !== undefined || named[field]?.startsWith('"')) continue;
    for (const { zero, other, mayRefuse } of zeroAndOther(context.state, field, type)) {
      const fields = { ...valid(`${field} zero`), [field]: zero };
      const control = { ...valid(`${field} control`), [field]: other };
      if (!isValid(fields) || !isValid(control)) continue;
      const what = zero === '"0"' ? `${field} "0" (false to a truthiness test in Perl and PHP)` : `${field} ${zero} (the zero value of its type)`;
      cases.push({ what, fields, control: { what: `${field} ${other}`, fields: control }, ...(mayRefuse === undefined ? {} : { mayRefuse }) });
    }
  }
  return cases;
}

const LONG = 10_000;
/** Astral-plane characters (UTF-16 surrogate pairs), a ZWJ sequence and a flag: what utf8mb3 columns and naive truncation break. */
const ASTRAL = '𝒳𝓎 🦄 👩‍👩‍👧 🇳🇴 𓀀';

/**
 * Boundaries derived from the schema of createPet's body: the empty object; each int64 field at its
 * minimum and maximum and one past each; each free string 10,000 characters long and made of
 * astral-plane characters; an `id`, which the service assigns; each enum value in another case.
 */
function boundaries(context: CheckContext, categoryId: string): Boundary[] {
  const { state } = context;
  const shape = context.contract.body(context.kind('create'));
  const run = runFieldsOf(context.contract.model);
  const valid = (purpose: string) => ({ [run.name]: JSON.stringify(petName(state, purpose)), [run.category]: categoryId });
  const cases: Boundary[] = [{ what: 'an empty object', fields: {}, mustReject: true }];
  for (const [field, { type, format, enum: allowed }] of Object.entries(shape.properties)) {
    if (type === 'integer' && format === 'int64') {
      for (const [label, value] of [
        ['the int64 minimum', INT64_MIN],
        ['the int64 maximum', INT64_MAX],
        ['one below the int64 minimum', INT64_MIN - 1n],
        ['one above the int64 maximum', INT64_MAX + 1n],
      ] as const) {
        cases.push({ what: `${field} ${label}`, fields: { ...valid(`${field} ${label}`), [field]: String(value) } });
      }
    }
    if (type === 'string' && allowed === undefined) {
      const long = `${petName(state, `${field} long`)} ${'x'.repeat(LONG)}`;
      cases.push({ what: `a ${field} of ${long.length} characters`, fields: { ...valid('long'), [field]: JSON.stringify(long) } });
      cases.push({ what: `a ${field} in astral-plane unicode`, fields: { ...valid('astral'), [field]: JSON.stringify(`${petName(state, field)} ${ASTRAL}`) } });
      // Trailing spaces are part of the string: trimming it is changing it (the name still starts with the run's prefix, to be found on a staging).
      cases.push({
        what: `a ${field} ending in spaces`,
        fields: { ...valid('padded'), [field]: JSON.stringify(`${petName(state, `${field} padded`)}   `) },
      });
    }
    if (allowed !== undefined) {
      const values = allowed.filter((value): value is string => typeof value === 'string');
      // An enum is matched exactly (JSON Schema): a value in another case is outside it, whatever it resembles.
      const because = `the spec's enum for ${field} is ${values.map((value) => JSON.stringify(value)).join(', ')}, matched exactly`;
      for (const other of enumInOtherCase(values))
        cases.push({
          what: `${field} ${JSON.stringify(other)}`,
          fields: { ...valid(`${field} case`), [field]: JSON.stringify(other) },
          mustReject: true,
          because,
        });
    }
  }
  return cases;
}

/** The first value of an enum capitalized and the last in upper case, where that changes them. */
function enumInOtherCase(values: readonly string[]): string[] {
  const first = values[0];
  const last = values.at(-1);
  const others = [first === undefined ? undefined : `${first.charAt(0).toUpperCase()}${first.slice(1)}`, last === undefined ? undefined : last.toUpperCase()];
  return [...new Set(others.filter((other): other is string => other !== undefined && !values.includes(other)))];
}

/** The `id` a client sends: a pet's that exists, so that honouring it would also break uniqueness. */
function clientId(context: CheckContext): string {
  const listed = context.state.listing[0];
  return listed ? idOf(context, listed) : '1';
}

/**
 * A body refused with 400 whose control (the same body, the field at another value as new) is taken: the
 * deployment refused the value itself, a value its schema allows, as if the field were not sent.
 */
async function refusedAlone(
  context: CheckContext,
  what: string,
  refused: Exchange,
  control: NonNullable<Boundary['control']>,
  mayRefuse: string | undefined,
): Promise<void> {
  const other = await context.call(context.kind('create'), { body: objectText(control.fields) });
  if (other.status !== 201) return;
  if (mayRefuse !== undefined) {
    context.advise(
      `${context.kind('create')} refused a body with ${what} and took the same body with ${control.what}: ${mayRefuse}, though the spec's schema allows it`,
    );
    return;
  }
  context.fail(
    `${context.kind('create')} refused a body with ${what} with 400, and took the same body with ${control.what}: the schema allows the zero value, so it is a value, not a missing field; test whether the field was sent, not whether its value is empty or 0`,
    refused,
    { expected: '201, as for any valid value', actual: '400', fault: `zero-value:${context.kind('create')}` },
  );
}

export const bodyChecks: KindCheck[] = [
  {
    kind: 'create',
    name: 'boundaries',
    title: (op) =>
      `${op} refuses with 400, or accepts and echoes exactly, bodies at the edges of the schema: {}, int64 limits and one past, 10,000 characters, astral unicode, enum values in another case; a client-sent id is never honoured`,
    writes: true,
    async run(context) {
      const idSent = clientId(context);
      // A category the deployment accepts, so that each body is judged by its boundary alone.
      const categoryId = await bodyCategoryId(context.state);
      const run = runFieldsOf(context.contract.model);
      const valid = (purpose: string) => ({ [run.name]: JSON.stringify(petName(context.state, purpose)), [run.category]: categoryId });
      const cases: Boundary[] = [
        ...boundaries(context, categoryId),
        ...zeroValues(context, valid),
        { what: `an id of its own (${idSent})`, fields: { ...valid('client id'), [context.idField]: idSent } },
      ];
      for (const { what, fields, mustReject, because, control, mayRefuse } of cases) {
        const exchange = await context.call(context.kind('create'), { body: objectText(fields) });
        if (exchange.status === 400 && control !== undefined) await refusedAlone(context, what, exchange, control, mayRefuse);
        if (exchange.status === 400) continue;
        if (exchange.status !== 201) {
          context.failStatus(`${context.kind('create')} answered ${exchange.status} to a body with ${what}`, exchange, '400, or 201 echoing it');
          continue;
        }
        if (mustReject) {
          context.fail(`${context.kind('create')} accepted a body with ${what}${because ? `: ${because}` : ''}`, exchange, { expected: '400', actual: '201' });
          continue;
        }
        if (!isPet(context, exchange.json)) continue;
        const pet = exchange.json;
        for (const [field, sent] of Object.entries(fields)) {
          if (field === context.idField) {
            if (exact(pet[field]) === sent)
              context.fail(`${context.kind('create')} honoured the id ${sent} the client sent`, exchange, {
                expected: 'an id the service assigns',
                actual: `id ${sent}`,
              });
          } else if (exact(pet[field]) !== sent) {
            const got = pet[field] === undefined ? '(missing)' : exact(pet[field]);
            context.fail(`${context.kind('create')} accepted a body with ${what} but changed ${field}`, exchange, {
              expected: sent.length > 200 ? `${sent.slice(0, 200)}… (${sent.length} characters)` : sent,
              actual: got.length > 200 ? `${got.slice(0, 200)}… (${got.length} characters)` : got,
              fault: changedFieldFault(context.kind('create'), field, sent, pet[field]),
            });
          }
        }
        await expectReread(context, pet, `with ${what}`);
      }
    },
  },
  {
    kind: 'create',
    name: 'burst',
    title: (op) => `a burst of parallel ${op} requests yields distinct ids, each readable as created`,
    writes: true,
    async run(context) {
      const created = await Promise.all(Array.from({ length: BURST }, (_, i) => createPet(context, `burst ${i + 1}`)));
      const ids = created.map(({ pet }) => idOf(context, pet));
      const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
      if (repeated.length > 0) {
        const exchange = created.find(({ pet }) => idOf(context, pet) === repeated[0])?.exchange;
        context.fail(`${BURST} parallel creates gave the same id ${[...new Set(repeated)].join(', ')} to more than one pet`, exchange, {
          expected: `${BURST} distinct ids`,
          actual: ids.join(', '),
          fault: idReusedFault(context.kind('create')),
        });
      }
      await Promise.all(created.map(({ pet }) => expectReread(context, pet, 'in a burst of parallel creates')));
    },
  },
];

/** Creates sent at once: as many as the verifier sends in parallel by default. */
const BURST = 4;
