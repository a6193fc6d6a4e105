/**
 * The flags tables of docs/mock.md and docs/verifier.md are the CLIs' own option definitions,
 * rendered by scripts/flags-table.ts: a flag added to a CLI fails here until the page shows it.
 */
import { readFile } from 'node:fs/promises';
import { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { FLAG_TABLES, flagsTableIn, renderFlagsTable, withFlagsTable } from '../../scripts/flags-table.js';
import { verifyCommand } from '../../src/contracts/verify-cli.js';
import { mockCommand } from '../../src/mock/hosts/mock-cli.js';

const root = new URL('../../', import.meta.url);
const REGENERATE = 'run `npm run docs:flags` to rewrite it from the CLI, and commit the page';

/** The table's rows after its header and separator. */
function rows(table: string): string[] {
  return table.split('\n').slice(2);
}

describe('the flags tables of the docs', () => {
  it('cover both CLIs', () => {
    expect(FLAG_TABLES.map(({ page, command }) => [page, command])).toEqual([
      ['docs/mock.md', mockCommand],
      ['docs/verifier.md', verifyCommand],
    ]);
  });

  for (const { page, command } of FLAG_TABLES) {
    it(`${page} shows every flag of ${command().name()} as the CLI defines it`, async () => {
      const program = command();
      const shown = flagsTableIn(await readFile(new URL(page, root), 'utf8'), program.name());
      expect(shown, `${page} has no <!-- flags:${program.name()} --> ... <!-- /flags -->: add the markers, then ${REGENERATE}`).toBeDefined();
      expect(shown, `${page}'s flags table differs from ${program.name()}'s options: ${REGENERATE}`).toBe(renderFlagsTable(program));
      expect(rows(shown ?? '')).toHaveLength(program.options.filter((option) => !option.hidden).length);
    });
  }
});

describe('renderFlagsTable', () => {
  const table = renderFlagsTable(
    new Command('tool')
      .addOption(new Option('-p, --port <port>', 'TCP port').default(4010))
      .addOption(new Option('-k, --key <key>', 'the key; repeat for several (default: dev-key)').env('TOOL_KEY'))
      .addOption(new Option('--suite <suite>', 'which (default: all when installed, spec otherwise)').choices(['spec', 'all']))
      .addOption(new Option('--pact <file>', 'a pact; repeatable').default([]))
      .option('--no-prefer', 'ignore Prefer | and <tags>')
      .option('-q, --quiet', 'no log')
      .addOption(new Option('--secret', 'not shown').hideHelp()),
  );

  it('gives each option a row: flags, argument or its choices, default, env variable, description', () => {
    expect(table.split('\n')).toEqual([
      '| flag | argument | default | env | what it does |',
      '| --- | --- | --- | --- | --- |',
      '| `-p, --port` | `<port>` | `4010` |  | TCP port |',
      '| `-k, --key` | `<key>` | `dev-key` | `TOOL_KEY` | the key; repeat for several |',
      '| `--suite` | `spec` \\| `all` | all when installed, spec otherwise |  | which |',
      '| `--pact` | `<file>` | none |  | a pact; repeatable |',
      '| `--no-prefer` |  | off |  | ignore Prefer \\| and \\<tags> |',
      '| `-q, --quiet` |  | off |  | no log |',
    ]);
  });

  it('replaces only what stands between the markers, and reads back what it wrote', () => {
    const page = 'before\n<!-- flags:tool -->\nold table\n<!-- /flags -->\nafter\n';
    const updated = withFlagsTable(page, 'tool', table);
    expect(updated).toBe(`before\n<!-- flags:tool -->\n${table}\n<!-- /flags -->\nafter\n`);
    expect(flagsTableIn(updated, 'tool')).toBe(table);
    expect(withFlagsTable(updated, 'tool', table)).toBe(updated);
    expect(flagsTableIn(page, 'other')).toBeUndefined();
    expect(() => withFlagsTable(page, 'other', table)).toThrow('<!-- flags:other -->');
  });
});
