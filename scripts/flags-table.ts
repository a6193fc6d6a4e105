/**
 * The flags tables of docs/mock.md and docs/verifier.md, rendered from the CLIs' own option
 * definitions, so a page can never list fewer flags than the CLI has. Each table sits between
 * `<!-- flags:<command> -->` and `<!-- /flags -->`; test/tooling/docs-flags.test.ts checks them,
 * and `npm run docs:flags` rewrites them.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import type { Command, Option } from 'commander';
import { verifyCommand } from '../src/contracts/verify-cli.js';
import { mockCommand } from '../src/mock/hosts/mock-cli.js';

/** Which page shows the flags of which command. */
export const FLAG_TABLES: readonly { page: string; command: () => Command }[] = [
  { page: 'docs/mock.md', command: mockCommand },
  { page: 'docs/verifier.md', command: verifyCommand },
];

/**
 * A default the CLI cannot set itself (it depends on the environment, or on another flag) is written
 * at the end of the option's description, as commander's own help writes one: `(default: ...)`.
 */
const DEFAULT_IN_DESCRIPTION = /\s*\(default: ([^()]+)\)$/;

/** A cell's text as Markdown shows it: `|` would end the cell, and `<word>` would be taken for an HTML tag. */
function cell(text: string): string {
  return text
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\|/g, '\\|')
    .replace(/</g, '\\<');
}

function code(text: string): string {
  return `\`${text.replace(/\|/g, '\\|')}\``;
}

/** A default value as the table shows it: one word in code, a sentence as it is. */
function shownDefault(option: Option): string {
  if (option.defaultValueDescription !== undefined) return code(option.defaultValueDescription);
  const value: unknown = option.defaultValue;
  if (value === undefined) {
    const written = DEFAULT_IN_DESCRIPTION.exec(option.description)?.[1];
    if (written !== undefined) return /\s/.test(written) ? cell(written) : code(written);
    // A switch (no argument) is off unless given; `--no-x` too: giving it is what turns x off.
    return option.required || option.optional ? 'none' : 'off';
  }
  if (Array.isArray(value) && value.length === 0) return 'none';
  return code(typeof value === 'string' ? value : JSON.stringify(value));
}

/** One row: the flags without their argument, the argument (or its choices), the default, the env variable, what it does. */
function row(option: Option): string {
  const flags = option.flags.replace(/\s*[<[].*$/, '');
  const argument = option.argChoices ? option.argChoices.map(code).join(' \\| ') : /[<[].*$/.exec(option.flags)?.[0];
  const description = option.description.replace(DEFAULT_IN_DESCRIPTION, '');
  const cells = [
    code(flags),
    argument === undefined ? '' : option.argChoices ? argument : code(argument),
    shownDefault(option),
    option.envVar === undefined ? '' : code(option.envVar),
    cell(description),
  ];
  return `| ${cells.join(' | ')} |`;
}

/** The Markdown table of every visible option of `command`, in the order `--help` lists them. */
export function renderFlagsTable(command: Command): string {
  const options = command.options.filter((option) => !option.hidden);
  return ['| flag | argument | default | env | what it does |', '| --- | --- | --- | --- | --- |', ...options.map(row)].join('\n');
}

function markers(name: string): { open: string; close: string } {
  return { open: `<!-- flags:${name} -->`, close: '<!-- /flags -->' };
}

/** Where the table of `name` starts and ends in `text` (the lines between the markers), or undefined without the markers. */
function tableSpan(text: string, name: string): { start: number; end: number } | undefined {
  const { open, close } = markers(name);
  const opened = text.indexOf(open);
  const end = opened === -1 ? -1 : text.indexOf(close, opened);
  if (end === -1) return undefined;
  const start = opened + open.length;
  return { start, end };
}

/** The table `text` holds between the markers of `name`, or undefined when the markers are missing. */
export function flagsTableIn(text: string, name: string): string | undefined {
  const span = tableSpan(text, name);
  return span && text.slice(span.start, span.end).replace(/^\n|\n$/g, '');
}

/** `text` with the table between the markers of `name` replaced by `table`. */
export function withFlagsTable(text: string, name: string, table: string): string {
  const span = tableSpan(text, name);
  const { open, close } = markers(name);
  if (span === undefined) throw new Error(`the page has no ${open} ... ${close} to hold the flags of ${name}`);
  return `${text.slice(0, span.start)}\n${table}\n${text.slice(span.end)}`;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = new URL('../', import.meta.url);
  for (const { page, command } of FLAG_TABLES) {
    const file = new URL(page, root);
    const text = await readFile(file, 'utf8');
    const program = command();
    const updated = withFlagsTable(text, program.name(), renderFlagsTable(program));
    if (updated === text) {
      process.stdout.write(`${page}: the flags of ${program.name()} are up to date\n`);
      continue;
    }
    await writeFile(file, updated);
    process.stdout.write(`${page}: rewrote the flags of ${program.name()}\n`);
  }
}
