import { describe, expect, it } from 'vitest';
import { DeadlineError, EXIT, exitCodeOf, PetstoreError, SpecError, StateFileError, StoreUnavailableError, UsageError } from './errors.js';

describe('the error family', () => {
  it('names each kind, and every kind is a PetstoreError', () => {
    const errors = [new UsageError('u'), new SpecError('s'), new StateFileError('f'), new StoreUnavailableError('r'), new DeadlineError()];
    expect(errors.map((error) => error.name)).toEqual(['UsageError', 'SpecError', 'StateFileError', 'StoreUnavailableError', 'DeadlineError']);
    for (const error of errors) expect(error).toBeInstanceOf(PetstoreError);
  });

  it('decides the exit code in one place: 2 for usage, the error own code, 1 for anything else', () => {
    expect(exitCodeOf(new UsageError('bad flag'))).toBe(EXIT.usage);
    expect(exitCodeOf(new StateFileError('read-only', { exitCode: EXIT.usage }))).toBe(2);
    expect(exitCodeOf(new StateFileError('corrupt'))).toBe(EXIT.failed);
    expect(exitCodeOf(new Error('a bug'))).toBe(1);
    expect(exitCodeOf('thrown string')).toBe(1);
  });

  it('keeps the cause it was given', () => {
    const cause = new Error('ECONNREFUSED');
    expect(new StoreUnavailableError('no Redis', { cause }).cause).toBe(cause);
  });
});
