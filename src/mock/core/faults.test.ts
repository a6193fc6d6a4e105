import { describe, expect, it } from 'vitest';
import { faultDraw, parseFaultRates } from './faults.js';

describe('parseFaultRates', () => {
  it('reads kind:rate pairs', () => {
    expect(parseFaultRates('reset:0.02, slow:0.1')).toEqual({ reset: 0.02, slow: 0.1 });
    expect(parseFaultRates('garbage:1')).toEqual({ garbage: 1 });
    expect(parseFaultRates('close:.5,truncate:0')).toEqual({ close: 0.5, truncate: 0 });
  });

  it.each([
    ['boom:0.1', /the faults are reset, close, garbage, truncate, slow/],
    ['reset', /a rate is a share of requests from 0 to 1/],
    ['reset:2', /a rate is a share of requests from 0 to 1/],
    ['reset:-0.1', /a rate is a share/],
    ['reset:0.1:3', /a rate is a share/],
    ['reset:0.6,close:0.6', /add up to 1\.2, more than every request/],
    ['reset:0.1,reset:0.9', /"reset:0\.9": reset is given twice; give each fault once, with its rate/],
  ])('rejects %s, saying what to change', (text, message) => {
    expect(() => parseFaultRates(text)).toThrow(message);
  });
});

describe('faultDraw', () => {
  const draws = (rates: Parameters<typeof faultDraw>[0], seed: number, n: number) => {
    const draw = faultDraw(rates, seed);
    return Array.from({ length: n }, () => draw?.());
  };

  it('draws nothing when no rate is above 0', () => {
    expect(faultDraw({}, 1)).toBeUndefined();
    expect(faultDraw({ reset: 0 }, 1)).toBeUndefined();
  });

  it('repeats for a seed, and differs between seeds', () => {
    expect(draws({ reset: 0.3, slow: 0.2 }, 7, 200)).toEqual(draws({ reset: 0.3, slow: 0.2 }, 7, 200));
    expect(draws({ reset: 0.3, slow: 0.2 }, 7, 200)).not.toEqual(draws({ reset: 0.3, slow: 0.2 }, 8, 200));
  });

  it('draws each kind at about its rate', () => {
    const drawn = draws({ reset: 0.1, close: 0.2, slow: 0.3 }, 3, 20_000);
    const share = (kind: string) => drawn.filter((k) => k === kind).length / drawn.length;
    expect(share('reset')).toBeCloseTo(0.1, 1);
    expect(share('close')).toBeCloseTo(0.2, 1);
    expect(share('slow')).toBeCloseTo(0.3, 1);
    expect(share('garbage')).toBe(0);
    expect(drawn.filter((k) => k === undefined).length / drawn.length).toBeCloseTo(0.4, 1);
  });

  it('fails every request at rate 1', () => {
    expect(new Set(draws({ garbage: 1 }, 5, 100))).toEqual(new Set(['garbage']));
  });
});
