/**
 * The script of the inspector page, run in the browser: it polls the admin endpoints of the mock that
 * served it and draws what they say. It is served as the source of the functions below (`inspectorScript`),
 * so it is type-checked and linted with the rest of the code; each function may therefore call only
 * the others of `PAGE_FUNCTIONS` and the browser's own, never an import.
 *
 * Everything it shows comes from requests other people made (pet names, paths, headers): it is only
 * ever set as text (`append` of strings, `textContent`), never parsed as HTML, so a pet named
 * `<img src=x onerror=alert(1)>` is shown as those characters.
 */

// A type only, the entries of `GET /__mock/requests`: gone from the served script.
import type { JournalEntry } from '../../state/journal.js';

/** What the page knows between polls. */
interface PageState {
  /** The session whose requests are shown. */
  session: string;
  /** The greatest journal id shown: the next poll asks for those after it. */
  since: number;
  /** The key, when the mock needs one for `/__mock/` (bound beyond loopback); kept for the tab only. */
  key: string;
  shown: number;
  /** Whether a `--proxy` serves the page, found by asking for its drift once: only it has one. */
  proxied: boolean;
}

function byId(id: string): HTMLElement {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`the inspector page has no #${id}`);
  return found;
}

/** An element with text children: strings become text nodes, never markup. */
function el(tag: string, className: string, ...children: (string | Node)[]): HTMLElement {
  const made = document.createElement(tag);
  if (className !== '') made.className = className;
  made.append(...children);
  return made;
}

function button(label: string, onClick: () => void): HTMLButtonElement {
  const made = document.createElement('button');
  made.type = 'button';
  made.textContent = label;
  made.addEventListener('click', onClick);
  return made;
}

function say(text: string): void {
  byId('notice').textContent = text;
}

/**
 * The JSON of an admin endpoint, or `undefined` when it did not answer 200. `session` picks the
 * session (`null`: none, as a reset of everything needs). A write sends
 * `X-Mock-Admin: 1`, which tells the mock a page of its own origin means it.
 */
async function adminJson<T>(state: PageState, path: string, method = 'GET', session: string | null = state.session): Promise<T | undefined> {
  const headers: Record<string, string> = {};
  if (session !== null) headers['x-mock-session'] = session;
  if (method !== 'GET') headers['x-mock-admin'] = '1';
  if (state.key !== '') headers.authorization = `Bearer ${state.key}`;
  const response = await fetch(path, { method, headers });
  if (response.status === 401) {
    byId('key-form').hidden = false;
    say('The mock needs its key for /__mock/ (it is bound beyond this machine): enter it above.');
  }
  if (!response.ok) return undefined;
  // The mock's own JSON, in the shape docs/mock-admin.md gives for the endpoint asked.
  return (await response.json()) as T;
}

function shellQuoted(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/** The request as a curl command; the key is never in it, only `$PETSTORE_API_KEY`. */
function curlOf(entry: JournalEntry): string {
  const parts = [`curl -i -X ${entry.method} ${shellQuoted(`${location.origin}${entry.path}${entry.query === '' ? '' : `?${entry.query}`}`)}`];
  for (const [name, value] of Object.entries(entry.headers)) {
    if (name === 'authorization') {
      // The scheme is whatever the client sent (`$(…)` too): in single quotes unless it is a plain word,
      // so that a pasted command expands only $PETSTORE_API_KEY.
      const scheme = value.split(' ')[0] ?? 'Bearer';
      const quoted = /^[\w.~+-]+$/.test(scheme) ? `"Authorization: ${scheme} ` : `${shellQuoted(`Authorization: ${scheme} `)}"`;
      parts.push(`-H ${quoted}$PETSTORE_API_KEY"`);
    } else parts.push(`-H ${shellQuoted(`${name}: ${value}`)}`);
  }
  if (entry.body !== undefined) parts.push(`--data-raw ${shellQuoted(entry.body)}`);
  return parts.join(' \\\n  ');
}

/** One request: a line that opens to its headers, its body and its curl command. */
function entryView(entry: JournalEntry): HTMLElement {
  const statusClass = entry.status >= 500 ? 'bad' : entry.status >= 400 ? 'warn' : 'good';
  const summary = el(
    'summary',
    '',
    el('span', 'time', entry.time.slice(11, 23)),
    el('span', `status ${statusClass}`, String(entry.status)),
    el('span', 'method', entry.method),
    el('span', 'path', `${entry.path}${entry.query === '' ? '' : `?${entry.query}`}`),
    el('span', 'operation', entry.operation ?? '-'),
    el('span', 'rule', entry.rule),
    el('span', 'latency', `${entry.latencyMs.toFixed(1)} ms`),
  );
  const headerRows = Object.entries(entry.headers).map(([name, value]) => el('tr', '', el('th', '', name), el('td', '', value)));
  const copy = button('copy as curl', () => {
    void navigator.clipboard?.writeText(curlOf(entry)).then(() => say('Copied: the key stands as $PETSTORE_API_KEY.'));
  });
  const body = entry.body === undefined ? [] : [el('pre', 'body', entry.body + (entry.bodyTruncated ? ' …' : ''))];
  const details = el('details', 'entry', summary, el('table', 'headers', ...headerRows), ...body, copy, el('pre', 'curl', curlOf(entry)));
  details.dataset.id = String(entry.id);
  return details;
}

/** The requests the session's journal holds beyond those shown, newest first; at most 500 are kept on the page. */
async function pollRequests(state: PageState): Promise<void> {
  const page = await adminJson<{ entries: JournalEntry[]; last: number }>(state, `/__mock/requests?since=${state.since}`);
  if (page === undefined) return;
  const list = byId('requests');
  for (const entry of page.entries) list.prepend(entryView(entry));
  while (list.childElementCount > 500) list.lastElementChild?.remove();
  state.since = Math.max(state.since, page.last);
  state.shown += page.entries.length;
  byId('request-count').textContent = String(state.shown);
}

function showSession(state: PageState, name: string): void {
  Object.assign(state, { session: name, since: 0, shown: 0 });
  byId('requests').replaceChildren();
  byId('session').textContent = name;
}

async function resetSession(state: PageState, name: string): Promise<void> {
  const done = await adminJson(state, `/__mock/sessions/${encodeURIComponent(name)}/reset`, 'POST', null);
  say(done === undefined ? `The session ${name} could not be reset.` : `The session ${name} is back to its seeded pets.`);
  await showSessions(state);
}

/** The default session and the open named ones, with their pet counts. */
async function showSessions(state: PageState): Promise<void> {
  const health = await adminJson<{ pets: number }>(state, '/__mock/health', 'GET', 'default');
  const listed = await adminJson<{ sessions: { name: string; pets: number }[] }>(state, '/__mock/sessions');
  const sessions = [{ name: 'default', pets: health?.pets ?? 0 }, ...(listed?.sessions ?? [])];
  const rows = sessions.map(({ name, pets }) =>
    el(
      'tr',
      name === state.session ? 'chosen' : '',
      el('td', 'session-name', name),
      el('td', 'pets', String(pets)),
      el(
        'td',
        '',
        button('show', () => showSession(state, name)),
        button('reset', () => void resetSession(state, name)),
      ),
    ),
  );
  byId('sessions').replaceChildren(...rows);
}

/** Each operation's statuses with their counts, and what no client has exercised yet. */
async function showCoverage(state: PageState): Promise<void> {
  type Unnamed = Record<string, { exercised: number; never: number }>;
  type Coverage = {
    covered: number;
    total: number;
    operations: { operationId: string; statuses: Record<string, number>; missed: string[]; unnamed?: Unnamed }[];
  };
  const coverage = await adminJson<Coverage>(state, '/__mock/coverage');
  if (coverage === undefined) return;
  byId('coverage-total').textContent = `${coverage.covered} of ${coverage.total}`;
  const rows = coverage.operations.map((operation) => {
    const counts = Object.entries(operation.statuses).map(([status, count]) => `${status}×${count}`);
    // Past the values a report names, the others of an input are counted: `query.status: 89,903 more`.
    const more = Object.entries(operation.unnamed ?? {}).flatMap(([key, { never }]) => (never > 0 ? [`${key}: ${never} more`] : []));
    return el('tr', '', el('th', '', operation.operationId), el('td', '', counts.join(' ')), el('td', 'missed', [...operation.missed, ...more].join(', ')));
  });
  byId('coverage').replaceChildren(...rows);
}

/** An endpoint's JSON in the box `id`; its section is hidden while the endpoint answers nothing (no drift without `--proxy`). */
async function showJson(state: PageState, path: string, id: string): Promise<void> {
  const value = await adminJson(state, path);
  const box = byId(id);
  box.textContent = value === undefined ? '' : JSON.stringify(value, null, 2);
  box.closest('section')?.toggleAttribute('hidden', value === undefined);
}

/**
 * The choices of the profile in force that it knows: `GET /__mock/profile` names every choice, each
 * `unknown` that the profile leaves to the mock, so a mock without one would show a block of them.
 */
async function showProfile(state: PageState): Promise<void> {
  const profile = await adminJson<Record<string, unknown>>(state, '/__mock/profile');
  if (profile === undefined) return;
  const known = Object.entries(profile).filter(
    ([name, value]) => name !== 'version' && value !== 'unknown' && !(typeof value === 'object' && value !== null && Object.keys(value).length === 0),
  );
  byId('profile').textContent =
    known.length === 0 ? "none: the mock makes its own choices (--profile adopts a deployment's)" : JSON.stringify(Object.fromEntries(known), null, 2);
}

async function refreshSide(state: PageState): Promise<void> {
  const drift = state.proxied ? [showJson(state, '/__mock/drift', 'drift')] : [];
  await Promise.all([showSessions(state), showCoverage(state), showProfile(state), ...drift]);
}

/** Runs `run` every `ms` after it settles, slower while the mock does not answer. */
function every(ms: number, run: () => Promise<void>): void {
  const tick = (): void => {
    run().then(
      () => setTimeout(tick, ms),
      (error: unknown) => {
        say(`The mock did not answer (${error instanceof Error ? error.message : String(error)}); trying again.`);
        setTimeout(tick, ms * 4);
      },
    );
  };
  tick();
}

/** Wires the page's buttons and starts polling: the journal twice a second, the rest every two seconds. */
function inspectorMain(): void {
  const keyStore = 'petstore-mock-inspector-key';
  const state: PageState = { session: 'default', since: 0, key: sessionStorage.getItem(keyStore) ?? '', shown: 0, proxied: true };
  byId('key-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const input = document.querySelector<HTMLInputElement>('#key');
    state.key = input?.value ?? '';
    if (input) input.value = '';
    sessionStorage.setItem(keyStore, state.key);
    byId('key-form').hidden = true;
    say('');
  });
  byId('reset-all').addEventListener('click', () => {
    void adminJson(state, '/__mock/reset', 'POST', null).then((done) => {
      say(done === undefined ? 'The mock could not be reset.' : 'The mock is back to its seeded pets; named sessions were dropped.');
      return refreshSide(state);
    });
  });
  byId('clear').addEventListener('click', () => {
    void adminJson(state, '/__mock/requests', 'DELETE').then(() => showSession(state, state.session));
  });
  every(500, () => pollRequests(state));
  void adminJson(state, '/__mock/drift').then((drift) => {
    state.proxied = drift !== undefined;
    every(2_000, () => refreshSide(state));
  });
}

/** Every function of the page, each calling only others of this list. */
const PAGE_FUNCTIONS = [
  byId,
  el,
  button,
  say,
  adminJson,
  shellQuoted,
  curlOf,
  entryView,
  pollRequests,
  showSession,
  resetSession,
  showSessions,
  showCoverage,
  showJson,
  showProfile,
  refreshSide,
  every,
  inspectorMain,
];

/** The page's script: the functions' own source, then the call that starts it. */
export function inspectorScript(): string {
  return `'use strict';\n${PAGE_FUNCTIONS.map(String).join('\n\n')}\n\n${inspectorMain.name}();\n`;
}
