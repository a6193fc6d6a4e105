import { describe, expect, it } from 'vitest';
import { loadContract } from './contract.js';
import { deploymentClock, Removals } from './removal.js';

const TODAY = new Date('2026-01-01T00:00:00Z');

describe('the deployment clock a removal is judged by', () => {
  it('is the Date of the response, else this machine', () => {
    expect(deploymentClock('Wed, 01 Jan 2031 00:00:00 GMT', TODAY)).toEqual({ at: Date.parse('2031-01-01T00:00:00Z'), date: 'Wed, 01 Jan 2031 00:00:00 GMT' });
    expect(deploymentClock(null, TODAY)).toEqual({ at: TODAY.getTime(), date: undefined });
    expect(deploymentClock('not a date', TODAY)).toEqual({ at: TODAY.getTime(), date: undefined });
  });

  it('takes a 410 of getPet as its removal only at or after its sunset, by that clock', async () => {
    const contract = await loadContract();
    const getPet = contract.operation('getPet');
    const before = new Removals(contract, TODAY);
    before.heard(getPet, 410, null);
    before.heard(getPet, 410, 'Wed, 04 Dec 2030 23:59:59 GMT');
    expect(before.reason('getPet')).toBeUndefined();
    before.heard(getPet, 404, 'Thu, 05 Dec 2030 00:00:00 GMT');
    expect(before.reason('getPet')).toBeUndefined();
    before.heardRequest('GET', 'http://127.0.0.1:1/v1/pets/7', 410, 'Thu, 05 Dec 2030 00:00:00 GMT');
    expect(before.reasonFor('GET', 'http://127.0.0.1:1/v1/pets/8')).toMatch(/^getPet is removed: .*Date: Thu, 05 Dec 2030/);
    expect(before.reasonFor('GET', 'http://127.0.0.1:1/v1/pets')).toBeUndefined();
    // No Date: this machine's clock decides.
    const later = new Removals(contract, new Date('2031-01-01T00:00:00Z'));
    later.heard(getPet, 410, null);
    expect(later.reason('getPet')).toMatch(/this machine's clock \(the deployment sent no Date\)/);
  });
});
