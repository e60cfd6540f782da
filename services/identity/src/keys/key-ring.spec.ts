import { keyRing } from './key-ring.js';

const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1) + seconds * 1000);
const timings = { activationMs: 60_000, retirementMs: 960_000 };
const kids = (ring: ReturnType<typeof keyRing> | null) => ring && { signing: ring.signing.kid, published: ring.published.map((key) => key.kid) };

describe('keyRing', () => {
  it('has nothing to sign with before a key is stored', () => {
    expect(keyRing([], at(0), timings)).toBeNull();
  });

  it('signs with the first key at once', () => {
    expect(kids(keyRing([{ kid: 'a', createdAt: at(0) }], at(0), timings))).toEqual({ signing: 'a', published: ['a'] });
  });

  it('publishes a new key at once but signs with it only after the activation delay', () => {
    const keys = [
      { kid: 'b', createdAt: at(1000) },
      { kid: 'a', createdAt: at(0) },
    ];
    expect(kids(keyRing(keys, at(1059), timings))).toEqual({ signing: 'a', published: ['b', 'a'] });
    expect(kids(keyRing(keys, at(1060), timings))).toEqual({ signing: 'b', published: ['b', 'a'] });
  });

  it('keeps the replaced key published for the retirement time after the new one took over, then drops it', () => {
    const keys = [
      { kid: 'a', createdAt: at(0) },
      { kid: 'b', createdAt: at(1000) },
    ];
    expect(kids(keyRing(keys, at(1060 + 959), timings))).toEqual({ signing: 'b', published: ['b', 'a'] });
    expect(kids(keyRing(keys, at(1060 + 960), timings))).toEqual({ signing: 'b', published: ['b'] });
  });

  it('handles several rotations: each key retires relative to its own successor', () => {
    const keys = [
      { kid: 'a', createdAt: at(0) },
      { kid: 'b', createdAt: at(1000) },
      { kid: 'c', createdAt: at(1500) },
    ];
    // c signs from 1560: b (replaced at 1560) still verifies, a (replaced at 1060) until 2020.
    expect(kids(keyRing(keys, at(1600), timings))).toEqual({ signing: 'c', published: ['c', 'b', 'a'] });
    expect(kids(keyRing(keys, at(2020), timings))).toEqual({ signing: 'c', published: ['c', 'b'] });
    expect(kids(keyRing(keys, at(2520), timings))).toEqual({ signing: 'c', published: ['c'] });
  });

  it('two keys rotated in quick succession: the newer one waits for its own activation', () => {
    const keys = [
      { kid: 'a', createdAt: at(0) },
      { kid: 'b', createdAt: at(1000) },
      { kid: 'c', createdAt: at(1010) },
    ];
    expect(kids(keyRing(keys, at(1065), timings))).toEqual({ signing: 'b', published: ['c', 'b', 'a'] });
    expect(kids(keyRing(keys, at(1070), timings))).toEqual({ signing: 'c', published: ['c', 'b', 'a'] });
  });
});
