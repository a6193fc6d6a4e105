/**
 * The inspector: `GET /__mock/` in a browser shows what the mock received, its sessions, coverage,
 * profile and drift, updating by itself (docs/mock-inspector.md). Four static files, no build step
 * and no framework: the page, its style, its icon and its script (inspector-client.ts). They hold no data, so they are
 * served without a key; everything they show comes from the admin endpoints, which are guarded.
 */
import { inspectorScript } from './inspector-client.js';

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>petstore-mock inspector</title>
<link rel="icon" href="/__mock/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/__mock/inspector.css">
<script src="/__mock/inspector.js" defer></script>
</head>
<body>
<header>
  <h1>petstore-mock</h1>
  <span>session <strong id="session">default</strong> · <span id="request-count">0</span> requests</span>
  <button type="button" id="clear">clear the journal</button>
  <button type="button" id="reset-all">reset the mock</button>
  <form id="key-form" hidden><label>key <input id="key" type="password" autocomplete="off"></label> <button>use</button></form>
  <output id="notice"></output>
</header>
<main>
  <section class="requests"><h2>Requests, newest first</h2><div id="requests"></div></section>
  <aside>
    <section><h2>Sessions</h2><table><thead><tr><th>session</th><th>pets</th><th></th></tr></thead><tbody id="sessions"></tbody></table></section>
    <section><h2>Coverage <small id="coverage-total"></small></h2><table><tbody id="coverage"></tbody></table></section>
    <section><h2>Profile in force</h2><pre id="profile"></pre></section>
    <section hidden><h2>Drift seen by --proxy</h2><pre id="drift"></pre></section>
  </aside>
</main>
</body>
</html>
`;

/** A paw, the page's icon; also the mock's `/favicon.ico`, which a browser asks for beside any page of the mock it shows. */
const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><g fill="#24292f">
<ellipse cx="16" cy="22" rx="7.5" ry="6.5"/><circle cx="6.5" cy="13.5" r="3.2"/><circle cx="12.5" cy="7.5" r="3.2"/><circle cx="19.5" cy="7.5" r="3.2"/><circle cx="25.5" cy="13.5" r="3.2"/>
</g></svg>
`;

const STYLE = `
:root { font: 14px/1.4 system-ui, sans-serif; color: #1d1d1f; background: #fafafa; }
body { margin: 0; }
header { display: flex; gap: 1em; align-items: center; flex-wrap: wrap; padding: .6em 1em; background: #24292f; color: #fff; }
header h1 { font-size: 1.1em; margin: 0; }
#notice { flex-basis: 100%; color: #ffd33d; }
#notice:empty { display: none; }
main { display: grid; grid-template-columns: minmax(0, 3fr) minmax(16em, 1fr); gap: 1em; padding: 1em; }
h2 { font-size: 1em; margin: .2em 0 .6em; }
.entry { background: #fff; border: 1px solid #ddd; border-radius: 4px; margin-bottom: .3em; padding: .2em .5em; }
.entry summary { cursor: pointer; display: flex; gap: .8em; font-family: ui-monospace, monospace; }
.entry .path { flex: 1; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.status.good { color: #1a7f37; } .status.warn { color: #9a6700; } .status.bad { color: #cf222e; }
.rule, .operation, .latency, .time { color: #57606a; }
pre { background: #f6f8fa; padding: .5em; overflow: auto; white-space: pre-wrap; word-break: break-all; margin: .3em 0; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .15em .4em; border-bottom: 1px solid #eee; vertical-align: top; }
tr.chosen { background: #ddf4ff; }
.missed { color: #9a6700; }
button { cursor: pointer; }
`;

/**
 * What the inspector's responses carry: never framed (a page elsewhere cannot click its buttons for a
 * user), nothing run but its own script, nothing sent but to the mock, and never cached.
 */
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/** One file of the inspector: its type and its text. */
interface InspectorFile {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

function file(contentType: string, body: string): InspectorFile {
  return { headers: { 'content-type': contentType, ...SECURITY_HEADERS }, body };
}

/** The icon of the page (`/__mock/favicon.svg`), and the mock's `/favicon.ico`. */
export const ICON_FILE = file('image/svg+xml', ICON);

let files: ReadonlyMap<string, InspectorFile> | undefined;

/**
 * The inspector's file at `path` (`/__mock/`, `/__mock/inspector.js`, `/__mock/inspector.css`), or
 * `undefined`. Made on first use: a mock nobody inspects never builds the script.
 */
export function inspectorFile(path: string): InspectorFile | undefined {
  files ??= new Map([
    ['/__mock/', file('text/html; charset=utf-8', PAGE)],
    ['/__mock/inspector.js', file('text/javascript; charset=utf-8', inspectorScript())],
    ['/__mock/inspector.css', file('text/css; charset=utf-8', STYLE)],
    ['/__mock/favicon.svg', ICON_FILE],
  ]);
  return files.get(path);
}
