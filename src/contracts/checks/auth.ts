import type { Check, CheckContext } from '../check.js';
import { KEY_PLACEHOLDER } from '../http.js';
import { idOf, newPetBody } from '../pets.js';

/** Credentials that must be refused, as `Authorization` header values (`null`: none). */
function refusedCredentials(context: CheckContext): [string, string | null][] {
  const wrong = `petstore-verify-wrong-key-${context.state.runId}`;
  return [
    ['no credential', null],
    ['a wrong key', `Bearer ${wrong}`],
    ['the key without the Bearer scheme', KEY_PLACEHOLDER],
    ['Basic credentials', `Basic ${btoa(`petstore-verify:${wrong}`)}`],
  ];
}

/** A valid request for each operation the checks know how to call. */
function validRequest(context: CheckContext, operationId: string): { params?: Record<string, string>; body?: string } {
  switch (operationId) {
    case 'getPet': {
      const pet = context.state.listing[0];
      if (!pet) context.skip('the listing is empty: no pet to read by id');
      return { params: { petId: idOf(pet) } };
    }
    case 'createPet':
      return { body: newPetBody(context.state, 'auth') };
    default:
      return {};
  }
}

/** For every secured operation: each refused credential answers 401, and the valid key is accepted. */
export function authChecks(operations: readonly { operationId: string; secured: boolean; method: string }[]): Check[] {
  return operations
    .filter((operation) => operation.secured)
    .flatMap((operation): Check[] => {
      const { operationId } = operation;
      const writes = operation.method === 'POST';
      return [
        {
          id: `auth.${operationId}.refused`,
          title: `${operationId} answers 401 to a missing credential, a wrong key, a key without Bearer, and Basic`,
          operationId,
          writes,
          async run(context) {
            const request = validRequest(context, operationId);
            for (const [what, authorization] of refusedCredentials(context)) {
              const exchange = await context.call(operationId, { ...request, authorization });
              if (exchange.status !== 401)
                context.fail(`${operationId} answered ${exchange.status} to ${what}`, exchange, { expected: '401', actual: String(exchange.status) });
            }
          },
        },
        {
          id: `auth.${operationId}.accepted`,
          title: `${operationId} accepts the valid key`,
          operationId,
          writes,
          async run(context) {
            const exchange = await context.call(operationId, validRequest(context, operationId));
            // A deployment may refuse a category it does not know; that says nothing about the key.
            if (operationId === 'createPet' && exchange.status === 400)
              context.skip('the deployment refused the NewPet (400), so the key cannot be judged on createPet');
            if (exchange.status === 401 || exchange.status === 403)
              context.fail(`${operationId} refused the valid key with ${exchange.status}`, exchange, { expected: '2xx', actual: String(exchange.status) });
            else if (exchange.status >= 300)
              context.fail(`${operationId} answered ${exchange.status} to a valid request`, exchange, { expected: '2xx', actual: String(exchange.status) });
          },
        },
      ];
    });
}
