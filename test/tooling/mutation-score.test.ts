import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { TriageRule } from '../../bench/mutation/triage.js';
import { type Score, triage } from '../../scripts/mutation-report.js';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const score: Score = JSON.parse(read('bench/mutation/score.json'));

describe('the published mutation score', () => {
  it('adds up: every mutant is killed, timed out, survived or other; every survivor is equivalent, outside the contract, missed or untested', () => {
    const { total, killed, timeout, survived, noCoverage, ignored, other } = score.stryker;
    expect(killed + timeout + survived + noCoverage + ignored + other).toBe(total);
    expect(score.equivalent + score.outside + score.missed + score.untested).toBe(survived + noCoverage + ignored);
    expect(score.score).toBe(Math.round((1000 * (killed + timeout)) / (killed + timeout + score.missed)) / 10);
    expect(score.scoreWithUntested).toBe(Math.round((1000 * (killed + timeout)) / (killed + timeout + score.missed + score.untested)) / 10);
  });

  it('is the one docs/mutation.md publishes, with its date and raw Stryker numbers', () => {
    const page = read('docs/mutation.md');
    const detected = score.stryker.killed + score.stryker.timeout;
    expect(page).toContain(`${score.score}%`);
    expect(page).toContain(`${detected} of ${detected + score.missed}`);
    expect(page).toContain(`${score.scoreWithUntested}%`);
    expect(page).toContain(`${detected} of ${detected + score.missed + score.untested}`);
    expect(page).toContain(`${score.stryker.total} mutants`);
    expect(page).toContain(score.date);
  });

  it('lists each survivor once in bench/mutation/SURVIVORS.md', () => {
    const entries = read('bench/mutation/SURVIVORS.md')
      .split('\n')
      .filter((line) => line.startsWith('- line '));
    expect(entries).toHaveLength(score.stryker.survived + score.stryker.noCoverage + score.stryker.ignored);
  });

  it('is about files that exist and that stryker.config.json mutates', () => {
    const config: { mutate: string[] } = JSON.parse(read('stryker.config.json'));
    for (const file of score.files) {
      expect(existsSync(new URL(`../../${file}`, import.meta.url)), file).toBe(true);
      expect(file.startsWith('src/mock/') && !file.endsWith('.test.ts'), file).toBe(true);
    }
    expect(config.mutate.some((glob) => glob.includes('operations'))).toBe(true);
  });

  it('is reproduced by npm run mutation, which npm test does not run', () => {
    const { scripts }: { scripts: Record<string, string> } = JSON.parse(read('package.json'));
    expect(scripts.mutation).toContain('stryker');
    expect(scripts.test).not.toContain('mutation');
  });
});

describe('mutation-report triage', () => {
  const source = 'export function f(a: number) {\n  return a > 1 ? "x" : "y";\n}\n';
  const report = {
    files: {
      'src/mock/f.ts': {
        source,
        mutants: [
          {
            id: '1',
            mutatorName: 'EqualityOperator',
            replacement: 'a >= 1',
            status: 'Survived',
            location: { start: { line: 2, column: 10 }, end: { line: 2, column: 15 } },
          },
          {
            id: '2',
            mutatorName: 'StringLiteral',
            replacement: '""',
            status: 'Killed',
            location: { start: { line: 2, column: 18 }, end: { line: 2, column: 21 } },
          },
        ],
      },
    },
  };

  it('refuses to score while a survivor matches no rule', () => {
    const result = triage([report], [], '2026-01-01');
    expect(result).toEqual({ untriaged: [expect.objectContaining({ file: 'src/mock/f.ts', line: 2, original: 'a > 1', scopes: ['f'] })] });
  });

  it('scores killed over killed plus missed, leaving equivalent survivors out', () => {
    const equivalent: TriageRule = { file: 'src/mock/f.ts', scope: 'f', verdict: 'equivalent', reason: 'why' };
    const missed: TriageRule = { ...equivalent, verdict: 'missed' };
    const asEquivalent = triage([report], [equivalent], '2026-01-01');
    const asMissed = triage([report], [missed], '2026-01-01');
    expect('score' in asEquivalent && asEquivalent.score).toMatchObject({ equivalent: 1, missed: 0, score: 100, strykerScore: 50 });
    expect('score' in asMissed && asMissed.score).toMatchObject({ equivalent: 0, missed: 1, score: 50, strykerScore: 50 });
  });

  it('counts a survivor no trial executes as untested, whatever its rule says, unless the rule puts it outside the contract', () => {
    const file = report.files['src/mock/f.ts'];
    const unreached = {
      files: {
        'src/mock/f.ts': {
          ...file,
          mutants: file.mutants.map((mutant) => ({ ...mutant, status: mutant.status === 'Survived' ? 'NoCoverage' : mutant.status })),
        },
      },
    };
    const equivalent: TriageRule = { file: 'src/mock/f.ts', scope: 'f', verdict: 'equivalent', reason: 'why' };
    const unruled = triage([unreached], [], '2026-01-01');
    const asEquivalent = triage([unreached], [equivalent], '2026-01-01');
    const asOutside = triage([unreached], [{ ...equivalent, verdict: 'outside' }], '2026-01-01');
    expect('score' in unruled && unruled.score).toMatchObject({ equivalent: 0, untested: 1, score: 100, scoreWithUntested: 50 });
    expect('score' in asEquivalent && asEquivalent.score).toMatchObject({ equivalent: 0, untested: 1, score: 100, scoreWithUntested: 50 });
    expect('score' in asOutside && asOutside.score).toMatchObject({ outside: 1, untested: 0, score: 100, scoreWithUntested: 100 });
  });
});
