/**
 * `GET /pets`: reads `limit` (1 to 100, default 20) and `status` from the query; answers 200 with the
 * session's first `limit` pets in id order, only those of `status` when given.
 */
import { listPetsQuery } from '../../generated/validators.js';
import { ANSWER_HEADERS, type MockResponse } from '../exchange.js';
import { andThen } from '../pending.js';
import { readParameters } from '../validation.js';
import { checkInput, parametersIn } from './inputs.js';
import type { MockOperation } from './operation.js';

const QUERY = parametersIn('listPets', 'query');

function page(body: string): MockResponse {
  return { status: 200, headers: ANSWER_HEADERS, body };
}

export function listPets(): MockOperation {
  return {
    id: 'listPets',
    read(_, query) {
      const search = new URLSearchParams(query);
      const input = checkInput(
        listPetsQuery,
        readParameters(QUERY, (name) => search.get(name)),
        'The query',
      );
      if ('refusal' in input) return input;
      const { limit, status } = input.value;
      return { answer: (_request, session) => andThen(session.store.listJson(limit, status), page) };
    },
  };
}
