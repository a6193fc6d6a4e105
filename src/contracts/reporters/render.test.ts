/** The Markdown summary, the HTML page and the HAR made of one run, with what a hostile deployment sent in it. */
import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../check.js';
import { loadContract } from '../contract.js';
import { KEY_PLACEHOLDER, type ObservedExchange } from '../http.js';
import type { VerificationReport } from '../runner.js';
import { painter, resultLine, summary } from './console.js';
import { CoverageRecorder } from './coverage-reporter.js';
import { harOf } from './har.js';
import { escapeHtml, htmlReport } from './html.js';
import { fenced, markdownSummary, markdownText } from './markdown.js';

const BASE = 'https://staging.example.com/v1';
const HOSTILE = '<img src=x onerror=alert(1)>';

function exchange(pathAndQuery: string, status: number, overrides: Partial<ObservedExchange> = {}): ObservedExchange {
  return {
    request: { method: 'GET', url: `${BASE}${pathAndQuery}`, headers: { authorization: `Bearer ${KEY_PLACEHOLDER}` } },
    status,
    headers: [['content-type', 'application/json']],
    text: '[]',
    startedAt: Date.parse('2026-01-01T00:00:00Z'),
    ms: 12.5,
    ...overrides,
  };
}

const failed: CheckResult = {
  id: 'getPet.known',
  suite: 'spec',
  title: 'a listed pet is read by its id | and `quoted`',
  operationId: 'getPet',
  outcome: 'fail',
  ms: 3,
  warnings: [`a warning naming ${HOSTILE}`],
  findings: [
    {
      message: `getPet answered a body that breaks the schema: /name ${HOSTILE}`,
      status: 200,
      excerpt: `{"id":"1","name":"${HOSTILE}"}`,
      request: { method: 'GET', url: `${BASE}/pets/1`, headers: { authorization: `Bearer ${KEY_PLACEHOLDER}` } },
    },
  ],
};

async function report(): Promise<VerificationReport> {
  const recorder = new CoverageRecorder(await loadContract(), BASE);
  recorder.observe(exchange('/pets?status=sold', 200));
  recorder.observe(exchange('/pets/1', 200));
  return {
    baseUrl: BASE,
    suite: 'spec',
    runId: 'abcd1234',
    readOnly: false,
    startedAt: '2026-01-01T00:00:00.000Z',
    ms: 1500,
    requests: 2,
    posts: 0,
    writes: 0,
    retried: [],
    retries: { byCause: {}, waitedMs: 0 },
    advice: [],
    results: [failed, { ...failed, id: 'listPets.default', outcome: 'pass', findings: [], warnings: [] }],
    counts: { passed: 1, failed: 1, following: 0, skipped: 0, errors: 0, warnings: 1 },
    exitCode: 1,
    coverage: recorder.coverage(),
  };
}

/** Text a deployment may send that Markdown would make markup of, in each place it may stand. */
const MARKUP = [
  HOSTILE,
  '[x](https://evil.example) ![i](https://evil.example/i.png) <https://evil.example>',
  '*b* _i_ **s** __u__ ~~d~~ ~t~ `code` ***',
  '# heading',
  '###### small heading',
  '- item',
  '+ item',
  '1. one',
  '3) three',
  '> quote',
  '---',
  '___',
  'https://evil.example/path www.evil.example me@evil.example',
  'a | b \\| c',
  'a \\*not emphasis\\* \\',
  '&amp; &#x41; &copy; & <b>',
  '    indented',
];

/** The text of rendered HTML: tags dropped, the entities marked writes turned back into characters. */
function textOf(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();
}

/** The text as GitHub would render it (GFM: tables, strikethrough, autolinks), in each place the summary puts text. */
function rendered(text: string): Record<'start' | 'inline' | 'cell', string> {
  return {
    start: marked.parse(markdownText(text, 'start'), { gfm: true, async: false }),
    inline: marked.parse(`- **id**: ${markdownText(text)}`, { gfm: true, async: false }),
    cell: marked.parse(`| a | b |\n| --- | --- |\n| ${markdownText(text, 'cell')} | end |`, { gfm: true, async: false }),
  };
}

describe('markdownSummary', () => {
  it('shows what a deployment sent as its text, rendered: no tag, link, emphasis, heading, list, quote, rule or code, and no table cell ended early', () => {
    for (const text of MARKUP) {
      const { start, inline, cell } = rendered(text);
      const shown = text.trim();
      expect(start, text).toMatch(/^<p>[^<]*<\/p>\n$/);
      expect(textOf(start), text).toBe(shown);
      expect(inline, text).toMatch(/^<ul>\n<li><strong>id<\/strong>: [^<]*<\/li>\n<\/ul>\n$/);
      expect(textOf(inline).replace(/\s+/g, ' '), text).toBe(`id: ${text}`.replace(/\s+/g, ' ').trim());
      expect(cell.match(/<td>/g), text).toHaveLength(2);
      expect(cell, text).toMatch(/<td>[^<]*<\/td>\n<td>end<\/td>/);
    }
  });

  it('escapes only what would be markup where the text stands, so that the raw summary reads plainly', () => {
    for (const plain of ['petstore-verify: 1 fault found.', 'listPets: GET /v1/pets (limit 1-100)', 'snake_case and 3.5 + 2', '2 passed · 0 failed'])
      expect(markdownText(plain, 'start')).toBe(plain);
    expect(markdownText('# heading', 'start')).toBe('\\# heading');
    expect(markdownText('# not at the start')).toBe('# not at the start');
    expect(markdownText('a | b')).toBe('a | b');
    expect(markdownText('a | b', 'cell')).toBe('a \\| b');
  });

  it('fences a curl line with more backticks than it holds', () => {
    expect(fenced("curl 'a```b'")).toBe("````sh\ncurl 'a```b'\n````");
    expect(fenced('curl x')).toBe('```sh\ncurl x\n```');
  });

  it('gives the verdict, each failure with its curl line, and a row per documented status, parameter and enum value', async () => {
    const markdown = markdownSummary(await report());
    expect(markdown).toContain('**The deployment breaks the contract: 1 fault found.**');
    expect(markdown).toContain(`curl -sS -i 'https://staging.example.com/v1/pets/1' -H "authorization: Bearer $\{PETSTORE_API_KEY}"`);
    expect(markdown).not.toContain('<img');
    expect(markdown).toContain('&lt;img src=x onerror=alert(1)>');
    for (const row of [
      '| ✓ | status 200 |',
      '| · | status 429 |',
      '| ✓ | query status = sold | 200 |',
      '| · | query status = pending | — |',
      '| · | status 410 |',
    ])
      expect(markdown).toContain(row);
  });

  it('says when the run could not verify', async () => {
    const markdown = markdownSummary({ ...(await report()), fatal: 'cannot reach the deployment: <b>refused</b>', exitCode: 2, results: [] });
    expect(markdown).toContain('**petstore-verify could not verify the deployment: cannot reach the deployment: &lt;b>refused&lt;/b>**');
  });
});

describe('htmlReport', () => {
  it('escapes text and attribute values', () => {
    expect(escapeHtml(`"'<>&\u0007`)).toBe('&quot;&#39;&lt;&gt;&amp;');
    // What is no character of XML is U+FFFD, and what a terminal acts on its escape (red team 9, #7).
    expect(escapeHtml('a\uffff\u0085b')).toBe('a\ufffd\\u0085b');
  });

  it('is one page with no script and no external asset, and what the deployment sent shown as text', async () => {
    const html = htmlReport(await report());
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
    expect(html).not.toMatch(/<img|<script|<link|src=["']?http/i);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('curl -sS -i &#39;https://staging.example.com/v1/pets/1&#39;');
    expect(html).toContain('<td>query status = sold</td>');
    expect(html).toContain('<tr class="unexercised"><td>·</td><td>status 503</td>');
  });
});

describe('harOf', () => {
  const har = harOf(
    [
      exchange('/pets?limit=5&status=sold', 201, {
        startedAt: Date.parse('2026-01-01T00:00:01Z'),
        headers: [
          ['content-type', 'application/json'],
          ['location', '/v1/pets/9'],
        ],
      }),
      exchange('/pets/1', 302, { headers: [['location', 'https://elsewhere.example/']] }),
    ],
    { version: '1.2.3', runId: 'abcd1234', baseUrl: BASE, startedAt: '2026-01-01T00:00:00.000Z' },
  );
  const [first, second] = har.log.entries;

  it('orders the entries by when they started, as HAR 1.2 asks, each on the run page', () => {
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator).toEqual({ name: 'petstore-verify', version: '1.2.3' });
    expect(har.log.entries.map((entry) => entry.request.url)).toEqual([`${BASE}/pets/1`, `${BASE}/pets?limit=5&status=sold`]);
    expect(har.log.entries.every((entry) => entry.pageref === har.log.pages[0]?.id)).toBe(true);
  });

  it('gives the time as the sum of the known timings, the query as pairs, and the redirect target only for a redirect', () => {
    expect(first?.time).toBe(12.5);
    const { send, wait, receive } = first?.timings ?? { send: 0, wait: 0, receive: 0 };
    expect(send + wait + receive).toBe(12.5);
    expect(first?.response).toMatchObject({ status: 302, statusText: 'Found', redirectURL: 'https://elsewhere.example/' });
    expect(second?.request.queryString).toEqual([
      { name: 'limit', value: '5' },
      { name: 'status', value: 'sold' },
    ]);
    expect(second?.response).toMatchObject({ status: 201, statusText: 'Created', redirectURL: '' });
    expect(second?.request.headers).toEqual([{ name: 'authorization', value: 'Bearer $PETSTORE_API_KEY' }]);
  });
});

/** What a deployment may put in a pet's name: codes that clear the screen, set the window's title, write the clipboard. */
const ESCAPES = '\u001b[2J\u001b]0;owned\u0007\u001b]52;c;ZXZpbA==\u0007\u009b31m';

describe('the console reporter', () => {
  const hostile: CheckResult = {
    ...failed,
    reason: `deployment said ${ESCAPES}`,
    warnings: [`a warning naming ${ESCAPES}`],
    findings: [{ message: `a body that breaks the schema: /name ${ESCAPES}`, actual: ESCAPES, excerpt: `{"name":"${ESCAPES}"}` }],
  };

  it('shows what the deployment sent with its control characters escaped: no ESC, BEL or CSI reaches the terminal', async () => {
    const plain = painter({ isTTY: false });
    const printed = [
      resultLine(hostile, plain),
      summary({ ...(await report()), results: [hostile], advice: [ESCAPES] }, plain),
      summary({ ...(await report()), fatal: `the deployment answered ${ESCAPES}`, exitCode: 2, results: [] }, plain),
    ].join('\n');
    expect(['\u001b', '\u0007', '\u009b'].filter((code) => printed.includes(code))).toEqual([]);
    expect(printed).toContain('/name \\u001b[2J\\u001b]0;owned\\u0007');
  });
});
