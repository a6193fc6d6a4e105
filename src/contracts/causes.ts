/**
 * One fault, one failure. A fault of the deployment (createPet answering 200, a store that keeps
 * nothing) fails every check that meets it, in both suites; the report names it once. A failed check
 * whose findings all carry faults (`Finding.fault`) that another failed check met too follows from
 * that check: it is listed under it (`follows`, `followers`) and not counted as a failure of its own.
 * A check with any finding of its own stays a failure of its own.
 */

import { operationsOf } from '../openapi/document.js';
import type { CheckResult } from './check.js';
import { type Contract, templatePattern } from './contract.js';

/** The deployment stopped answering after it had answered (a crash, a dropped connection): one fault, whichever requests met it. */
export const DROPPED = 'dropped:*';

/** An answer past the body cap, whichever operation and suite met it: one fault, as one server writes them all. */
export const TOO_LARGE = 'too-large:*';

/** A page longer than its `limit`, whatever the filter beside it: one fault of the list's paging. */
export function moreThanLimitFault(list: string): string {
  return `limit:${list}:more-than-asked`;
}

/** Pets of another value on the page filtered by `name`: one fault of the filter, whatever the limit beside it, whichever suite met it. */
export function otherValueFault(name: string): string {
  return `filter:*:other-${name}`;
}

/** Two items given one id: one fault of the create's id assignment, whichever check or the run-wide model met it. */
export function idReusedFault(create: string): string {
  return `unique:${create}:id`;
}

/** A page shorter than its `limit` (or the default) while more pets match: one fault of the list's paging. */
export function fewerThanLimitFault(list: string): string {
  return `limit:${list}:fewer-than-asked`;
}

/** The fault of a filter that serves pets for a value outside its enum (unknown, or one of it in another case), whichever check or suite sent one. */
export function unknownValueFault(operationId: string, name: string): string {
  return `unknown-value:${operationId}:${name}`;
}

/** The operation a fault is about: `status:createPet:200` is createPet's. */
function operationOfFault(fault: string): string | undefined {
  return fault.split(':')[1];
}

/** The faults of a failed check, and whether every finding carries one. */
function faultsOf(result: CheckResult): { faults: Set<string>; onlyShared: boolean } {
  const faults = new Set<string>();
  let onlyShared = result.findings.length > 0;
  for (const finding of result.findings) {
    if (finding.fault === undefined) onlyShared = false;
    else faults.add(finding.fault);
  }
  return { faults, onlyShared };
}

/**
 * The order in which failures are taken as causes: those with findings of their own first, then those
 * that met the most faults, then a check about the fault's own operation (`createPet.echo` rather
 * than `auth.createPet.accepted`), then the run's order.
 */
function causeOrder(results: readonly CheckResult[]): CheckResult[] {
  const rank = (result: CheckResult): number[] => {
    const { faults, onlyShared } = faultsOf(result);
    const operation = operationOfFault([...faults][0] ?? '');
    // A fault of every operation's answers (`*`) is best named by a check of the API's behaviour, not of its auth.
    const own = operation === '*' ? !result.id.startsWith('auth.') : operation !== undefined && result.id.startsWith(`${operation}.`);
    return [onlyShared ? 1 : 0, -faults.size, own ? 0 : 1, results.indexOf(result)];
  };
  const ranks = new Map(results.map((result) => [result, rank(result)]));
  return [...results].sort((a, b) => {
    const [x, y] = [ranks.get(a) ?? [], ranks.get(b) ?? []];
    const i = x.findIndex((value, n) => value !== y[n]);
    return i < 0 ? 0 : (x[i] ?? 0) - (y[i] ?? 0);
  });
}

/** The results, each failure that follows from another marked with `follows`, and each cause with its `followers`. */
export function groupByCause(results: readonly CheckResult[]): CheckResult[] {
  const failed = results.filter((result) => result.outcome === 'fail');
  const causes: { result: CheckResult; faults: Set<string> }[] = [];
  const follows = new Map<CheckResult, CheckResult>();
  for (const result of causeOrder(failed)) {
    const { faults, onlyShared } = faultsOf(result);
    const cause = onlyShared ? causes.find((candidate) => [...faults].every((fault) => candidate.faults.has(fault))) : undefined;
    if (cause) follows.set(result, cause.result);
    else causes.push({ result, faults });
  }
  const followers = new Map<CheckResult, string[]>();
  for (const [follower, cause] of follows) followers.set(cause, [...(followers.get(cause) ?? []), follower.id]);
  return results.map((result) => {
    const cause = follows.get(result);
    const mine = followers.get(result);
    if (cause) return { ...result, follows: cause.id };
    // In the run's order, as the checks are listed.
    if (mine) return { ...result, followers: results.filter((other) => mine.includes(other.id)).map((other) => other.id) };
    return result;
  });
}

/** The operation a request went to (`POST .../v1/pets` is createPet), from the spec's paths. */
export function operationAt(contract: Contract, method: string, url: string): string | undefined {
  const path = new URL(url, 'http://petstore-verify.invalid').pathname.replace(/\/+$/, '');
  return operationsOf(contract.doc)
    .map(({ operationId }) => contract.operation(operationId))
    .find((operation) => operation.method === method.toUpperCase() && templatePattern(operation.path, false).test(path))?.operationId;
}
