import { describe, expect, it } from 'vitest';
import { CreatedCache } from './created-cache.js';

const pet = (k: number, status = 'sold') => `{"id":${50 + k},"name":"n${k}","categoryId":1,"status":"${status}"}`;

describe('CreatedCache', () => {
  it('serves the first created pets only once it holds every one of them, in number order', () => {
    const cache = new CreatedCache(() => true);
    cache.keep(2, pet(2));
    expect(cache.pet(2)).toBe(pet(2));
    expect(cache.first(undefined, 1)).toBeUndefined();
    cache.keep(1, pet(1));
    expect(cache.known(undefined)).toBe(2);
    expect(cache.first(undefined, 2)).toEqual([pet(1), pet(2)]);
  });

  it("grows a status's list only at its end, from where the replica's knowledge stood", () => {
    const cache = new CreatedCache(() => true);
    cache.extend('sold', 0, [[3, pet(3)]]);
    // A read that started before the one above knew nothing either: its answer is not added twice.
    cache.extend('sold', 0, [[3, pet(3)]]);
    cache.extend('sold', 1, [[5, pet(5)]]);
    expect(cache.known('sold')).toBe(2);
    expect(cache.first('sold', 2)).toEqual([pet(3), pet(5)]);
    expect(cache.first('sold', 3)).toBeUndefined();
  });

  it('keeps nothing once a change was published since its view was read', () => {
    let valid = true;
    const cache = new CreatedCache(() => valid);
    valid = false;
    cache.keep(1, pet(1));
    cache.extend('sold', 0, [[1, pet(1)]]);
    expect(cache.pet(1)).toBeUndefined();
    expect(cache.known('sold')).toBe(0);
  });

  it('serves nothing more once Redis answers a number with another pet than the one kept (a reset not heard of yet)', () => {
    const cache = new CreatedCache(() => true);
    cache.keep(1, pet(1));
    cache.keep(2, pet(2));
    cache.keep(1, pet(1, 'available'));
    expect(cache.pet(2)).toBeUndefined();
    expect(cache.known(undefined)).toBe(0);
    expect(cache.first(undefined, 1)).toBeUndefined();
  });

  it('sends the reads of one thing in one turn once, at its end, and those of the next turn again', async () => {
    const cache = new CreatedCache(() => true);
    let sent = 0;
    const read = () => Promise.resolve(++sent);
    const first = [cache.shared('pet 1', read), cache.shared('pet 1', read), cache.shared('pet 2', read)];
    expect(sent).toBe(0);
    expect(await Promise.all(first)).toEqual([1, 1, 2]);
    expect(await cache.shared('pet 1', read)).toBe(3);
  });
});
