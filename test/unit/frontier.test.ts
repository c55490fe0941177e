import { describe, expect, it } from 'vitest';
import { PriorityFrontier, type AddResult } from '../../lib/engine/frontier/index';
import { Rng } from '../../lib/engine/rng';
import type { FrontierEntry } from '../../lib/engine/types';

// ---------------------------------------------------------------------------------------------------------------
// Naive reference implementations: linear scans written straight from the rules, to compare the real ones against.
// ---------------------------------------------------------------------------------------------------------------

interface RefItem extends FrontierEntry {
  seq: number;
}

/** Higher score first; equal scores: earlier insertion first. */
const refBefore = (a: RefItem, b: RefItem) => a.score > b.score || (a.score === b.score && a.seq < b.seq);
const strip = ({ url, score, depth, from }: RefItem): FrontierEntry =>
  from === undefined ? { url, score, depth } : { url, score, depth, from };

class NaivePriority {
  items: RefItem[] = [];
  seen = new Set<string>();
  seq = 0;
  constructor(readonly capacity: number) {}
  private bestIndex(): number {
    let b = -1;
    for (let i = 0; i < this.items.length; i++) if (b < 0 || refBefore(this.items[i], this.items[b])) b = i;
    return b;
  }
  private worst(): number {
    let w = -1;
    for (let i = 0; i < this.items.length; i++) if (w < 0 || refBefore(this.items[w], this.items[i])) w = i;
    return w;
  }
  add(e: FrontierEntry): AddResult {
    const queued = this.items.find((x) => x.url === e.url);
    if (queued) {
      if (e.score > queued.score) {
        queued.score = e.score;
        return 'raised';
      }
      return 'kept';
    }
    if (this.seen.has(e.url)) return 'kept';
    let result: AddResult = 'added';
    if (this.items.length === this.capacity) {
      const w = this.worst();
      if (e.score <= this.items[w].score) return 'rejected';
      this.seen.delete(this.items[w].url);
      this.items.splice(w, 1);
      result = 'evicted-other';
    }
    this.items.push({ ...e, seq: this.seq++ });
    this.seen.add(e.url);
    return result;
  }
  popMax() {
    const b = this.bestIndex();
    return b < 0 ? undefined : strip(this.items.splice(b, 1)[0]);
  }
  popMin() {
    const w = this.worst();
    return w < 0 ? undefined : strip(this.items.splice(w, 1)[0]);
  }
  popTop(n: number) {
    const out: FrontierEntry[] = [];
    while (out.length < n && this.items.length) out.push(this.popMax()!);
    return out;
  }
  peekMax() {
    const b = this.bestIndex();
    return b < 0 ? undefined : strip(this.items[b]);
  }
  peekMin() {
    const w = this.worst();
    return w < 0 ? undefined : strip(this.items[w]);
  }
  setScore(url: string, score: number) {
    const x = this.items.find((i) => i.url === url);
    if (x) x.score = score;
    return !!x;
  }
  remove(url: string) {
    const i = this.items.findIndex((x) => x.url === url);
    if (i >= 0) this.items.splice(i, 1);
    return i >= 0;
  }
  has(url: string) {
    return this.items.some((x) => x.url === url);
  }
  hasSeen(url: string) {
    return this.seen.has(url);
  }
  get size() {
    return this.items.length;
  }
  entries() {
    return [...this.items].sort((a, b) => (refBefore(a, b) ? -1 : 1)).map(strip);
  }
  best(n: number, accept: (url: string) => boolean) {
    return this.entries()
      .filter((e) => accept(e.url))
      .slice(0, n);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Random operation sequences.
// ---------------------------------------------------------------------------------------------------------------

type Op =
  | { op: 'add'; entry: FrontierEntry }
  | { op: 'popTop'; n: number }
  | { op: 'popMax' }
  | { op: 'popMin' }
  | { op: 'setScore'; url: string; score: number }
  | { op: 'remove'; url: string }
  | { op: 'probe'; url: string }
  /** best(n) among the URLs not on one site (a site that may not be contacted now). */
  | { op: 'best'; n: number; busySite: number };

/** Scores from a coarse grid so ties are frequent, with some continuous values mixed in. */
function randomScore(rng: Rng): number {
  return rng.next() < 0.8 ? rng.int(11) / 10 : rng.next();
}

function randomOps(seed: number, count: number, pool: number, withPriorityOps: boolean): Op[] {
  const rng = new Rng(seed);
  // Half the URLs come from a small hot set (repeat sightings: raises, at-most-once), half from a large one
  // (fresh URLs keep the frontier full: evictions, rejections).
  const url = () => {
    const k = rng.next() < 0.5 ? rng.int(pool) : pool + rng.int(pool * 40);
    return `https://site${k % 7}.example/path/${k}`;
  };
  const ops: Op[] = [];
  for (let i = 0; i < count; i++) {
    // Alternate phases that mostly fill (evictions, rejections) and phases that drain as much as they fill.
    const filling = Math.floor(i / 400) % 2 === 0;
    const r = filling && rng.next() < 0.75 ? 0 : rng.next();
    if (r < 0.62) {
      const entry: FrontierEntry = { url: url(), score: randomScore(rng), depth: rng.int(5) };
      if (rng.next() < 0.5) entry.from = url();
      ops.push({ op: 'add', entry });
    } else if (r < 0.74) ops.push({ op: 'popTop', n: rng.int(7) });
    else if (r < 0.8) ops.push({ op: 'popMax' });
    else if (r < 0.84 && withPriorityOps) ops.push({ op: 'popMin' });
    else if (r < 0.9 && withPriorityOps) ops.push({ op: 'setScore', url: url(), score: randomScore(rng) });
    else if (r < 0.93 && withPriorityOps) ops.push({ op: 'remove', url: url() });
    else if (r < 0.97 && withPriorityOps) ops.push({ op: 'best', n: 1 + rng.int(9), busySite: rng.int(7) });
    else ops.push({ op: 'probe', url: url() });
  }
  return ops;
}

/** Applies one op to a priority frontier (real or naive) and returns everything observable about it. */
function applyPriority(f: PriorityFrontier | NaivePriority, o: Op): unknown {
  let out: unknown;
  switch (o.op) {
    case 'add':
      out = f.add({ ...o.entry });
      break;
    case 'popTop':
      out = f.popTop(o.n);
      break;
    case 'popMax':
      out = f.popMax();
      break;
    case 'popMin':
      out = f.popMin();
      break;
    case 'setScore':
      out = f.setScore(o.url, o.score);
      break;
    case 'remove':
      out = f.remove(o.url);
      break;
    case 'probe':
      out = [f.has(o.url), f.hasSeen(o.url)];
      break;
    case 'best':
      out = f.best(o.n, (url) => !url.startsWith(`https://site${o.busySite}.`));
      break;
  }
  return { out, size: f.size, max: f.peekMax(), min: f.peekMin() };
}

const SEEDS = [1, 2, 3, 42, 20260101];
const CAPACITIES = [1, 5, 32, 200];
const OPS = 4000;

describe('PriorityFrontier against a naive reference', () => {
  for (const capacity of CAPACITIES) {
    it(`capacity ${capacity}: ${SEEDS.length} seeds x ${OPS} random operations agree step by step`, () => {
      let evictions = 0;
      let raises = 0;
      let rejections = 0;
      for (const seed of SEEDS) {
        const ops = randomOps(seed * 1000 + capacity, OPS, capacity * 2 + 5, true);
        const real = new PriorityFrontier(capacity);
        const ref = new NaivePriority(capacity);
        ops.forEach((o, i) => {
          const a = applyPriority(real, o);
          const b = applyPriority(ref, o);
          if (JSON.stringify(a) !== JSON.stringify(b)) expect({ i, o, a }).toEqual({ i, o, a: b });
          expect(real.size).toBeLessThanOrEqual(capacity);
          if (o.op === 'add') {
            const r = (a as { out: AddResult }).out;
            if (r === 'evicted-other') evictions++;
            if (r === 'raised') raises++;
            if (r === 'rejected') rejections++;
          }
          if (i % 97 === 0) expect(real.entries()).toEqual(ref.entries());
        });
        expect(real.entries()).toEqual(ref.entries());
      }
      // The sequences must actually exercise the interesting paths.
      expect(raises).toBeGreaterThan(capacity > 1 ? 10 : 0);
      expect(evictions).toBeGreaterThan(10);
      expect(rejections).toBeGreaterThan(10);
    });
  }

  it('grows its storage by doubling (capacity 300) and still agrees, before and after a round trip', () => {
    const capacity = 300;
    const rng = new Rng(77);
    const real = new PriorityFrontier(capacity);
    const ref = new NaivePriority(capacity);
    const add = (f: PriorityFrontier | NaivePriority, i: number, score: number) => f.add({ url: `u${i}`, score, depth: 0 });
    // Fill past 64, 128 and 256 slots, pop some (free slots get reused), then overfill to force evictions.
    // Outcomes are collected and compared in bulk: one expect per add is slow at this size.
    const got: unknown[] = [];
    const want: unknown[] = [];
    for (let i = 0; i < 250; i++) {
      const score = rng.int(50) / 50;
      got.push(add(real, i, score));
      want.push(add(ref, i, score));
    }
    expect(real.popTop(30)).toEqual(ref.popTop(30));
    let copy = PriorityFrontier.fromJSON(JSON.parse(JSON.stringify(real.toJSON())));
    for (let i = 250; i < 1500; i++) {
      const score = rng.int(50) / 50;
      const r = add(real, i, score);
      got.push(r, add(copy, i, score));
      want.push(add(ref, i, score), r);
      if (i % 100 === 0) {
        const top = real.popTop(10);
        got.push(top, copy.popTop(10));
        want.push(ref.popTop(10), top);
        copy = PriorityFrontier.fromJSON(JSON.parse(JSON.stringify(copy.toJSON())));
      }
    }
    expect(got).toEqual(want);
    expect(got).toContain('evicted-other');
    expect(real.size).toBe(capacity);
    expect(real.entries()).toEqual(ref.entries());
    expect(copy.entries()).toEqual(ref.entries());
    expect(real.popTop(capacity)).toEqual(ref.popTop(capacity));
  });

  it('toJSON/fromJSON in mid-sequence continues identically (through a JSON string)', () => {
    for (const seed of SEEDS) {
      const capacity = 24;
      const ops = randomOps(seed, 3000, 120, true);
      const original = new PriorityFrontier(capacity);
      const ref = new NaivePriority(capacity);
      const cut = 1000 + (seed % 500);
      for (const o of ops.slice(0, cut)) {
        applyPriority(original, o);
        applyPriority(ref, o);
      }
      const saved = JSON.stringify(original.toJSON());
      const copy = PriorityFrontier.fromJSON(JSON.parse(saved));
      expect(copy.size).toBe(original.size);
      expect(copy.seenCount).toBe(original.seenCount);
      expect(copy.entries()).toEqual(original.entries());
      for (const o of ops.slice(cut)) {
        const a = applyPriority(original, o);
        const b = applyPriority(copy, o);
        const c = applyPriority(ref, o);
        expect(b).toEqual(a);
        expect(a).toEqual(c);
      }
    }
  });
});

describe('PriorityFrontier rules', () => {
  const e = (url: string, score: number, depth = 1): FrontierEntry => ({ url, score, depth });

  it('pops best first, equal scores in insertion order', () => {
    const f = new PriorityFrontier(10);
    f.add(e('a', 0.5));
    f.add(e('b', 0.9));
    f.add(e('c', 0.5));
    f.add(e('d', 0.9));
    expect(f.popTop(10).map((x) => x.url)).toEqual(['b', 'd', 'a', 'c']);
    expect(f.size).toBe(0);
    expect(f.popMax()).toBeUndefined();
  });

  it('raises a queued URL to the max of its sightings, never lowers it, keeps first depth and from', () => {
    const f = new PriorityFrontier(10);
    expect(f.add({ url: 'u', score: 0.3, depth: 2, from: 'p1' })).toBe('added');
    expect(f.add({ url: 'u', score: 0.1, depth: 1, from: 'p2' })).toBe('kept');
    expect(f.scoreOf('u')).toBe(0.3);
    expect(f.add({ url: 'u', score: 0.8, depth: 1, from: 'p3' })).toBe('raised');
    expect(f.peekMax()).toEqual({ url: 'u', score: 0.8, depth: 2, from: 'p1' });
    expect(f.add({ url: 'u', score: 0.8, depth: 1 })).toBe('kept');
  });

  it('when full, evicts the true minimum for a better newcomer and rejects an equal or worse one', () => {
    const evicted: string[] = [];
    const f = new PriorityFrontier(3, { onEvict: (x) => evicted.push(x.url) });
    f.add(e('a', 0.5));
    f.add(e('b', 0.2));
    f.add(e('c', 0.2)); // equal to b but newer: c is the minimum
    expect(f.peekMin()!.url).toBe('c');
    expect(f.add(e('d', 0.2))).toBe('rejected'); // tie keeps the older entry
    expect(f.hasSeen('d')).toBe(false);
    expect(f.add(e('e', 0.1))).toBe('rejected');
    expect(f.add(e('f', 0.3))).toBe('evicted-other');
    expect(evicted).toEqual(['c']);
    expect(f.size).toBe(3);
    expect(f.add(e('d', 0.4))).toBe('evicted-other'); // a rejected URL may come back
    expect(evicted).toEqual(['c', 'b']);
    expect(f.entries().map((x) => x.url)).toEqual(['a', 'd', 'f']);
  });

  it('hands a URL out at most once: popped and removed URLs are remembered, evicted ones may come back', () => {
    const f = new PriorityFrontier(2);
    f.add(e('a', 0.9));
    f.add(e('b', 0.1));
    f.add(e('c', 0.5)); // evicts b
    expect(f.has('b')).toBe(false);
    expect(f.hasSeen('b')).toBe(false);
    expect(f.popMax()!.url).toBe('a');
    expect(f.add(e('a', 1))).toBe('kept');
    expect(f.add(e('b', 0.2))).toBe('added'); // evicted for room, sighted again: back in
    expect(f.remove('c')).toBe(true);
    expect(f.add(e('c', 1))).toBe('kept');
    expect(f.size).toBe(1);
    const saved = PriorityFrontier.fromJSON(JSON.parse(JSON.stringify(f.toJSON())));
    for (const url of ['a', 'c']) expect(saved.add(e(url, 1))).toBe('kept');
    expect(saved.add(e('b', 0.9))).toBe('raised');
  });

  it('setScore moves entries both ways', () => {
    const f = new PriorityFrontier(5);
    for (const [u, s] of [
      ['a', 0.1],
      ['b', 0.2],
      ['c', 0.3],
    ] as const)
      f.add(e(u, s));
    expect(f.setScore('c', 0)).toBe(true);
    expect(f.peekMin()!.url).toBe('c');
    expect(f.setScore('a', 0.9)).toBe(true);
    expect(f.peekMax()!.url).toBe('a');
    expect(f.setScore('zzz', 1)).toBe(false);
  });

  it('refuses bad input with clear errors', () => {
    expect(() => new PriorityFrontier(0)).toThrow(/capacity/);
    expect(() => new PriorityFrontier(1.5)).toThrow(/capacity/);
    const f = new PriorityFrontier(3);
    expect(() => f.add(e('a', Number.NaN))).toThrow(/finite/);
    expect(() => f.add(e('', 1))).toThrow(/url/);
    expect(() => f.add(e('a', 1, -1))).toThrow(/depth/);
    expect(f.size).toBe(0);
    expect(() => PriorityFrontier.fromJSON(null)).toThrow(/invalid priority frontier state/);
    expect(() => PriorityFrontier.fromJSON({ kind: 'fifo', version: 1 })).toThrow(/invalid priority/);
    const good = f.toJSON();
    f.add(e('a', 1));
    const one = f.toJSON();
    expect(() => PriorityFrontier.fromJSON({ ...one, capacity: -3 })).toThrow(/capacity/);
    expect(() => PriorityFrontier.fromJSON({ ...one, entries: [['a', 'x', 0, 0, null]] })).toThrow(/score/);
    expect(() => PriorityFrontier.fromJSON({ ...one, left: ['a'] })).toThrow(/both queued and left/);
    expect(() => PriorityFrontier.fromJSON({ ...one, entries: [['a', 1, 0, 5, null]] })).toThrow(/seq/);
    expect(PriorityFrontier.fromJSON(good).size).toBe(0);
  });

  it('best(n, accept) walks the ranks without removing anything; sample draws uniformly among the accepted', () => {
    const f = new PriorityFrontier(50);
    for (let i = 0; i < 40; i++) f.add(e(`https://s${i % 4}.example/${i}`, (i % 10) / 10));
    const before = f.entries();
    const notS0 = (url: string) => !url.startsWith('https://s0.');
    const best = f.best(5, notS0);
    expect(best).toEqual(before.filter((x) => notS0(x.url)).slice(0, 5));
    expect(f.best(0, notS0)).toEqual([]);
    expect(f.best(100, () => false)).toEqual([]);
    expect(f.entries()).toEqual(before);
    // Deep in the ranks (past the best-first walk: the rest is scanned), with ties, after removals and raises.
    const big = new PriorityFrontier(600);
    const r = new Rng(11);
    for (let i = 0; i < 700; i++) big.add(e(`https://s${r.int(9)}.example/${i}`, r.int(12) / 4));
    for (let i = 0; i < 700; i += 7) big.remove(`https://s${i % 9}.example/${i}`);
    for (let i = 3; i < 700; i += 11) big.add(e(`https://s${r.int(9)}.example/${i}`, 3));
    const ranked = big.entries();
    for (const n of [1, 2, 5, 17, 40, 300, 1000]) {
      for (const site of [0, 4, 8]) {
        const only = (url: string) => url.startsWith(`https://s${site}.`) && !url.endsWith('0');
        expect(big.best(n, only)).toEqual(ranked.filter((x) => only(x.url)).slice(0, n));
      }
      const rare = (url: string) => url.endsWith('99');
      expect(big.best(n, rare)).toEqual(ranked.filter((x) => rare(x.url)).slice(0, n));
    }
    // ranked(accept): every accepted entry, best first, as best(n) gives for an n beyond the size.
    for (const site of [0, 4, 8]) {
      const only = (url: string) => url.startsWith(`https://s${site}.`) && !url.endsWith('0');
      expect(big.ranked(only)).toEqual(big.best(big.size + 1, only));
    }
    expect(big.ranked(() => true)).toEqual(ranked);
    expect(big.ranked(() => false)).toEqual([]);
    expect(big.entries()).toEqual(ranked);
    for (const e of ranked.slice(0, 50)) expect(big.entryOf(e.url)).toEqual(e);
    expect(big.entryOf('https://nowhere.example/')).toBeUndefined();
    const rng = new Rng(3);
    const counts = new Map<string, number>();
    for (let k = 0; k < 4000; k++) {
      const x = f.sample((url) => url.startsWith('https://s1.'), rng)!;
      counts.set(x.url, (counts.get(x.url) ?? 0) + 1);
    }
    expect([...counts.keys()].every((u) => u.startsWith('https://s1.'))).toBe(true);
    expect(counts.size).toBe(10);
    for (const n of counts.values()) expect(n).toBeGreaterThan(300); // 400 expected each
    expect(f.sample(() => false, rng)).toBeUndefined();
  });

  it('handles a capacity of 100,000 and a popTop larger than the frontier', () => {
    const f = new PriorityFrontier(100_000);
    const rng = new Rng(9);
    for (let i = 0; i < 120_000; i++) f.add(e(`https://x.example/${i}`, rng.next()));
    expect(f.size).toBe(100_000);
    const top = f.popTop(200_000);
    expect(top.length).toBe(100_000);
    let sorted = true;
    for (let i = 1; i < top.length; i++) if (top[i - 1].score < top[i].score) sorted = false;
    expect(sorted).toBe(true);
  });
});

describe('Rng', () => {
  it('is reproducible per seed and differs between seeds', () => {
    const a = new Rng(7);
    const b = new Rng(7);
    const c = new Rng(8);
    const sa = Array.from({ length: 100 }, () => a.nextUint32());
    expect(Array.from({ length: 100 }, () => b.nextUint32())).toEqual(sa);
    expect(Array.from({ length: 100 }, () => c.nextUint32())).not.toEqual(sa);
    // Seeds that differ only above bit 32 (e.g. timestamps) still differ.
    expect(new Rng(2 ** 40).next()).not.toBe(new Rng(2 ** 40 + 2 ** 32).next());
  });

  it('next() is in [0, 1) with a plausible mean; int(n) in [0, n) and hits every value', () => {
    const r = new Rng(3);
    let sum = 0;
    const counts = new Array(10).fill(0);
    for (let i = 0; i < 20000; i++) {
      const x = r.next();
      expect(x >= 0 && x < 1).toBe(true);
      sum += x;
      counts[r.int(10)]++;
    }
    expect(Math.abs(sum / 20000 - 0.5)).toBeLessThan(0.02);
    for (const c of counts) expect(c).toBeGreaterThan(1700);
    expect(() => r.int(0)).toThrow(RangeError);
    expect(() => new Rng(Number.NaN)).toThrow(TypeError);
  });

  it('shuffle is an in-place permutation, reaching every order of 3 items', () => {
    const r = new Rng(11);
    const orders = new Set<string>();
    for (let i = 0; i < 600; i++) {
      const a = [1, 2, 3];
      expect(r.shuffle(a)).toBe(a);
      expect([...a].sort()).toEqual([1, 2, 3]);
      orders.add(a.join(''));
    }
    expect(orders.size).toBe(6);
  });

  it('getState/setState restores the exact sequence, through JSON', () => {
    const r = new Rng(5);
    for (let i = 0; i < 37; i++) r.next();
    const saved = JSON.parse(JSON.stringify(r.getState()));
    const expected = Array.from({ length: 50 }, () => r.next());
    const other = new Rng(999);
    other.setState(saved);
    expect(Array.from({ length: 50 }, () => other.next())).toEqual(expected);
    expect(() => other.setState([1, 2, 3])).toThrow(TypeError);
    expect(() => other.setState([1, 2, 3, -1])).toThrow(TypeError);
  });
});
