/**
 * The run-wide invariants, judged over everything the model heard (deployment-model.ts), once the run
 * is over. Each holds for any deployment of the interface, whatever it chooses where the interface
 * leaves room (the order of a page, the status of an item created without one, the form of its ids):
 * - an id is given to one item only, across the run;
 * - an item acknowledged by a create, or shown by the deployment, stays readable by its id with what it
 *   was acknowledged with until the run ends, however many creates came after it (the interface names no
 *   operation that removes or changes an item; when the spec does, the item is judged until one succeeds);
 * - a page agrees with the items as read: each item on it as read elsewhere, only items its filters
 *   select, and, when it holds fewer than its limit, every item that existed when it was asked for
 *   and that its filters select;
 * - every field a valid body sends is stored and returned as sent;
 * - an item a delete removed is gone: no read answers it, no page lists it, whichever suite asked.
 * Every failure names the requests that show it; many responses showing one fault are one finding.
 */
import { definedFields } from '../../json/defined-fields.js';
import { fewerThanLimitFault, idReusedFault, moreThanLimitFault, otherValueFault } from '../causes.js';
import { type CheckResult, type Finding, statusFault } from '../check.js';
import { changedFieldFault, differingFields, exact, fieldsCompared, type PetJson, sameJson } from '../pets.js';
import type { Acknowledged, DeploymentModel, HeaderPresence, Heard, Page } from './deployment-model.js';

/** Findings by fault: the first response that showed each, and how many did. */
class Tally {
  readonly #byFault = new Map<string, { finding: Finding; count: number }>();

  add(fault: string, heard: Heard, message: string, details: { expected?: string; actual?: string; replay?: readonly Heard[] } = {}): void {
    const known = this.#byFault.get(fault);
    if (known) {
      known.count++;
      return;
    }
    const { expected, actual, replay } = details;
    const finding: Finding = {
      message,
      fault,
      request: heard.request,
      status: heard.status,
      ...definedFields({ expected, actual }),
      ...(replay === undefined ? {} : { replay: [...replay, heard].map((step) => step.request) }),
    };
    this.#byFault.set(fault, { finding, count: 1 });
  }

  get findings(): Finding[] {
    return [...this.#byFault.values()].map(({ finding, count }) =>
      count === 1 ? finding : { ...finding, message: `${finding.message} (and ${count - 1} more response${count === 2 ? '' : 's'} like it)` },
    );
  }
}

/** A request as a report names it: `POST http://.../v1/pets`. */
function named(heard: Heard): string {
  return `${heard.request.method} ${heard.request.url}`;
}

/** What the model knows of an item: the response that first showed it (a create's acknowledgment first), and the item as shown there. */
interface Known {
  readonly by: Heard;
  readonly item: PetJson;
  /** True when a create acknowledged it: then every field is held to the acknowledgment, not only those both responses show. */
  readonly acknowledged: boolean;
  /**
   * The item as a create or a read by id showed it, every field it has: a page may leave out a field the
   * schema does not require, so what a page alone showed says nothing of a field it lacks.
   */
  readonly whole: { readonly item: PetJson; readonly by: Heard } | undefined;
}

/** Each item a page or a read showed, by id: the response that showed it first, and the item as shown there. */
function firstShown(model: DeploymentModel): Map<string, { by: Heard; item: PetJson }> {
  const shown = [
    ...model.pages.flatMap((page) => page.items.map((item) => ({ by: page as Heard, item }))),
    ...model.reads.flatMap((read) => (read.item ? [{ by: read as Heard, item: read.item }] : [])),
  ].sort((a, b) => a.by.heardAt - b.by.heardAt);
  const first = new Map<string, { by: Heard; item: PetJson }>();
  for (const sighting of shown) {
    const id = exactId(model, sighting.item);
    if (id !== undefined && !first.has(id)) first.set(id, sighting);
  }
  return first;
}

/** Every item the run saw, by id: as its create acknowledged it, else as first shown on a page or read. */
function knownItems(model: DeploymentModel): Map<string, Known> {
  const known = new Map<string, Known>();
  for (const ack of model.acknowledged)
    if (!known.has(ack.id)) known.set(ack.id, { by: ack, item: ack.item, acknowledged: true, whole: { item: ack.item, by: ack } });
  const read = new Map<string, { item: PetJson; by: Heard }>();
  for (const by of [...model.reads].sort((a, b) => a.heardAt - b.heardAt)) if (by.item && !read.has(by.id)) read.set(by.id, { item: by.item, by });
  for (const [id, { by, item }] of firstShown(model)) if (!known.has(id)) known.set(id, { by, item, acknowledged: false, whole: read.get(id) });
  return known;
}

function exactId(model: DeploymentModel, item: PetJson): string | undefined {
  const value = item[model.contract.model.id.field];
  if (typeof value === 'string') return value;
  return value === undefined ? undefined : exact(value);
}

/** True when `later` left after the model heard `earlier`: what `earlier` showed was there to be seen. */
function after(later: Heard, earlier: Heard): boolean {
  return later.sentAt > earlier.heardAt;
}

/** True when a request that changes or removes the item had been sent by the time `heard` was answered. */
function changedBy(model: DeploymentModel, id: string, heard: Heard): boolean {
  const change = model.changed.get(id);
  return change !== undefined && change.sentAt <= heard.heardAt;
}

/** Ids unique across the run: no two acknowledged creates share one, nor does a create reuse the id of an item shown before it was sent. */
function idsUnique(model: DeploymentModel): Finding[] {
  const tally = new Tally();
  const shownBefore = firstShown(model);
  const first = new Map<string, Acknowledged>();
  for (const ack of [...model.acknowledged].sort((a, b) => a.heardAt - b.heardAt)) {
    const earlier = first.get(ack.id);
    const shown = shownBefore.get(ack.id);
    if (earlier)
      tally.add(
        idReusedFault(model.kinds.create.operationId),
        ack,
        `${model.kinds.create.operationId} gave the id ${ack.id} to two items: ${named(earlier)} and ${named(ack)} both answered ${ack.status} with it`,
        { expected: 'an id no other item has', actual: `id ${ack.id} twice`, replay: [earlier] },
      );
    else if (shown && after(ack, shown.by))
      tally.add(
        idReusedFault(model.kinds.create.operationId),
        ack,
        `${model.kinds.create.operationId} gave a new item the id ${ack.id}, which ${named(shown.by)} had already shown for another item before it was sent`,
        { expected: 'an id no other item has', actual: `id ${ack.id} again`, replay: [shown.by] },
      );
    if (!earlier) first.set(ack.id, ack);
  }
  return tally.findings;
}

/** How many creates were acknowledged between two moments: what a cache of recent items would have to hold. */
function createsBetween(model: DeploymentModel, from: Heard, to: Heard): number {
  return model.acknowledged.filter((ack) => ack.heardAt > from.heardAt && ack.sentAt < to.sentAt).length;
}

/** An item known to the run stays readable by its id, with what it was acknowledged (or first shown) with. */
function persisted(model: DeploymentModel, known: Map<string, Known>): Finding[] {
  const tally = new Tally();
  const { fields } = model;
  const { read } = model.kinds;
  for (const got of model.reads) {
    const ref = known.get(got.id);
    if (!ref || !after(got, ref.by) || changedBy(model, got.id, got)) continue;
    const what = `the item ${got.id} that ${named(ref.by)} ${ref.acknowledged ? 'acknowledged' : 'showed'}`;
    if (got.item === undefined) {
      tally.add(
        // The fault a check's re-read of a created pet meets too: a pet that exists, answered 404.
        statusFault(read.operationId, 404),
        got,
        `${read.operationId} answered 404 for ${what}, ${createsBetween(model, ref.by, got)} acknowledged creates later: an item stays readable by its id until the run ends (does a cache or a store drop items after enough creates?)`,
        { expected: '200 with the item', actual: '404', replay: [ref.by] },
      );
      continue;
    }
    const item = got.item;
    // A page may show fewer fields than a read: an item first shown on one is held to the fields both show.
    const differ = ref.acknowledged
      ? differingFields(fields, ref.item, item)
      : fields.filter((f) => f in ref.item && f in item && !sameJson(ref.item[f], item[f]));
    if (differ.length > 0)
      tally.add(`reread:${read.operationId}:changed`, got, `${read.operationId} answered ${what} with other ${differ.join(', ')}`, {
        ...fieldsCompared(differ, ref.item, item),
        replay: [ref.by],
      });
  }
  return tally.findings;
}

/** True when the item, as known, has every value the page's filters select. */
function selected(item: PetJson, filters: ReadonlyMap<string, string>): boolean {
  return [...filters].every(([field, value]) => item[field] === value);
}

/** Each item on a page as known elsewhere, and of the values its filters select. */
function pageItems(model: DeploymentModel, known: Map<string, Known>, page: Page, tally: Tally): void {
  const list = model.kinds.list.operationId;
  for (const item of page.items) {
    const id = exactId(model, item);
    const ref = id === undefined ? undefined : known.get(id);
    if (id === undefined || !ref || changedBy(model, id, page)) continue;
    const differ = model.fields.filter((field) => field in ref.item && field in item && !sameJson(ref.item[field], item[field]));
    if (differ.length > 0)
      // The fault of a re-read that shows another item than acknowledged: one store, one fault, whichever response showed it.
      tally.add(
        `reread:${model.kinds.read.operationId}:changed`,
        page,
        `${list} shows the item ${id} with other ${differ.join(', ')} than ${named(ref.by)} did`,
        {
          expected: differ.map((field) => `${field}: ${exact(ref.item[field])}`).join(', '),
          actual: differ.map((field) => `${field}: ${exact(item[field])}`).join(', '),
          replay: [ref.by],
        },
      );
    for (const [field, value] of page.judged?.filters ?? []) {
      // Its value as this page shows it, else as a create or a read showed the whole item; unknown when neither did.
      const whole = ref.whole;
      const shown = field in item ? item[field] : whole?.item[field];
      if (shown !== value && (field in item || whole !== undefined))
        tally.add(
          otherValueFault(field),
          page,
          `${list} with ${field}=${value} lists the item ${id}, whose ${field} is ${shown === undefined ? 'absent' : exact(shown)}${field in item ? ' on that page' : ` as ${named(ref.by)} showed it`}: a filter selects only the items with its value`,
          {
            expected: `only items with ${field} ${value}`,
            actual: `the item ${id} with ${field} ${shown === undefined ? '(absent)' : exact(shown)}`,
            replay: [ref.by],
          },
        );
    }
  }
}

/** A page holds at most its limit; with fewer items, it lists every item that existed when it was asked for and that its filters select. */
function pageComplete(model: DeploymentModel, known: Map<string, Known>, page: Page, tally: Tally): void {
  const { judged } = page;
  const list = model.kinds.list.operationId;
  if (judged !== undefined && page.items.length > judged.limit)
    tally.add(moreThanLimitFault(list), page, `${list} answered ${page.items.length} items to a request for at most ${judged.limit}`, {
      expected: `at most ${judged.limit} items`,
      actual: `${page.items.length} items`,
    });
  if (judged === undefined || page.items.length >= judged.limit) return;
  const listed = new Set(page.items.map((item) => exactId(model, item)));
  const filtered = [...judged.filters].map(([field, value]) => `${field}=${value}`).join('&');
  const missing = [...known].filter(
    ([id, ref]) => !listed.has(id) && after(page, ref.by) && !changedBy(model, id, page) && selected(ref.whole?.item ?? ref.item, judged.filters),
  );
  // A page without items that were there before the run is cut short (the fault of its paging, as a check of the limit names it);
  // one without only the items the run created has not stored them where it lists (as a check of a created pet names it).
  const fault = missing.every(([, ref]) => ref.acknowledged) ? `listed:${list}:created` : fewerThanLimitFault(list);
  for (const [id, ref] of missing) {
    tally.add(
      fault,
      page,
      `${list}${filtered === '' ? '' : ` with ${filtered}`} answered ${page.items.length} items, fewer than its limit ${judged.limit}, without the item ${id} that ${named(ref.by)} ${ref.acknowledged ? 'acknowledged' : 'showed'} before it was asked for${filtered === '' ? '' : `, with ${filtered}`}: a page with room lists every item its filters select`,
      { expected: `the item ${id} listed`, actual: `${page.items.length} other items`, replay: [ref.by] },
    );
  }
}

/** Every field a create sent in a body its schema accepts comes back in the acknowledgment, as sent. */
function fieldsKept(model: DeploymentModel): Finding[] {
  const tally = new Tally();
  const create = model.kinds.create.operationId;
  for (const ack of model.acknowledged) {
    for (const [field, sent] of Object.entries(ack.sent ?? {})) {
      const got = ack.item[field];
      if (sameJson(sent, got)) continue;
      const text = exact(sent);
      tally.add(
        changedFieldFault(create, field, text, got),
        ack,
        got === undefined
          ? `${create} acknowledged a valid body with ${field} ${text} but its item has no ${field}: every field the schema names is stored and returned`
          : `${create} acknowledged a valid body with ${field} ${text} but stored ${field} ${exact(got)}`,
        { expected: `${field} ${text}`, actual: got === undefined ? '(absent)' : `${field} ${exact(got)}` },
      );
    }
  }
  return tally.findings;
}

/** An item the resource model's delete removed is answered by no read and listed on no page sent after the delete was answered. */
function removedGone(model: DeploymentModel): Finding[] {
  const tally = new Tally();
  const { read, list } = model.kinds;
  for (const [id, removal] of model.removed) {
    for (const got of model.reads)
      if (got.id === id && got.item !== undefined && after(got, removal))
        tally.add(
          `deleted:${read.operationId}:${got.status}`,
          got,
          `${read.operationId} answered ${got.status} for the item ${id} after ${named(removal)} removed it`,
          {
            expected: '404',
            actual: String(got.status),
            replay: [removal],
          },
        );
    for (const page of model.pages)
      if (after(page, removal) && page.items.some((item) => exactId(model, item) === id))
        tally.add(`deleted:${list.operationId}:listed`, page, `${list.operationId} lists the item ${id} after ${named(removal)} removed it`, {
          expected: `no item ${id}`,
          actual: `the item ${id} listed`,
          replay: [removal],
        });
  }
  return tally.findings;
}

/** `a, b and c` */
function listed(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/**
 * A header the spec documents on several of an operation's responses, sent on some and not on others:
 * the interface leaves the header open, and a deployment that sends none of them makes that choice (advice,
 * said by the checks); one that sends it has taken the spec's header, and then owes it on every response
 * the spec documents it on. One finding per operation, naming the headers, the statuses that lacked them
 * and the first response that did: one place writes those answers without them.
 */
function headersEverywhere(model: DeploymentModel): Finding[] {
  const byOperation = new Map<string, HeaderPresence[]>();
  for (const presence of model.headerPresence.values())
    if (presence.sentOn.size > 0 && presence.missing.size > 0 && missingWhereRequired(presence).length === 0)
      byOperation.set(presence.operationId, [...(byOperation.get(presence.operationId) ?? []), presence]);
  return [...byOperation].map(([operationId, presences]) => {
    const names = presences.map((presence) => presence.name);
    const sentOn = [...new Set(presences.flatMap((presence) => [...presence.sentOn]))].sort();
    const missing = [...new Set(presences.flatMap((presence) => [...presence.missing.keys()]))].sort();
    const first = presences
      .flatMap((presence) => [...presence.missing.values()])
      .reduce((earliest, entry) => (entry.first.heardAt < earliest.first.heardAt ? entry : earliest));
    const count = Math.max(...presences.flatMap((presence) => [...presence.missing.values()].map((entry) => entry.count)));
    return {
      message: `${operationId} sends ${listed(names)} on its ${listed(sentOn.map(String))} answers but not on its ${listed(missing.map(String))} answers (${count} responses, the first ${first.first.request.method} ${first.first.request.url}), where the spec documents ${names.length === 1 ? 'it' : 'them'} on each: set ${names.length === 1 ? 'it' : 'them'} where every answer of ${operationId} is written (a middleware or an after-hook), not only on its ${listed(sentOn.map(String))} path`,
      fault: `header-presence:${operationId}`,
      request: first.first.request,
      status: first.first.status,
      expected: `${listed(names)} on every ${listed(missing.map(String))} answer of ${operationId}, as on its ${listed(sentOn.map(String))} answers`,
      actual: 'none',
    };
  });
}

/** The statuses a header was missing on where its header object marks it `required`. */
function missingWhereRequired(presence: HeaderPresence): number[] {
  return [...presence.missing.keys()].filter((status) => presence.requiredOn.has(status)).sort();
}

/**
 * A header the spec's header object marks `required` (OpenAPI 3.1 §4.8.21) on a response, missing from
 * one: whether the interface names the header or not, the spec then says every such response carries
 * it, from the header object, with no code per header. One finding per operation, as for a header sent
 * on some answers only (the same fault: one place writes the answers without it).
 */
function requiredHeaders(model: DeploymentModel): Finding[] {
  const byOperation = new Map<string, HeaderPresence[]>();
  for (const presence of model.headerPresence.values())
    if (missingWhereRequired(presence).length > 0) byOperation.set(presence.operationId, [...(byOperation.get(presence.operationId) ?? []), presence]);
  return [...byOperation].map(([operationId, presences]) => {
    const names = presences.map((presence) => presence.name);
    const statuses = [...new Set(presences.flatMap(missingWhereRequired))].sort();
    const entries = presences
      .flatMap((presence) => missingWhereRequired(presence).map((status) => presence.missing.get(status)))
      .filter((entry) => entry !== undefined);
    const first = entries.reduce((earliest, entry) => (entry.first.heardAt < earliest.first.heardAt ? entry : earliest));
    const count = Math.max(...entries.map((entry) => entry.count));
    return {
      message: `${operationId} answered ${listed(statuses.map(String))} without ${listed(names)} (${count} responses, the first ${first.first.request.method} ${first.first.request.url}), which the spec's header object marks required on ${names.length === 1 ? 'that response' : 'those responses'}: send ${names.length === 1 ? 'it' : 'them'} on every ${listed(statuses.map(String))} answer of ${operationId}`,
      fault: `header-presence:${operationId}`,
      request: first.first.request,
      status: first.first.status,
      expected: `${listed(names)} on every ${listed(statuses.map(String))} answer of ${operationId} (required: true)`,
      actual: 'none',
    };
  });
}

function documentedHeaders(model: DeploymentModel): Finding[] {
  return [
    ...requiredHeaders(model),
    ...headersEverywhere(model),
    ...[...model.headerProblems.values()].map((problem) => ({
      message: `${problem.operationId} answered ${problem.first.status} with ${problem.name}: ${problem.value.slice(0, 120)}, which breaks the schema the spec documents for it (${problem.message})${problem.count > 1 ? `, in ${problem.count} responses` : ''}`,
      fault: `header:${problem.name}`,
      request: problem.first.request,
      status: problem.first.status,
      expected: `${problem.name} as its schema in the spec says`,
      actual: problem.value.slice(0, 120),
    })),
  ];
}

function responsesConform(model: DeploymentModel): Finding[] {
  return [...model.responseProblems.values()].map((problem) => ({
    message: `${problem.message}${problem.count > 1 ? ` (in ${problem.count} responses)` : ''}`,
    fault: problem.fault,
    request: problem.first.request,
    status: problem.first.status,
  }));
}

interface Invariant {
  readonly id: string;
  /** False when the run gave it nothing to judge and it is better left out of the report than skipped. */
  readonly applies?: (model: DeploymentModel) => boolean;
  readonly title: string;
  /** Why nothing could be judged, when nothing was. */
  readonly idle: (model: DeploymentModel) => string | undefined;
  readonly judge: (model: DeploymentModel, known: Map<string, Known>) => Finding[];
}

export const INVARIANTS: readonly Invariant[] = [
  {
    id: 'run.ids-unique',
    title: 'across the run, every acknowledged create has an id of its own, never one an item already had',
    idle: (model) => (model.acknowledged.length === 0 ? 'the run created no item' : undefined),
    judge: idsUnique,
  },
  {
    id: 'run.persisted',
    title: 'an item acknowledged or shown stays readable by its id, as it was, until the run ends, however many creates came after it',
    idle: (model) => (model.reads.length === 0 ? 'the run read no item by its id' : undefined),
    judge: persisted,
  },
  {
    id: 'run.pages',
    title: 'every page agrees with the items as read: the same fields, only what its filters select, at most its limit, and every such item when it has room',
    idle: (model) => (model.pages.length === 0 ? 'the run listed no page' : undefined),
    judge: (model, known) => {
      const tally = new Tally();
      for (const page of model.pages) {
        pageItems(model, known, page, tally);
        pageComplete(model, known, page, tally);
      }
      return tally.findings;
    },
  },
  {
    id: 'run.fields',
    title: 'every field of a valid body, the optional ones included, is stored and returned as sent',
    idle: (model) => (model.acknowledged.some((ack) => ack.sent !== undefined) ? undefined : 'the run created no item from a valid body'),
    judge: fieldsKept,
  },
  {
    id: 'run.removed',
    title: 'an item a delete removed is gone for the rest of the run: no read answers it, no page lists it, whichever suite asked',
    applies: (model) => model.removed.size > 0,
    idle: () => undefined,
    judge: removedGone,
  },
  {
    id: 'run.headers',
    title:
      'every header the spec documents for a response, when sent, keeps its schema (pattern, enum, type), on every response of the run; one sent on some of an operation’s responses is sent on every one the spec documents it on, and one its header object marks required on every one',
    idle: (model) =>
      model.headersSent === 0 && ![...model.headerPresence.values()].some((presence) => missingWhereRequired(presence).length > 0)
        ? 'no response sent a header the spec documents for it'
        : undefined,
    judge: documentedHeaders,
  },
  {
    id: 'run.pact-responses',
    title: 'every response the Pact suite met keeps the spec too: a documented status, JSON, the schema of its status',
    applies: (model) => model.inspected > 0,
    idle: () => undefined,
    judge: responsesConform,
  },
];

/** The invariants as results of the run, judged over everything the model heard. */
export function judgeInvariants(model: DeploymentModel): CheckResult[] {
  const known = knownItems(model);
  return INVARIANTS.filter((invariant) => invariant.applies?.(model) ?? true).map((invariant) => {
    const started = performance.now();
    const base = { id: invariant.id, suite: 'run' as const, title: invariant.title, operationId: undefined, warnings: [] };
    const findings = invariant.judge(model, known);
    const idle = findings.length === 0 ? invariant.idle(model) : undefined;
    return {
      ...base,
      outcome: findings.length > 0 ? 'fail' : idle === undefined ? 'pass' : 'skip',
      ms: performance.now() - started,
      findings,
      ...(idle === undefined ? {} : { reason: idle }),
    };
  });
}

/** The ids of the earliest items the run created: what a final read checks are still there, after every later create. */
export function earliestAcknowledged(model: DeploymentModel, count: number): string[] {
  return [...new Set([...model.acknowledged].sort((a, b) => a.heardAt - b.heardAt).map((ack) => ack.id))].slice(0, count);
}
