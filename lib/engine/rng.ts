/**
 * A small, fast, seeded pseudo-random number generator (sfc32, Chris Doty-Humphrey's "Small Fast Chaotic" generator,
 * as in PractRand). Not cryptographic: it exists so that crawls, shuffles and experiments are reproducible, and so a
 * checkpoint can carry the generator's exact position (four unsigned 32-bit numbers) and continue the same sequence.
 */

/** The generator's full state: four unsigned 32-bit integers (a, b, c, counter). Plain data, JSON-safe. */
export type RngState = [number, number, number, number];

const TWO_POW_32 = 4294967296;

/** splitmix32 step: spreads the bits of a seed so that nearby seeds (1, 2, 3...) give unrelated streams. */
function splitmix32(x: number): number {
  x = (x + 0x9e3779b9) | 0;
  let z = x;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/** Splits any finite number into two 32-bit words, so that seeds such as Date.now() keep all their bits. */
function seedWords(seed: number): [number, number] {
  if (Number.isSafeInteger(seed)) {
    const lo = seed >>> 0;
    const hi = Math.floor(seed / TWO_POW_32) >>> 0;
    return [lo, hi];
  }
  // Fractional or huge seeds: use the IEEE 754 bits (all supported engines are little-endian, and even if not, the
  // result is still deterministic on a given machine).
  const words = new Uint32Array(new Float64Array([seed]).buffer);
  return [words[0], words[1]];
}

/**
 * Seeded PRNG with the helpers a crawler needs.
 *
 * @example
 * const rng = new Rng(42);
 * rng.shuffle(batch);           // same seed, same order
 * const saved = rng.getState(); // store in a checkpoint
 * later.setState(saved);        // continues the exact same sequence
 */
export class Rng {
  private a = 0;
  private b = 0;
  private c = 0;
  private d = 0;

  /** @param seed any finite number; equal seeds give equal sequences. */
  constructor(seed: number) {
    if (typeof seed !== 'number' || !Number.isFinite(seed)) {
      throw new TypeError(`Rng seed must be a finite number, got ${String(seed)}`);
    }
    const [lo, hi] = seedWords(seed);
    this.a = splitmix32(lo);
    this.b = splitmix32(hi ^ 0x6a09e667);
    this.c = splitmix32(lo ^ hi ^ 0xbb67ae85);
    this.d = 1;
    // The first outputs of sfc32 are still correlated with the seed; the usual remedy is to discard a few.
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  /** Next unsigned 32-bit integer. */
  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform float in [0, 1) with 32 bits of resolution. */
  next(): number {
    return this.nextUint32() / TWO_POW_32;
  }

  /**
   * Uniform integer in [0, n). The bias of the multiply method is below n / 2^32, negligible for the small n used
   * here (batch sizes, list lengths).
   * @throws RangeError unless n is an integer in [1, 2^32].
   */
  int(n: number): number {
    if (!Number.isInteger(n) || n < 1 || n > TWO_POW_32) {
      throw new RangeError(`Rng.int(n) needs an integer n in [1, 2^32], got ${String(n)}`);
    }
    return Math.floor(this.next() * n);
  }

  /** Shuffles `array` in place (Fisher-Yates: every permutation equally likely) and returns it. */
  shuffle<T>(array: T[]): T[] {
    for (let i = array.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const tmp = array[i];
      array[i] = array[j];
      array[j] = tmp;
    }
    return array;
  }

  /** The current state, as four unsigned 32-bit integers (a copy; safe to serialize). */
  getState(): RngState {
    return [this.a >>> 0, this.b >>> 0, this.c >>> 0, this.d >>> 0];
  }

  /**
   * Restores a state from {@link getState}; the generator then continues exactly where that one was.
   * @throws TypeError if `state` is not four integers in [0, 2^32).
   */
  setState(state: unknown): void {
    if (
      !Array.isArray(state) ||
      state.length !== 4 ||
      !state.every((x) => typeof x === 'number' && Number.isInteger(x) && x >= 0 && x < TWO_POW_32)
    ) {
      throw new TypeError('Rng state must be an array of four integers in [0, 2^32)');
    }
    this.a = state[0] | 0;
    this.b = state[1] | 0;
    this.c = state[2] | 0;
    this.d = state[3] | 0;
  }
}
