/**
 * Faults beyond test/support/deployments.ts, for the fuzz suite: the classes issue 26 names that the
 * spec suite let through, and faults of state that show only after some sequence of calls. Each is
 * the mock with one fault, as in deployments.ts.
 */
import type { Fault } from '../support/deployments.js';

const notFound = () => Response.json({ code: 'not_found', message: 'no such pet', status: 404 }, { status: 404 });

function isList(request: Request): boolean {
  return request.method === 'GET' && new URL(request.url).pathname === '/v1/pets';
}

/** Read as 404 once created with status sold: found only by a create with that status and a read of that pet after it. */
export function soldLost(): Fault {
  const lost = new Set<string>();
  return async (request, mock) => {
    const response = await mock(request);
    if (request.method === 'POST' && response.status === 201) {
      const pet = (await response.clone().json()) as { id: number; status?: string };
      if (pet.status === 'sold') lost.add(String(pet.id));
    }
    const id = /\/pets\/(\d+)$/.exec(new URL(request.url).pathname)?.[1];
    return id !== undefined && lost.has(id) ? notFound() : response;
  };
}

/** Ignores `limit` once more than 3 pets were created: a page query that breaks only as the table grows. */
export function limitIgnoredOnceGrown(): Fault {
  let created = 0;
  return async (request, mock) => {
    const url = new URL(request.url);
    if (isList(request) && created > 3) url.searchParams.delete('limit');
    const response = await mock(new Request(url, request));
    if (request.method === 'POST' && response.status === 201) created++;
    return response;
  };
}

/** Faults the fuzz suite is measured on besides those of deployments.ts (bench/fuzz-detection.ts). */
export const FUZZ_FAULTS: Readonly<Record<string, () => Fault>> = {
  'a pet created with status sold is lost to reads': soldLost,
  'limit ignored once more than 3 pets were created': limitIgnoredOnceGrown,
  'petId read with parseInt (/pets/2abc is the pet 2)': () => (request, mock) => {
    const url = new URL(request.url);
    const match = /^(\/v1\/pets\/)(.+)$/.exec(url.pathname);
    const digits = match ? Number.parseInt(decodeURIComponent(match[2] as string), 10) : Number.NaN;
    if (request.method === 'GET' && match && !Number.isNaN(digits)) url.pathname = `${match[1]}${digits}`;
    return mock(new Request(url, request));
  },
  'status filter matched ignoring case': () => (request, mock) => {
    const url = new URL(request.url);
    const status = url.searchParams.get('status');
    if (isList(request) && status !== null) url.searchParams.set('status', status.toLowerCase());
    return mock(new Request(url, request));
  },
  'true taken for an integer (a bool is an int)': () => async (request, mock) => {
    if (request.method !== 'POST') return mock(request);
    const text = (await request.text()).replace(/"categoryId":true\b/, '"categoryId":1');
    return mock(new Request(request, { body: text }));
  },
};
