/**
 * Turns Stryker's JSON report(s) into the published score: every surviving mutant is matched to a
 * triage rule of bench/mutation/triage.ts (equivalent, or missed), and the result is written to
 * bench/mutation/SURVIVORS.md and bench/mutation/score.json. A survivor no rule covers fails the
 * script, so the published score never rests on an untriaged mutant.
 *
 *   tsx scripts/mutation-report.ts [stryker report.json ...]   (default reports/mutation/mutation.json)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
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
  /** `Survived`, or `NoCoverage` when no trial executes the mutated code. */
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
    readonly other: number;
  };
  readonly equivalent: number;
  readonly missed: number;
  /** Killed (timeouts included) over the mutants that are not equivalent, in percent, one decimal. */
  readonly score: number;
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

/** The surviving mutants of one report, with their original code and scopes. */
export function survivorsOf(report: StrykerReport): Survivor[] {
  return Object.entries(report.files).flatMap(([file, { source: text, mutants }]) => {
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    return mutants
      .filter((mutant) => mutant.status === 'Survived' || mutant.status === 'NoCoverage')
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

function survivorsMarkdown(score: Score, triaged: ReadonlyMap<TriageRule, Survivor[]>): string {
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
    `${score.equivalent + score.missed} survivors (${score.stryker.noCoverage} of them in code no trial executes): ${score.equivalent} equivalent (the verifier cannot see them by design), ${score.missed} missed.`,
    '',
    '## Missed: a contract-visible change the verifier does not catch',
    '',
    ...sections('missed'),
    '## Equivalent: no change a deployment shows to the verifier',
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
  for (const survivor of survivors) {
    const rule = ruleFor(survivor, rules);
    if (rule === undefined) untriaged.push(survivor);
    else triaged.set(rule, [...(triaged.get(rule) ?? []), survivor]);
  }
  if (untriaged.length > 0) return { untriaged };
  const countOf = (...statuses: string[]) => mutants.filter((mutant) => statuses.includes(mutant.status)).length;
  const killed = countOf('Killed');
  const timeout = countOf('Timeout');
  const equivalent = [...triaged].filter(([rule]) => rule.verdict === 'equivalent').reduce((sum, [, list]) => sum + list.length, 0);
  const missed = survivors.length - equivalent;
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
      other: mutants.length - killed - timeout - survivors.length,
    },
    equivalent,
    missed,
    score: percent(killed + timeout, killed + timeout + missed),
    strykerScore: percent(killed + timeout, killed + timeout + survivors.length),
  };
  // A rule that matches nothing any more (its mutants are killed now) is worth deleting.
  return { score, markdown: survivorsMarkdown(score, triaged), unused: rules.filter((rule) => !triaged.has(rule)) };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const files = process.argv.slice(2);
  const reports = (files.length > 0 ? files : ['reports/mutation/mutation.json']).map((file): StrykerReport => JSON.parse(readFileSync(file, 'utf8')));
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
      `${score.stryker.killed + score.stryker.timeout} killed of ${score.stryker.total}; ${score.equivalent} equivalent, ${score.missed} missed: ${score.score}% of the non-equivalent mutants killed (Stryker: ${score.strykerScore}%).\n`,
    );
  }
}
