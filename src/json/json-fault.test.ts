import { parse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { jsonFault } from './json-fault.js';
import { parseJson } from './lossless.js';

/** The error a parser throws on `text`. */
function thrownBy(parser: (text: string) => unknown, text: string): unknown {
  try {
    parser(text);
  } catch (error) {
    return error;
  }
  throw new Error(`${text} parsed`);
}

describe('jsonFault', () => {
  it('says where a text breaks JSON, quoting none of it, whichever parser refused it', () => {
    const secret = 'PETSTORE_SECRET=s3cr3t';
    for (const parser of [JSON.parse, parse, parseJson])
      for (const text of [secret, `{"a":"${secret}"`, `["${secret}",]`, `{"k":1} ${secret}`]) {
        const fault = jsonFault(thrownBy(parser, text));
        expect(fault).toMatch(/^it is not JSON/);
        expect(fault).not.toMatch(/PETSTORE|s3cr3t|'/);
      }
    expect(jsonFault(thrownBy(JSON.parse, '{"a":1} x'))).toBe('it is not JSON: it breaks at line 1, column 9');
    expect(jsonFault(thrownBy(JSON.parse, ''))).toBe('it is not JSON: it ends before its value does');
    expect(jsonFault(thrownBy(parseJson, '['.repeat(200)))).toBe('it is not JSON: its arrays and objects nest deeper than 128 levels');
  });
});
