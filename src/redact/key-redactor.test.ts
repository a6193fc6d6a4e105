import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonUnicodeEscaped, keyEncodings, layeredKeyEncodings, percentEveryByte, revealsKey } from '../../test/support/key-echoes.js';
import { BUDGET_PER_CHARACTER, decodedForms } from './decoded-forms.js';
import { base64Windows } from './key-patterns.js';
import { credentialSecrets, KeyRedactor } from './key-redactor.js';

const PLACEHOLDER = '$PETSTORE_API_KEY';
const base64 = (text: string | Uint8Array) => Buffer.from(text).toString('base64');
const hex = (text: string) => Buffer.from(text).toString('hex');

/** Keys as people make them: 8 to 40 characters of printable ASCII without whitespace, or with a few non-ASCII ones. */
const keys = fc.oneof(
  fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~+/=:%"\\'), minLength: 8, maxLength: 40 }),
  fc.string({ unit: fc.oneof(fc.constantFrom(...'abcXYZ0189-_'), fc.constantFrom('é', 'ß', '€', '😀')), minLength: 8, maxLength: 24 }),
);
/** Text around a key: anything, control characters and lone surrogates included. */
const text = fc.string({ unit: 'binary', maxLength: 40 });

/** Each encoding of test/support/key-echoes.ts, by name. */
const ENCODINGS = Object.keys(keyEncodings('k'));

// Compiling a key's pattern costs milliseconds, which a property pays for each key it draws: each has a time-out of its own.
describe('KeyRedactor: a key in any encoding never survives (fast-check)', () => {
  it(`a key written in any of ${ENCODINGS.length} encodings (${ENCODINGS.join(', ')}), anywhere in random text`, () => {
    fc.assert(
      fc.property(keys, fc.constantFrom(...ENCODINGS), text, text, (key, name, before, after) => {
        const shown = new KeyRedactor([key]).text(`${before}${keyEncodings(key)[name]}${after}`);
        expect(revealsKey(shown, key), name).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  }, 30_000);

  it('a key inside random bytes, base64-encoded at whatever offset the bytes give it', () => {
    fc.assert(
      fc.property(keys, fc.uint8Array({ maxLength: 12 }), fc.uint8Array({ maxLength: 12 }), fc.boolean(), (key, before, after, url) => {
        const bytes = Buffer.concat([before, Buffer.from(key), after]);
        const shown = new KeyRedactor([key]).text(`x=${url ? bytes.toString('base64url') : bytes.toString('base64')};`);
        expect(revealsKey(shown, key)).toBeUndefined();
      }),
      { numRuns: 150 },
    );
  }, 30_000);

  it('a key with each character written its own way: as it is, percent-encoded, or as a JSON \\u escape', () => {
    const character = (c: string) => fc.constantFrom(c, percentEveryByte(c), jsonUnicodeEscaped(c));
    fc.assert(
      fc.property(
        keys.chain((key) => fc.tuple(fc.constant(key), fc.tuple(...[...key].map(character)))),
        text,
        ([key, parts], before) => {
          expect(revealsKey(new KeyRedactor([key]).text(`${before}${parts.join('')}`), key)).toBeUndefined();
        },
      ),
      { numRuns: 100 },
    );
  }, 30_000);

  it('a key with characters a terminal draws as nothing between its own (zero-width spaces, soft hyphens, joiners, U+FEFF, combining marks)', () => {
    // The check reads the text as a reader sees it: without what is drawn as nothing.
    const invisible = fc.constantFrom('\u200b', '\u00ad', '\u200c', '\u200d', '\u2060', '\ufeff', '\u034f', '\u0336');
    fc.assert(
      fc.property(
        keys.chain((key) => fc.tuple(fc.constant(key), fc.array(fc.tuple(fc.nat(key.length), invisible), { minLength: 1, maxLength: 6 }))),
        text,
        text,
        fc.boolean(),
        ([key, inserts], before, after, json) => {
          const characters = [...key];
          for (const [at, character] of inserts) characters.splice(at, 0, character);
          const split = characters.join('');
          const shown = json
            ? new KeyRedactor([key]).body(JSON.stringify({ name: `${before}${split}${after}` }), true)
            : new KeyRedactor([key]).text(`${before}${split}${after}`);
          const seen = shown.replace(/[\p{Default_Ignorable_Code_Point}\p{Mn}\p{Me}]/gu, '');
          expect(revealsKey(seen, key)).toBeUndefined();
          // Nor a half of it: no pattern for a half hides that half alone and leaves the rest.
          for (const half of [key.slice(0, Math.floor(key.length / 2)), key.slice(Math.ceil(key.length / 2))].filter((half) => half.length >= 8))
            expect(seen.toLowerCase()).not.toContain(half.toLowerCase());
        },
      ),
      { numRuns: 150 },
    );
  }, 30_000);

  it('leaves a text without the key as it is', () => {
    fc.assert(
      fc.property(keys, text, (key, other) => {
        fc.pre(revealsKey(other, key) === undefined && !other.toLowerCase().includes(key.slice(0, key.length / 2).toLowerCase()));
        expect(new KeyRedactor([key]).text(other)).toBe(other);
      }),
      { numRuns: 50 },
    );
  }, 30_000);
});

describe('KeyRedactor: base64 windows', () => {
  it('takes, at each offset, the characters only the value decides', () => {
    // "abc" at offset 0 is YWJj whole; at offset 1 the first two characters mix in the byte before it.
    expect(base64Windows('abc')).toEqual([
      'YWJj',
      base64(Buffer.from([0, ...Buffer.from('abc')])).slice(2, 5),
      base64(Buffer.from([0, 0, ...Buffer.from('abc')])).slice(3, 6),
    ]);
  });

  it('hides a key under Basic, whose base64 starts two bytes before it', () => {
    const key = 'guarantee-key-7Hq2Zt9WbX4m';
    const shown = new KeyRedactor([key]).text(`Authorization: Basic ${base64(`u:${key}`)}`);
    expect(shown).toContain('***');
    expect(revealsKey(shown, key)).toBeUndefined();
  });
});

describe('KeyRedactor: the forms of a long key', () => {
  const key = 'k3y/with+plus=eq%25pct"quote';
  const redactor = new KeyRedactor([key], { placeholder: PLACEHOLDER });

  it.each([
    ['as sent', key],
    ['JSON-escaped', JSON.stringify(key).slice(1, -1)],
    ['JSON-escaped with \\/', JSON.stringify(key).slice(1, -1).replaceAll('/', '\\/')],
    ['URL-encoded', encodeURIComponent(key)],
    ['URL-encoded in lower case', encodeURIComponent(key).toLowerCase()],
    ['base64', base64(key)],
    ['base64url', Buffer.from(key).toString('base64url')],
  ])('replaces a long key echoed %s, wherever it stands', (_, form) => {
    expect(redactor.text(`x${form}y`)).not.toContain('k3y');
    expect(revealsKey(redactor.text(`x${form}y`), key)).toBeUndefined();
  });

  it.each([
    ['upper-cased', 'SK-LIVE-ABC123XYZ'],
    ['with its case changed', 'SK-LIVE-abc123xyz'],
    ['with one byte percent-encoded', 'sk%2Dlive-Abc123xyz'],
    ['with every character percent-encoded', [...'sk-live-Abc123xyz'].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')],
    ['without its last character (the near miss sent), URL-encoded', 'sk-live-Abc123xy'],
    ['after Bearer, URL-encoded', 'Bearer%20sk-live-Abc123xyz'],
  ])('replaces a long key echoed %s', (_, form) => {
    const shown = new KeyRedactor(['sk-live-Abc123xyz'], { placeholder: PLACEHOLDER }).text(`echo: ${form}.`);
    expect(shown).toContain(PLACEHOLDER);
    expect(shown.toLowerCase()).not.toContain('abc123x');
    expect(shown).not.toMatch(/%61%62%63/i);
  });

  it.each([
    ['as hex', hex('sk_live_9fQ2xZ7pLm4R8tVwq3')],
    ['as hex in upper case', hex('sk_live_9fQ2xZ7pLm4R8tVwq3').toUpperCase()],
    ['its first half', 'sk_live_9fQ2x'],
    ['its second half', 'Z7pLm4R8tVwq3'],
  ])('replaces a long key echoed %s', (_, form) => {
    expect(new KeyRedactor(['sk_live_9fQ2xZ7pLm4R8tVwq3'], { placeholder: PLACEHOLDER }).text(`echo: ${form}.`)).toBe(`echo: ${PLACEHOLDER}.`);
  });

  it('leaves halves that ordinary text holds by chance: a word, a number', () => {
    expect(new KeyRedactor(['petstore-dev-key']).text('petstore-mock: -dev-key')).toBe('petstore-mock: -dev-key');
    expect(new KeyRedactor(['1234567812345678']).text('id 12345678')).toBe('id 12345678');
  });

  it('finds several keys at once, long and short', () => {
    const redactor = new KeyRedactor(['first-key-123', 'ab', undefined]);
    expect(redactor.text('first-key-123 and ab, not a b')).toBe('*** and ***, not a b');
    expect(redactor.holds('%66irst-key-123')).toBe(true);
    expect(redactor.holds('nothing here')).toBe(false);
  });
});

describe('KeyRedactor: short keys and the values the verifier sends', () => {
  const asToken = { shortAsToken: true };

  it('finds a short key anywhere, or, for the verifier, only where it stands as a token', () => {
    expect(new KeyRedactor(['pets']).text('carpets, pets, cGV0cw==, pet')).toBe('car***, ***, ***, pet');
    expect(new KeyRedactor(['1'], asToken).text('http://127.0.0.1:4010/v1 key=1')).toBe('http://127.0.0.***:4010/v1 key=***');
    expect(new KeyRedactor(['a'], asToken).text('a cat; Bearer a')).toBe('*** cat; Bearer ***');
    expect(new KeyRedactor(['1'], asToken).body('{"id":1,"echo":"key 1 sent","name":"Rex1"}', true)).toBe('{"id":1,"echo":"key *** sent","name":"Rex1"}');
  });

  it('finds a long key echoed without its first or its last character, in every form, and leaves no character of it behind', () => {
    const key = 'verifkey-R4tY6uI8oP0a';
    const redactor = new KeyRedactor([key]);
    for (const cut of [key.slice(1), key.slice(0, -1), key.slice(1, -1)]) {
      const forms = [cut, base64(`user:${cut}`), base64(`x${cut}`), base64(`xy${cut}`), hex(cut), jsonUnicodeEscaped(cut), percentEveryByte(cut)];
      for (const form of forms) {
        const shown = redactor.text(`[${form}]`);
        expect(revealsKey(shown, cut), `${cut}: ${form} -> ${shown}`).toBeUndefined();
        expect(shown, form).toMatch(/\*\*\*/);
      }
    }
    // Its random half alone (a credential cut after a scheme it never had), encoded as the whole key is.
    const tail = key.slice(7);
    for (const form of [base64(`user:${tail}`), base64(`x${tail}`), hex(tail), jsonUnicodeEscaped(tail)])
      expect(revealsKey(redactor.text(form), key.slice(11)), form).toBeUndefined();
  });

  it('knows no near miss until told, then replaces it in every form', () => {
    const key = 'sk_live_9fQ2xZ7pLm4R8tVwq3';
    const redactor = new KeyRedactor([key], { placeholder: PLACEHOLDER });
    const suffixed = `${key}x`;
    redactor.know(suffixed);
    for (const form of [base64(suffixed), Buffer.from(suffixed).toString('base64url'), hex(suffixed), hex(suffixed).toUpperCase(), suffixed.slice(14)])
      expect(redactor.text(`[${form}]`)).toBe(`[${PLACEHOLDER}]`);
    const basic = base64(`${key}:`);
    redactor.know(basic);
    for (const form of [basic, base64(basic), hex(basic), encodeURIComponent(basic)]) expect(redactor.text(`<${form}>`)).toBe(`<${PLACEHOLDER}>`);
  });

  it('keeps the token rule for a short key and its near misses', () => {
    const redactor = new KeyRedactor(['a'], asToken);
    redactor.know('A');
    redactor.know('ax');
    expect(redactor.text('A cat, ax; Ax; max 61')).toBe('*** cat, ***; Ax; max 61');
  });

  it('redacts a parsed JSON body as body() does, scanning its distinct strings, and forgets its verdicts when a near miss is known', () => {
    const key = 'sk_live_9fQ2xZ7pLm4R8tVwq3';
    const redactor = new KeyRedactor([key], { placeholder: PLACEHOLDER });
    const page = (name: string) =>
      JSON.stringify([
        { id: 1, name, status: 'available' },
        { id: 2, name: 'Rex', status: 'available' },
      ]);
    const plain = page('Tom');
    expect(redactor.parsedBody(plain, JSON.parse(plain))).toBe(plain);
    const escaped = page(key).replace('sk_', '\\u0073k_');
    for (const raw of [page(key), escaped, JSON.stringify({ [key]: 1 })]) {
      expect(redactor.parsedBody(raw, JSON.parse(raw))).toBe(redactor.body(raw, true));
      expect(revealsKey(redactor.parsedBody(raw, JSON.parse(raw)), key)).toBeUndefined();
    }
    // A string found clean is remembered as clean only until a secret it holds is known.
    const later = 'another-secret-0042';
    const echo = page(`near ${base64(later)}`);
    expect(redactor.parsedBody(echo, JSON.parse(echo))).toBe(echo);
    redactor.know(later);
    expect(redactor.parsedBody(echo, JSON.parse(echo))).toBe(redactor.body(echo, true));
    expect(redactor.parsedBody(echo, JSON.parse(echo))).not.toContain(base64(later));
  });

  it('redacts every header value', () => {
    const headers = new KeyRedactor(['sk_live_123456']).headers(new Headers({ 'x-echo': 'sk_live_123456', 'content-type': 'application/json' }));
    expect(Object.fromEntries(headers)).toEqual({ 'x-echo': '***', 'content-type': 'application/json' });
  });
});

describe('credentialSecrets', () => {
  it('takes the credential of any scheme, and the password of a Basic one', () => {
    expect(credentialSecrets('Bearer t0ken')).toEqual(['t0ken']);
    expect(credentialSecrets(`Basic ${base64('user:pa55word')}`)).toEqual([base64('user:pa55word'), 'user:pa55word', 'pa55word']);
    expect(credentialSecrets('Digest username="u", response="abc"')).toEqual(['username="u", response="abc"']);
    expect(credentialSecrets('bare-token')).toEqual(['bare-token']);
    expect(credentialSecrets('Basic not-base64!')).toEqual(['not-base64!']);
    expect(credentialSecrets(undefined)).toEqual([]);
  });
});

describe('KeyRedactor: the forms the request log and the proxy hid before they shared it', () => {
  const key = 'staging/K3y+0=';
  const hide = new KeyRedactor([key, undefined]);

  it.each([
    ['as sent', key],
    ['without its = padding', key.slice(0, -1)],
    ['in base64', base64(key)],
    ['in base64 without its padding', base64(key).replace(/=+$/, '')],
    ['in base64url', Buffer.from(key).toString('base64url')],
    ['percent-encoded', encodeURIComponent(key)],
    ['percent-encoded twice', encodeURIComponent(encodeURIComponent(key))],
    ['JSON-escaped', key.replaceAll('/', '\\/')],
  ])('hides a secret %s, and only it', (_form, form) => {
    expect(hide.text(`owner ${form} here`)).toBe('owner *** here');
  });
});

describe('KeyRedactor: a key under layers of encoding (decoded-forms.ts)', () => {
  const key = 'Zq7xK9mWp2RtY4vB8nLc';
  for (const [name, encoded] of Object.entries(layeredKeyEncodings(key)))
    it(`finds a key as ${name}, in a text, a JSON body and a word of a header`, () => {
      const redactor = new KeyRedactor([key]);
      expect(redactor.holds(encoded), encoded).toBe(true);
      for (const shown of [
        redactor.text(`name=${encoded} next`),
        redactor.body(JSON.stringify({ name: encoded, id: 1 }), true),
        redactor.text(`a ${encoded} b`),
      ]) {
        expect(redactor.holds(shown), shown).toBe(false);
        expect(shown).not.toContain(encoded);
        expect(shown).toContain('***');
      }
      // A form with quotes (Node's Buffer as JSON) is escaped in a JSON body, where `[^"]*` cannot read it.
      if (!/[\n"]/.test(encoded)) {
        // The words around it are left; of the word, what the placeholder stands for.
        expect(redactor.text(`a ${encoded} b`)).toMatch(/^a \S*\*\*\*\S* b$/);
        expect(redactor.body(JSON.stringify({ name: encoded, id: 1 }), true)).toMatch(/^\{"name":"[^"]*\*\*\*[^"]*","id":1\}$/);
      }
    });

  it('leaves ordinary text, and other base64, hex and references, as they are', () => {
    const redactor = new KeyRedactor([key]);
    const ordinary = `GET /v1/pets?limit=5 &#x41;&amp; ${Buffer.from('just some other text').toString('base64')} ${hex('another value')} p.e.t.s ｆｕｌｌ`;
    expect(redactor.text(ordinary)).toBe(ordinary);
  });

  it('does not find a cipher of the key (rot13, reversed): whoever writes one holds the key, and no program writes it unasked', () => {
    const rot13 = key.replace(/[a-z]/gi, (c) => String.fromCharCode(((c.toLowerCase().charCodeAt(0) - 97 + 13) % 26) + (c <= 'Z' ? 65 : 97)));
    expect(new KeyRedactor([key]).holds(rot13)).toBe(false);
  });

  it(`decodes a hostile text within ${BUDGET_PER_CHARACTER} characters per character of it: 1 MiB of nested encodings`, () => {
    const hostile = `${'&#x41;%41\\x41'.repeat(40_000)} ${Buffer.from(Buffer.from('A'.repeat(200_000)).toString('base64')).toString('base64')} ${'70:'.repeat(100_000)}`;
    expect(hostile.length).toBeGreaterThan(1_000_000);
    const forms = decodedForms(hostile);
    expect(forms.reduce((sum, form) => sum + form.length, 0) - hostile.length).toBeLessThanOrEqual(BUDGET_PER_CHARACTER * hostile.length + 4_096);
    expect(new KeyRedactor([key]).text(hostile)).toBe(hostile);
  });
});

describe('a key longer than any pattern may hold (red team 9, #9: 4,700 characters killed both CLIs at start)', () => {
  // A bound of a hang, not of speed: the patterns of a key of 5,000 characters take seconds to make on a busy machine.
  it('is hidden whole in its forms, as its windows, and one placeholder stands for it', { timeout: 120_000 }, () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.';
    let state = 7;
    const key = Array.from({ length: 5_000 }, () => {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      return alphabet[state % alphabet.length];
    }).join('');
    const redactor = new KeyRedactor([key]);
    const basic = Buffer.from(`u:${key}`).toString('base64');
    expect(redactor.text(`Bearer ${key} then ${basic} then ${encodeURIComponent(key)}`)).toBe('Bearer *** then dTp*** then ***');
    expect(redactor.holds(key.slice(1_000, 1_600))).toBe(true);
  });
});

describe('KeyRedactor: a text too long for the regular expressions (red team 11 #1)', () => {
  it('withholds what it cannot check, never throws, never shows the key', () => {
    const key = 's3cretKEYvalue42';
    const redactor = new KeyRedactor([key]);
    // A run of 8 million characters without a break overflowed V8's regular-expression stack, and the throw ended the mock.
    const text = `{"name":"${'x'.repeat(8 * 1024 * 1024)}","note":"${key}"}`;
    const shown = redactor.text(text);
    expect(shown).toBe(`*** (${text.length} characters withheld: too long to check for the key)`);
    expect(redactor.body(text, true)).toBe(shown);
    expect(redactor.holds(text)).toBe(true);
    // Short of it, a text is checked as any other.
    expect(redactor.text(`{"name":"${'x'.repeat(1024 * 1024)}","note":"${key}"}`)).not.toContain(key);
  });
});
