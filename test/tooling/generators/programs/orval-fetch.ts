/**
 * orval's fetch mutator, as its docs suggest for a base URL and a key: the generated URLs start with
 * the spec's first server (the local mock on port 4010), which this run's mock replaces.
 */
const SPEC_SERVER = 'http://127.0.0.1:4010/v1';

export async function petstoreFetch<T>(url: string, init: RequestInit): Promise<T> {
  const headers = new Headers(init.headers);
  if (!headers.has('authorization')) headers.set('authorization', `Bearer ${process.env.PETSTORE_API_KEY}`);
  const response = await fetch(url.replace(SPEC_SERVER, process.env.PETSTORE_URL ?? SPEC_SERVER), { ...init, headers });
  const body = await response.text();
  // orval types each answer as { data, status, headers } by status; the mutator builds that shape.
  return { data: body ? JSON.parse(body) : undefined, status: response.status, headers: response.headers } as T;
}
