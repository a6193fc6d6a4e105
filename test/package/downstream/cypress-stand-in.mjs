// A stand-in for the part of Cypress that docs/recipes.md's Cypress recipe uses, so that vitest can run the
// recipe's support file and spec as written: Cypress's binary cannot be downloaded where this repository's
// tests run. `cy.request` makes the same HTTP call Cypress makes from its Node process (no Origin header, a
// JSON body for an object, the test failed on a 4xx or 5xx unless `failOnStatusCode: false`), and commands
// run one after another once the test function has queued them, as Cypress runs them. Loaded as vitest's
// first setup file; it is not Cypress, and says nothing about the browser side of a Cypress run.
import { basename } from 'node:path';
import { expect, beforeEach as vitestBeforeEach, describe as vitestDescribe, it as vitestIt } from 'vitest';

let queue = Promise.resolve();

/** Queues one command; `.then(callback)` queues the callback with the command's subject. */
function enqueue(step) {
  const result = queue.then(step);
  queue = result;
  // biome-ignore lint/suspicious/noThenProperty: Cypress's chainables have `.then()`, which the recipe's spec calls.
  return { then: (callback) => enqueue(() => result.then(callback)) };
}

/** Runs a test or hook, then waits for every command it queued, and for those they queued in turn; a failure ends with it. */
async function runQueued(body) {
  queue = Promise.resolve();
  body();
  let seen;
  do {
    seen = queue;
    await seen;
  } while (seen !== queue);
}

async function request(options) {
  const { method = 'GET', url, headers = {}, body, failOnStatusCode = true } = typeof options === 'string' ? { url: options } : options;
  const json = body !== null && typeof body === 'object';
  const response = await fetch(url, {
    method,
    headers: json ? { 'content-type': 'application/json', ...headers } : headers,
    body: json ? JSON.stringify(body) : body,
  });
  const text = await response.text();
  if (failOnStatusCode && (response.status < 200 || response.status >= 400)) {
    throw new Error(`cy.request() failed on a ${response.status} response: ${method} ${url}\n${text}`);
  }
  const parsed = response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
  return { status: response.status, body: parsed, headers: Object.fromEntries(response.headers) };
}

const cy = { request: (options) => enqueue(() => request(options)) };

globalThis.cy = cy;
globalThis.Cypress = {
  // Cypress reads CYPRESS_* variables and the config's `env` into Cypress.env(); cypress-node-events.mjs sets the former.
  env: (name) => process.env[`CYPRESS_${name}`],
  get spec() {
    const path = expect.getState().testPath ?? '';
    return { name: basename(path), relative: path, absolute: path };
  },
  Commands: {
    add: (name, command) => {
      cy[name] = command;
    },
  },
};
globalThis.describe = vitestDescribe;
globalThis.it = (name, test) => vitestIt(name, () => runQueued(test));
globalThis.beforeEach = (hook) => vitestBeforeEach(() => runQueued(hook));
globalThis.expect = expect;
