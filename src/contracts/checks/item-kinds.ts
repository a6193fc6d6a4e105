/**
 * What the checks of an item's kinds (a delete, a replace: checks/delete-checks.ts,
 * checks/replace-checks.ts) share: how a status they expect is held, and how a record they created
 * is read back.
 */
import { type Check, type CheckContext, statusFault } from '../check.js';
import type { Exchange } from '../http.js';

/** A check of an item's operation: every one writes (a record of its own, created first). */
export function itemCheck(id: string, operationId: string, title: string, run: Check['run']): Check {
  return { id, title, operationId, writes: true, run };
}

/** Fails unless `exchange` has a status `expected` lists; the fault is the operation's answering that status. */
export function expectStatus(context: CheckContext, exchange: Exchange, operationId: string, expected: readonly number[], what: string): boolean {
  if (expected.includes(exchange.status)) return true;
  context.failStatus(`${operationId} answered ${exchange.status} ${what}`, exchange, expected.join(' or '), statusFault(operationId, exchange.status));
  return false;
}
