/**
 * An operation removed at its sunset, by the deployment's clock. The interface schedules the removal of
 * a deprecated operation ("before the removal date the operation keeps working"), and the spec says it
 * answers its documented 410 from its `x-sunset` on. Whose date decides is the deployment's, not the
 * machine the verifier runs on: a staging deployment may rehearse the removal with its clock ahead
 * (`petstore-mock --now`), and a real one is judged in 2031 as it will be then. The verifier reads that
 * clock where HTTP states it, in the response's `Date` (RFC 9110 §6.6.1: the origin's clock when it
 * made the response), and takes its own only when the deployment sends none.
 *
 * A documented 410 at or after the sunset by that clock is the removal, never a fault: the checks
 * that need the operation working skip, naming it, and so do the Pact interactions that reach it. A
 * 410 before the sunset by the deployment's own clock is an early removal, which the checks fail.
 */

import { operationsOf } from '../openapi/document.js';
import { type Contract, type ContractOperation, templatePattern } from './contract.js';

/** The deployment's clock as one response states it: its `Date`, else the verifier's own. */
export interface DeploymentClock {
  readonly at: number;
  /** The `Date` it was read from; `undefined` when the response had none the verifier could read. */
  readonly date: string | undefined;
}

/** The clock a response states: its `Date` when it is one (RFC 9110 §5.6.7 HTTP-date), else `fallback`. */
export function deploymentClock(date: string | null | undefined, fallback: Date): DeploymentClock {
  const at = date ? Date.parse(date) : Number.NaN;
  return Number.isNaN(at) ? { at: fallback.getTime(), date: undefined } : { at, date: date ?? undefined };
}

/** How the report names the clock: the deployment's `Date`, or this machine's when it sent none. */
export function clockName(clock: DeploymentClock): string {
  return clock.date === undefined ? "this machine's clock (the deployment sent no Date)" : `the deployment's clock (Date: ${clock.date})`;
}

/** The day of a sunset as the report writes it: `05 Dec 2030`. */
export function sunsetDay(sunset: Date): string {
  return sunset.toUTCString().slice(5, 16);
}

/** The operations of the run found removed: by id, why each is (the first response that showed it). */
export class Removals {
  readonly #reasons = new Map<string, string>();
  /** The operations with a sunset, by method, with a pattern of their path below the base URL's path. */
  readonly #sunsets: readonly { readonly operation: ContractOperation; readonly path: RegExp }[];

  constructor(
    contract: Contract,
    readonly now: Date,
  ) {
    this.#sunsets = operationsOf(contract.doc)
      .map(({ operationId }) => contract.operation(operationId))
      .filter((operation) => operation.sunset !== undefined)
      .map((operation) => ({ operation, path: templatePattern(operation.path, false) }));
  }

  /** Hears a response of `operation`: a documented 410 at or after its sunset by the deployment's clock is its removal. */
  heard(operation: ContractOperation, status: number, date: string | null | undefined): void {
    const { sunset } = operation;
    if (sunset === undefined || status !== 410 || !operation.statuses.has(410) || this.#reasons.has(operation.operationId)) return;
    const clock = deploymentClock(date, this.now);
    if (clock.at < sunset.getTime()) return;
    this.#reasons.set(
      operation.operationId,
      `${operation.operationId} is removed: the deployment answers it 410, as the spec says from its sunset (${sunsetDay(sunset)}) on, and by ${clockName(clock)} the sunset has passed`,
    );
  }

  /** Hears a response to a request the verifier did not send through a check (a Pact interaction's): its operation is found by method and path. */
  heardRequest(method: string, url: string, status: number, date: string | null | undefined): void {
    const operation = this.#reached(method, url);
    if (operation) this.heard(operation, status, date);
  }

  /** Why the operation a request reaches is removed; `undefined` when it is not, or reaches none with a sunset. */
  reasonFor(method: string, url: string): string | undefined {
    const operation = this.#reached(method, url);
    return operation && this.reason(operation.operationId);
  }

  reason(operationId: string): string | undefined {
    return this.#reasons.get(operationId);
  }

  #reached(method: string, url: string): ContractOperation | undefined {
    const path = new URL(url, 'http://verifier.invalid').pathname;
    return this.#sunsets.find((candidate) => candidate.operation.method === method.toUpperCase() && candidate.path.test(path))?.operation;
  }
}
