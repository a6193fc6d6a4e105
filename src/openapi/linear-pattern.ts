/**
 * A spec's `pattern` run in time linear in its input. The pattern is the spec's author's; the text is any
 * client's (the mock) or any deployment's (the verifier), so V8's backtracking engine, whose time a
 * pattern such as `^(a+)+$` makes exponential in the text (29 characters held the mock 27 s), never runs
 * one over a whole text. The pattern is read into a Thompson automaton and every path through it is
 * followed at once, one character after another (Thompson 1968; Cox, "Regular Expression Matching Can Be
 * Simple And Fast"): each character costs at most the automaton's size, whatever the text.
 *
 * The pattern keeps ECMAScript's meaning, as JSON Schema says (2020-12 6.3.3, with the `u` flag ajv
 * sets): V8 parses it first, and each atom (a character, a class, an escape, `.`) is tested by V8 on one
 * character at a time, which no text can make backtrack. Whether a text holds a match does not depend on
 * the order backtracking would try paths in, so the two engines agree (fast-check compares them). What no
 * automaton runs, a backreference or a lookaround, is refused where the spec is compiled, with a sentence
 * naming where it stands (`linearPatternProblems`). No dependency: the mock runs in a browser too.
 */

/** What ajv's `code.regExp` takes (ajv's `RegExpEngine`, not exported from its entry point). */
interface RegExpEngine {
  (pattern: string, flags: string): { test(text: string): boolean };
  code: string;
}

/** The most states one pattern's automaton may have: each character of a text costs at most this many steps. */
export const MAX_PATTERN_STATES = 1_024;
/** The deepest groups may nest (the pattern is read recursively). */
const MAX_GROUP_DEPTH = 64;

type Assertion = 'start' | 'end' | 'word' | 'not-word';

/** A pattern as read: what it matches, before it becomes states. */
type Term =
  | { readonly kind: 'atom'; readonly test: (code: number) => boolean }
  | { readonly kind: 'assert'; readonly at: Assertion }
  | { readonly kind: 'seq'; readonly items: readonly Term[] }
  | { readonly kind: 'alt'; readonly options: readonly Term[] }
  | { readonly kind: 'repeat'; readonly term: Term; readonly min: number; readonly max: number };

/** What a refusal of a construct says. */
const NO_AUTOMATON = 'which no automaton can follow: write the pattern without backreferences, lookahead or lookbehind';

/** A pattern that cannot be run in linear time, or not read at all; the message says why. */
class PatternError extends Error {
  override readonly name = 'PatternError';
}

/** An atom's test: V8 on one character (`^(?:atom)$`), remembered for ASCII, where most texts are. */
function atomTest(source: string): (code: number) => boolean {
  const single = new RegExp(`^(?:${source})$`, 'u');
  const ascii = new Int8Array(128);
  return (code) => {
    if (code < 128) {
      if (ascii[code] === 0) ascii[code] = single.test(String.fromCharCode(code)) ? 1 : -1;
      return ascii[code] === 1;
    }
    return single.test(String.fromCodePoint(code));
  };
}

/** An escape outside a class, read where it starts (sticky): a property, a code point written out (a surrogate pair as one), a control letter, or one character. */
const ESCAPE =
  /\\(?:[pP]\{[^}]*\}|u\{[0-9A-Fa-f]+\}|u[dD][89aAbB][0-9A-Fa-f]{2}\\u[dD][c-fC-F][0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|x[0-9A-Fa-f]{2}|c[A-Za-z]|[\s\S])/uy;

/** Reads a pattern V8 has parsed with the `u` flag, so every construct below is well formed. */
class Reader {
  #at = 0;
  #depth = 0;
  constructor(readonly source: string) {}

  read(): Term {
    const term = this.#alternatives();
    if (this.#at < this.source.length) throw new PatternError(`it has an unmatched ) at ${this.#at}`);
    return term;
  }

  #alternatives(): Term {
    const options = [this.#sequence()];
    while (this.source[this.#at] === '|') {
      this.#at++;
      options.push(this.#sequence());
    }
    return options.length === 1 ? (options[0] as Term) : { kind: 'alt', options };
  }

  #sequence(): Term {
    const items: Term[] = [];
    while (this.#at < this.source.length && this.source[this.#at] !== '|' && this.source[this.#at] !== ')') items.push(this.#quantified(this.#atom()));
    return { kind: 'seq', items };
  }

  #quantified(term: Term): Term {
    const quantifier = /^(?:([*+?])|\{(\d+)(,(\d*))?\})\??/.exec(this.source.slice(this.#at, this.#at + 32));
    if (quantifier === null) return term;
    this.#at += quantifier[0].length;
    const [, symbol, min, comma, max] = quantifier;
    if (symbol !== undefined) return { kind: 'repeat', term, min: symbol === '+' ? 1 : 0, max: symbol === '?' ? 1 : Number.POSITIVE_INFINITY };
    const low = Number(min);
    return { kind: 'repeat', term, min: low, max: comma === undefined ? low : max === '' ? Number.POSITIVE_INFINITY : Number(max) };
  }

  #atom(): Term {
    const { source } = this;
    const start = this.#at;
    const character = source[start];
    if (character === '^' || character === '$') {
      this.#at++;
      return { kind: 'assert', at: character === '^' ? 'start' : 'end' };
    }
    if (character === '(') return this.#group();
    if (character === '[') {
      // Inside a class only `\` escapes; `]` ends it (u-mode classes do not nest).
      let end = start + 1;
      while (source[end] !== ']') end += source[end] === '\\' ? 2 : 1;
      this.#at = end + 1;
    } else if (character === '\\') {
      const next = source[start + 1] ?? '';
      if (next === 'b' || next === 'B') {
        this.#at += 2;
        return { kind: 'assert', at: next === 'b' ? 'word' : 'not-word' };
      }
      if (/[1-9k]/.test(next)) throw new PatternError(`\\${next} is a backreference, ${NO_AUTOMATON}`);
      ESCAPE.lastIndex = start;
      this.#at += ESCAPE.exec(source)?.[0].length ?? 2;
    } else this.#at += String.fromCodePoint(source.codePointAt(start) ?? 0).length;
    return { kind: 'atom', test: atomTest(source.slice(start, this.#at)) };
  }

  #group(): Term {
    const opening = /^\((?:\?(?::|<(?![=!])[^>]*>|([=!]|<[=!]|[-a-z]*:?)))?/.exec(this.source.slice(this.#at, this.#at + 40));
    if (opening?.[1] !== undefined) throw new PatternError(`${opening[0]} is a lookaround or a modifier, ${NO_AUTOMATON}`);
    this.#at += opening?.[0].length ?? 1;
    if (++this.#depth > MAX_GROUP_DEPTH) throw new PatternError(`its groups nest more than ${MAX_GROUP_DEPTH} deep`);
    const term = this.#alternatives();
    this.#depth--;
    this.#at++; // the `)`
    return term;
  }
}

/** A state of the automaton: one character tested, a fork (both ways alike: a step that reads nothing), an assertion, or the match. */
type State =
  | { op: 'atom'; readonly test: (code: number) => boolean; next: number }
  | { op: 'split'; next: number; other: number }
  | { op: 'assert'; readonly at: Assertion; next: number }
  | { readonly op: 'match' };

/** A way out of a state not yet pointed anywhere: its index and which of its pointers. */
type Hole = readonly [index: number, field: 'next' | 'other'];

/** Builds the states of a term, each piece's ways out left open (`Hole`s) until what follows it is known. */
class StateBuilder {
  readonly states: State[] = [];

  add(state: State): number {
    if (this.states.length >= MAX_PATTERN_STATES)
      throw new PatternError(
        `its automaton needs more than ${MAX_PATTERN_STATES.toLocaleString('en-US')} states (a long repeat, or a repeat of a repeat): write its repeats smaller (a length is for maxLength to say, not for .{1,5000})`,
      );
    this.states.push(state);
    return this.states.length - 1;
  }

  patch(holes: readonly Hole[], to: number): void {
    for (const [index, field] of holes) (this.states[index] as Record<typeof field, number>)[field] = to;
  }

  /** A step that reads nothing. */
  empty(): Hole[] {
    const index = this.add({ op: 'split', next: -1, other: -1 });
    return [
      [index, 'next'],
      [index, 'other'],
    ];
  }

  /** `pieces` one after another, each emitted when called: the holes of the last, or of a step that reads nothing. */
  chain(pieces: readonly (() => Hole[])[]): Hole[] {
    let holes: Hole[] | undefined;
    for (const piece of pieces) {
      const entry = this.states.length;
      const next = piece();
      if (holes !== undefined) this.patch(holes, entry);
      holes = next;
    }
    return holes ?? this.empty();
  }

  emit(t: Term): Hole[] {
    switch (t.kind) {
      case 'atom':
        return [[this.add({ op: 'atom', test: t.test, next: -1 }), 'next']];
      case 'assert':
        return [[this.add({ op: 'assert', at: t.at, next: -1 }), 'next']];
      case 'seq':
        return this.chain(t.items.map((item) => () => this.emit(item)));
      case 'alt':
        return this.alternatives(t.options);
      case 'repeat':
        return this.repeat(t);
    }
  }

  alternatives(options: readonly Term[]): Hole[] {
    const holes: Hole[] = [];
    for (const option of options.slice(0, -1)) {
      const fork = this.add({ op: 'split', next: this.states.length + 1, other: -1 });
      holes.push(...this.emit(option));
      this.patch([[fork, 'other']], this.states.length);
    }
    return [...holes, ...this.emit(options.at(-1) as Term)];
  }

  repeat(t: Extract<Term, { kind: 'repeat' }>): Hole[] {
    const skips: Hole[] = [];
    const optional = () => {
      const fork = this.add({ op: 'split', next: this.states.length + 1, other: -1 });
      skips.push([fork, 'other']);
      return this.emit(t.term);
    };
    const loop = () => {
      const fork = this.add({ op: 'split', next: this.states.length + 1, other: -1 });
      this.patch(this.emit(t.term), fork);
      return [[fork, 'other']] as Hole[];
    };
    const pieces = Array.from({ length: t.min }, () => () => this.emit(t.term));
    if (t.max === Number.POSITIVE_INFINITY) pieces.push(loop);
    else for (let i = t.min; i < t.max; i++) pieces.push(optional);
    return [...this.chain(pieces), ...skips];
  }
}

/** The states of `term`, in order (the first is where a match starts), the last one `match`. */
function statesOf(term: Term): State[] {
  const automaton = new StateBuilder();
  automaton.patch(automaton.emit(term), automaton.add({ op: 'match' }));
  return automaton.states;
}

/** ECMAScript's word characters for `\b` with the `u` flag and no `i`: ASCII letters, digits and `_`. */
function isWordUnit(unit: number): boolean {
  return (unit >= 48 && unit <= 57) || (unit >= 65 && unit <= 90) || (unit >= 97 && unit <= 122) || unit === 95;
}

function holds(at: Assertion, text: string, position: number): boolean {
  switch (at) {
    case 'start':
      return position === 0;
    case 'end':
      return position === text.length;
    default: {
      const boundary = (position > 0 && isWordUnit(text.charCodeAt(position - 1))) !== (position < text.length && isWordUnit(text.charCodeAt(position)));
      return boundary === (at === 'word');
    }
  }
}

/** A set of states the automaton may be in between two characters, with the steps out of it already taken. */
interface StateSet {
  /** The states that read a character, in a fixed order. */
  readonly atoms: readonly number[];
  /** Whether the match is among the states reached. */
  readonly match: boolean;
  /** The set after each character read so far, by `code * 4 + context` (`contextOf`). */
  readonly next: Map<number, StateSet>;
}

/**
 * How many state numbers the sets of one pattern may hold in all, per state of its automaton; past it they
 * are forgotten and found again. By its states, not a number a pattern: 40 small patterns, each keeping
 * 200,000, grew the mock by 177 MB on one request whose texts repeated no set; a pattern of 1,024 states
 * keeps 204,800, and a spec's patterns (at most 8,192 states, schema-cost.ts) 1.6 million in all.
 */
const CACHED_STATES_PER_STATE = 200;

/** What the assertions after a character depend on, besides the character itself: whether a word character follows, and whether the text ends. */
function contextOf(text: string, position: number): number {
  if (position >= text.length) return 2;
  return isWordUnit(text.charCodeAt(position)) ? 1 : 0;
}

/**
 * A pattern's automaton, followed along a text: every path at once, one character after another, a new one
 * starting at each position (a match anywhere). A state is visited at most once a position, so a character
 * costs at most the automaton's size; each set of states met is kept with the sets it leads to, so a
 * text that keeps to sets met before costs one look-up a character (a DFA built as it is needed, as RE2 does).
 */
class Automaton {
  readonly #states: readonly State[];
  #sets = new Map<string, StateSet>();
  #held = 0;
  readonly #room: number;
  readonly #seen: Int32Array;
  #mark = 0;
  readonly #first: (StateSet | undefined)[] = [];

  constructor(states: readonly State[]) {
    this.#states = states;
    this.#room = CACHED_STATES_PER_STATE * states.length;
    this.#seen = new Int32Array(states.length);
  }

  test(text: string): boolean {
    const context = contextOf(text, 0);
    let set = this.#first[context];
    if (set === undefined) {
      set = this.#closure([0], text, 0);
      this.#first[context] = set;
    }
    for (let position = 0; !set.match; ) {
      if (position >= text.length) return false;
      const code = text.codePointAt(position) as number;
      position += code > 0xffff ? 2 : 1;
      const key = code * 4 + contextOf(text, position);
      let next = set.next.get(key);
      if (next === undefined) {
        const entries = [0];
        for (const index of set.atoms) {
          const state = this.#states[index] as Extract<State, { op: 'atom' }>;
          if (state.test(code)) entries.push(state.next);
        }
        next = this.#closure(entries, text, position);
        set.next.set(key, next);
      }
      set = next;
    }
    return true;
  }

  /** The set of states `entries` reach reading nothing at `position`, the one kept if it was met before. */
  #closure(entries: readonly number[], text: string, position: number): StateSet {
    const mark = ++this.#mark;
    const atoms: number[] = [];
    let match = false;
    // Visited in order, the entries' own first: the same entries give the same list, so equal sets are found equal.
    const pending = [...entries].reverse();
    for (let index = pending.pop(); index !== undefined; index = pending.pop()) {
      if (this.#seen[index] === mark) continue;
      this.#seen[index] = mark;
      const state = this.#states[index] as State;
      if (state.op === 'match') match = true;
      else if (state.op === 'atom') atoms.push(index);
      else if (state.op === 'split') pending.push(state.other, state.next);
      else if (holds(state.at, text, position)) pending.push(state.next);
    }
    atoms.sort((a, b) => a - b);
    const key = `${atoms.join()}${match ? '!' : ''}`;
    const known = this.#sets.get(key);
    if (known !== undefined) return known;
    if (this.#held + atoms.length > this.#room) {
      this.#sets = new Map();
      this.#held = 0;
      this.#first.length = 0;
    }
    const set: StateSet = { atoms, match, next: new Map() };
    this.#sets.set(key, set);
    this.#held += atoms.length + 1;
    return set;
  }
}

/**
 * `pattern` (ECMAScript, with the `u` flag) compiled to run in time linear in the text it tests, or a
 * `PatternError` saying why it cannot be.
 * @example
 * linearPattern('^(a+)+$').test(`${'a'.repeat(100_000)}!`); // false, in milliseconds
 * linearPattern('^(a)\\1$'); // throws PatternError: a backreference
 */
export function linearPattern(pattern: string): { test(text: string): boolean } {
  try {
    new RegExp(pattern, 'u');
  } catch (error) {
    throw new PatternError(`it is not an ECMAScript regular expression (${(error as Error).message})`);
  }
  let states: State[];
  try {
    states = statesOf(new Reader(pattern).read());
  } catch (error) {
    if (!(error instanceof PatternError)) throw error;
    throw new PatternError(`it cannot be run in time linear in the text it tests: ${error.message}`);
  }
  const automaton = new Automaton(states);
  return { test: (text) => automaton.test(text), toString: () => `/${pattern}/u` } as { test(text: string): boolean };
}

/**
 * How many states `pattern`'s automaton has, what each character of a text it tests may cost; 0 for a
 * pattern `linearPattern` refuses (`linearPatternProblems` says why).
 * @example
 * patternStates('^a+$'); // 5
 */
export function patternStates(pattern: string): number {
  try {
    new RegExp(pattern, 'u');
    return statesOf(new Reader(pattern).read()).length;
  } catch {
    return 0;
  }
}

/** ajv's `code.regExp`: every `pattern` and `patternProperties` of a compiled schema runs through `linearPattern`. */
export const linearRegExp: RegExpEngine = Object.assign((pattern: string) => linearPattern(pattern), { code: 'linearPattern' });

/** Values that are data, not schemas: a `pattern` member inside them is an example's field. */
const DATA_MEMBERS = new Set(['example', 'examples', 'enum', 'const', 'default']);

/** Members whose own members are named by the author (a property may be called `default`), never data. */
const NAME_MAPS = new Set(['properties', '$defs', 'definitions', 'dependentSchemas', 'schemas']);

/** A JSON Pointer token (RFC 6901 3). */
function pointerToken(name: string): string {
  return name.replaceAll('~', '~0').replaceAll('/', '~1');
}

/**
 * Calls `found` with each `pattern` (and each name of `patternProperties`) in `doc` and its JSON Pointer:
 * the schemas' own, not a `pattern` member of an example, an enum or an extension.
 */
export function eachPattern(doc: unknown, found: (pattern: string, pointer: string) => void): void {
  const visit = (value: unknown, pointer: string, names = false): void => {
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) visit(item, `${pointer}/${index}`);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    for (const [name, member] of Object.entries(value)) {
      const here = `${pointer}/${pointerToken(name)}`;
      if (names) visit(member, here);
      else if (DATA_MEMBERS.has(name) || name.startsWith('x-')) continue;
      else if (name === 'pattern' && typeof member === 'string') found(member, here);
      else if (name === 'patternProperties' && typeof member === 'object' && member !== null) {
        for (const [pattern, schema] of Object.entries(member)) {
          found(pattern, `${here}/${pointerToken(pattern)}`);
          visit(schema, `${here}/${pointerToken(pattern)}`);
        }
      } else visit(member, here, NAME_MAPS.has(name));
    }
  };
  visit(doc, '#');
}

/**
 * A sentence for each `pattern` (and each name of `patternProperties`) in `doc` that `linearPattern`
 * refuses, naming it by its JSON Pointer: checked at once where a spec is compiled, so that a validator
 * compiled on first use never meets one while answering.
 */
export function linearPatternProblems(doc: unknown): string[] {
  const problems: string[] = [];
  eachPattern(doc, (pattern, pointer) => {
    try {
      linearPattern(pattern);
    } catch (error) {
      if (!(error instanceof PatternError)) throw error;
      problems.push(`${pointer} ${JSON.stringify(pattern)}: ${error.message}`);
    }
  });
  return problems;
}
