/**
 * Turns Stryker's JSON report(s) into the published score: every surviving mutant is matched to a
 * triage rule of bench/mutation/triage.ts (equivalent, outside the contract, or missed), and the
 * result is written to bench/mutation/SURVIVORS.md and bench/mutation/score.json. A survivor no trial
 * executes is *untested*, whatever a rule says, unless its rule puts it outside the contract (a mock-only
 * feature no client of the interface uses). A survivor a trial executes that no rule covers fails the
 * script, so the published score never rests on an untriaged mutant.
 *
 *   tsx scripts/mutation-report.ts [stryker report.json ...]   (default reports/mutation/mutation.json)
 *   tsx scripts/mutation-report.ts reports/mutation/mutants.jsonl   (the files finished so far, during or after a run cut short)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { TRIAGE, type TriageRule, type Verdict } from '../bench/mutation/triage.js';

/** The part of Stryker's report (mutation-testing-report-schema) this script reads. */
interface StrykerReport {
  readonly files: Readonly<Record<string, { readonly source: string; readonly mutants: readonly StrykerMutant[] }>>;
}

interface Position {
  readonly line: number;
  readonly column: number;
}

interface StrykerMutant {
  readonly id: string;
  readonly mutatorName: string;
  readonly replacement?: string;
  readonly status: string;
  readonly statusReason?: string;
  readonly location: { readonly start: Position; readonly end: Position };
}

/** A surviving mutant, where it is and what it changed. */
export interface Survivor {
  readonly file: string;
  readonly line: number;
  readonly mutator: string;
  /** `Survived`, `NoCoverage` when no trial executes the mutated code, `Ignored` when it was not run (static). */
  readonly status: string;
  readonly original: string;
  readonly replacement: string;
  /** Names of the declarations around it, outermost first: `['Sessions', 'Sessions.open']`. */
  readonly scopes: readonly string[];
}

export interface Score {
  readonly date: string;
  readonly machine: string;
  readonly command: string;
  readonly files: readonly string[];
  /** Stryker's own counts; `noCoverage`: mutants in code no trial executes, which survive without a run. */
  readonly stryker: {
    readonly total: number;
    readonly killed: number;
    readonly timeout: number;
    readonly survived: number;
    readonly noCoverage: number;
    /** Static mutants, not run (`ignoreStatic`): untested. */
    readonly ignored: number;
    readonly other: number;
  };
  /** Survivors no client of any documented configuration can tell from the mock. */
  readonly equivalent: number;
  /** Survivors a client sees only in what the interface leaves free, or in a mock-only feature: no verifier of the interface may judge them. */
  readonly outside: number;
  /** Survivors a trial executes whose change the contract forbids: the verifier missed them. */
  readonly missed: number;
  /** Survivors no trial executes (Stryker's *NoCoverage*), outside the contract excepted: nobody knows. */
  readonly untested: number;
  /** Killed (timeouts included) over killed plus missed, in percent, one decimal. */
  readonly score: number;
  /** Killed (timeouts included) over killed plus missed plus untested, in percent, one decimal. */
  readonly scoreWithUntested: number;
  /** Stryker's mutation score: killed over all, in percent, one decimal. */
  readonly strykerScore: number;
}

function offsetOf(source: ts.SourceFile, position: Position): number {
  return source.getPositionOfLineAndCharacter(position.line - 1, position.column - 1);
}

function nameOf(node: ts.Node): string | undefined {
  if ((ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node) || ts.isMethodDeclaration(node)) && node.name) return node.name.getText();
  if ((ts.isVariableDeclaration(node) || ts.isPropertyAssignment(node) || ts.isPropertyDeclaration(node)) && node.initializer) {
    const { initializer } = node;
    const callable =
      ts.isArrowFunction(initializer) || ts.isFunctionExpression(initializer) || ts.isCallExpression(initializer) || ts.isObjectLiteralExpression(initializer);
    return callable ? node.name.getText() : undefined;
  }
  if (ts.isGetAccessor(node) || ts.isConstructorDeclaration(node)) return ts.isConstructorDeclaration(node) ? 'constructor' : node.name.getText();
  return undefined;
}

/** The named declarations around `offset`, outermost first; a class's members are `Class.member`. */
export function scopesAt(source: ts.SourceFile, offset: number): string[] {
  const names: string[] = [];
  let className: string | undefined;
  const visit = (node: ts.Node): void => {
    if (offset < node.getStart(source) || offset >= node.getEnd()) return;
    const name = nameOf(node);
    if (name !== undefined) {
      const qualified = className !== undefined && !ts.isClassDeclaration(node) && ts.isClassElement(node) ? `${className}.${name}` : name;
      names.push(qualified);
      if (ts.isClassDeclaration(node)) className = name;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

/**
 * What a mutant that was not killed is: `Survived` (the trials ran and the verifier passed),
 * `NoCoverage` (no trial executes its code), `Ignored` (a static mutant, which runs only while the
 * modules load: `ignoreStatic` in stryker.config.json leaves it unrun, as each costs a new worker).
 */
const UNKILLED = ['Survived', 'NoCoverage', 'Ignored'];

/** The surviving mutants of one report, with their original code and scopes. */
export function survivorsOf(report: StrykerReport): Survivor[] {
  return Object.entries(report.files).flatMap(([file, { source: text, mutants }]) => {
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    return mutants
      .filter((mutant) => UNKILLED.includes(mutant.status))
      .map((mutant) => {
        const start = offsetOf(source, mutant.location.start);
        return {
          file,
          line: mutant.location.start.line,
          mutator: mutant.mutatorName,
          status: mutant.status,
          original: text.slice(start, offsetOf(source, mutant.location.end)),
          replacement: mutant.replacement ?? '',
          scopes: scopesAt(source, start),
        };
      });
  });
}

/** What a survivor counts as: its rule's verdict, or `untested` when no trial executes it and it is not outside the contract. */
export function verdictOf(survivor: Survivor, rule: TriageRule | undefined): Verdict | undefined {
  if (survivor.status !== 'Survived' && rule?.verdict !== 'outside') return 'untested';
  return rule?.verdict;
}

/** The first rule that covers the survivor, or undefined. */
export function ruleFor(survivor: Survivor, rules: readonly TriageRule[]): TriageRule | undefined {
  return rules.find(
    (rule) =>
      rule.file === survivor.file &&
      (rule.scope === undefined || survivor.scopes.includes(rule.scope)) &&
      (rule.code === undefined || rule.code.test(survivor.original)) &&
      (rule.replacement === undefined || rule.replacement.test(survivor.replacement)) &&
      (rule.mutators === undefined || rule.mutators.includes(survivor.mutator)),
  );
}

const percent = (part: number, whole: number) => (whole === 0 ? 100 : Math.round((1000 * part) / whole) / 10);

function oneLine(code: string, max = 90): string {
  const flat = code.replace(/\s+/g, ' ').trim();
  return (flat.length > max ? `${flat.slice(0, max - 1)}…` : flat).replaceAll('|', '\\|').replaceAll('`', "'");
}

function survivorsMarkdown(score: Score, triaged: ReadonlyMap<TriageRule, Survivor[]>, untested: readonly Survivor[]): string {
  const sections = (verdict: Verdict) =>
    [...triaged]
      .filter(([rule]) => rule.verdict === verdict)
      .map(([rule, survivors]) => {
        const where = rule.scope === undefined ? rule.file : `${rule.file}, ${rule.scope}`;
        const lines = survivors.map(
          (s) =>
            `- line ${s.line}, ${s.mutator}${s.status === 'NoCoverage' ? ' (not executed)' : ''}: \`${oneLine(s.original)}\` → \`${oneLine(s.replacement)}\``,
        );
        return [`### ${where}: ${survivors.length}`, '', rule.reason, '', ...lines, ''].join('\n');
      });
  return [
    '# Surviving mutants, triaged',
    '',
    `Generated by \`tsx scripts/mutation-report.ts\` from the Stryker run of ${score.date} (docs/mutation.md); the rules are in bench/mutation/triage.ts.`,
    `${score.stryker.survived + score.stryker.noCoverage + score.stryker.ignored} survivors (${score.stryker.noCoverage} of them in code no trial executes, ${score.stryker.ignored} static and not run): ${score.missed} missed, ${score.untested} untested, ${score.outside} outside the contract, ${score.equivalent} equivalent.`,
    '',
    '## Missed: a change the contract forbids, which a trial reached and the verifier did not catch',
    '',
    ...sections('missed'),
    '## Untested: code no trial executes in any configuration, or whose change no trial could see',
    '',
    'No trial runs this code, or none plays the client that would see the change, so nobody knows: counted against the second score.',
    '',
    ...sections('untested'),
    ...[...new Set(untested.map((s) => s.file))].flatMap((file) => [
      `### ${file}: ${untested.filter((s) => s.file === file).length}`,
      '',
      ...untested
        .filter((s) => s.file === file)
        .map(
          (s) =>
            `- line ${s.line}, ${s.mutator} (${s.status === 'Ignored' ? 'static, not run' : 'not executed'}): \`${oneLine(s.original)}\` → \`${oneLine(s.replacement)}\``,
        ),
      '',
    ]),
    '## Outside the contract: seen only where the interface leaves the answer free, or in a mock-only feature',
    '',
    ...sections('outside'),
    '## Equivalent: no client of any documented configuration can tell',
    '',
    ...sections('equivalent'),
  ].join('\n');
}

/** Reads the reports, triages every survivor, and returns the score and SURVIVORS.md, or the untriaged survivors. */
export function triage(
  reports: readonly StrykerReport[],
  rules: readonly TriageRule[],
  date: string,
): { score: Score; markdown: string; unused: TriageRule[] } | { untriaged: Survivor[] } {
  const mutants = reports.flatMap((report) => Object.values(report.files).flatMap((file) => file.mutants));
  const survivors = reports.flatMap(survivorsOf);
  const triaged = new Map<TriageRule, Survivor[]>();
  const untriaged: Survivor[] = [];
  const untested: Survivor[] = [];
  for (const survivor of survivors) {
    const rule = ruleFor(survivor, rules);
    const verdict = verdictOf(survivor, rule);
    if (verdict === 'untested' && rule?.verdict !== 'untested') untested.push(survivor);
    else if (rule === undefined) untriaged.push(survivor);
    else triaged.set(rule, [...(triaged.get(rule) ?? []), survivor]);
  }
  if (untriaged.length > 0) return { untriaged };
  const countOf = (...statuses: string[]) => mutants.filter((mutant) => statuses.includes(mutant.status)).length;
  const killed = countOf('Killed');
  const timeout = countOf('Timeout');
  const counted = (verdict: Verdict) => [...triaged].filter(([rule]) => rule.verdict === verdict).reduce((sum, [, list]) => sum + list.length, 0);
  const missed = counted('missed');
  const score: Score = {
    date,
    machine: `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.versions.node}, ${process.platform}`,
    command: 'npm run mutation && npx tsx scripts/mutation-report.ts',
    files: reports.flatMap((report) => Object.keys(report.files)).sort(),
    stryker: {
      total: mutants.length,
      killed,
      timeout,
      survived: countOf('Survived'),
      noCoverage: countOf('NoCoverage'),
      ignored: countOf('Ignored'),
      other: mutants.length - killed - timeout - survivors.length,
    },
    equivalent: counted('equivalent'),
    outside: counted('outside'),
    missed,
    untested: untested.length + counted('untested'),
    score: percent(killed + timeout, killed + timeout + missed),
    scoreWithUntested: percent(killed + timeout, killed + timeout + missed + untested.length + counted('untested')),
    strykerScore: percent(killed + timeout, mutants.length - countOf('Ignored')),
  };
  // A rule that matches nothing any more (its mutants are killed now) is worth deleting.
  return { score, markdown: survivorsMarkdown(score, triaged, untested), unused: rules.filter((rule) => !triaged.has(rule)) };
}

/**
 * A report of the mutants tested so far, from the lines scripts/stryker-mutant-log.ts appends during a
 * run; the sources as they are on disk. Only files every mutant of which has a result are kept: Stryker
 * numbers the mutants of each file in a row, so a file is finished when no number of its run is missing.
 */
function reportOfLog(text: string): StrykerReport {
  const lines = text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as StrykerMutant & { fileName: string });
  const ids = new Set(lines.map((line) => Number(line.id)));
  const firstId = new Map<string, number>();
  for (const { fileName, id } of lines) firstId.set(fileName, Math.min(firstId.get(fileName) ?? Number(id), Number(id)));
  const starts = [...firstId.values()].sort((a, b) => a - b);
  const finished = (fileName: string) => {
    const start = firstId.get(fileName) ?? 0;
    const end = starts.find((candidate) => candidate > start) ?? Math.max(...ids) + 1;
    for (let id = start; id < end; id++) if (!ids.has(id)) return false;
    return true;
  };
  const files: Record<string, { source: string; mutants: StrykerMutant[] }> = {};
  for (const { fileName, ...mutant } of lines) {
    if (!finished(fileName)) continue;
    const file = relative(process.cwd(), fileName);
    files[file] ??= { source: readFileSync(file, 'utf8'), mutants: [] };
    files[file].mutants.push(mutant);
  }
  const unfinished = [...firstId.keys()].filter((fileName) => !finished(fileName)).map((fileName) => relative(process.cwd(), fileName));
  if (unfinished.length > 0) process.stderr.write(`mutation-report: left out, not finished: ${unfinished.join(', ')}\n`);
  return { files };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const files = process.argv.slice(2);
  const reports = (files.length > 0 ? files : ['reports/mutation/mutation.json']).map((file): StrykerReport => {
    const text = readFileSync(file, 'utf8');
    return file.endsWith('.jsonl') ? reportOfLog(text) : JSON.parse(text);
  });
  const result = triage(reports, TRIAGE, new Date().toISOString().slice(0, 10));
  if ('untriaged' in result) {
    for (const s of result.untriaged)
      process.stderr.write(
        `untriaged: ${s.file}:${s.line} [${s.scopes.join(' > ')}] ${s.status} ${s.mutator}: ${oneLine(s.original)} -> ${oneLine(s.replacement)}\n`,
      );
    process.stderr.write(`mutation-report: ${result.untriaged.length} surviving mutants match no rule; add rules to bench/mutation/triage.ts.\n`);
    process.exitCode = 1;
  } else {
    writeFileSync('bench/mutation/score.json', `${JSON.stringify(result.score, null, 2)}\n`);
    writeFileSync('bench/mutation/SURVIVORS.md', result.markdown);
    const { score } = result;
    for (const rule of result.unused)
      process.stderr.write(`mutation-report: no survivor matches the rule for ${rule.file} ${rule.scope ?? ''} ${rule.code ?? ''}\n`);
    process.stdout.write(
      `${score.stryker.killed + score.stryker.timeout} killed of ${score.stryker.total}; ${score.missed} missed, ${score.untested} untested, ${score.outside} outside the contract, ${score.equivalent} equivalent: ${score.score}% of killed + missed, ${score.scoreWithUntested}% with the untested (Stryker: ${score.strykerScore}%).\n`,
    );
  }
}
