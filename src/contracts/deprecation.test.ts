import { describe, expect, it } from 'vitest';
import { readDeprecation } from './deprecation.js';

describe('readDeprecation', () => {
  it('reads the RFC 9745 form, a structured-field date', () => {
    expect(readDeprecation('@1748736000')).toEqual({ form: 'date', since: new Date('2025-06-01T00:00:00Z') });
  });

  it('reads the legacy form, true', () => {
    expect(readDeprecation('true')).toEqual({ form: 'legacy' });
  });

  it.each(['yes', '@', '@1.5', 'Sun, 01 Jun 2025 00:00:00 GMT', '?1', ''])('calls %j unreadable', (value) => {
    expect(readDeprecation(value)).toEqual({ form: 'unreadable', value });
  });
});
