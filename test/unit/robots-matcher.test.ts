import { describe, expect, it } from 'vitest';
import { type PatternRule, PatternSet } from '../../lib/engine/fetch/robots-matcher';
import { normalizeForMatch } from '../../lib/engine/fetch/robots-normalize';
import { Rng } from '../../lib/engine';

/** Google's matcher (google/robotstxt robots.cc, RobotsMatchStrategy::Matches): the set of positions a prefix reaches. */
function referenceMatches(path: string, pattern: string): boolean {
  let positions = [0];
  for (let k = 0; k < pattern.length; k++) {
    const ch = pattern[k];
    if (ch === '$' && k === pattern.length - 1) return positions[positions.length - 1] === path.length;
    if (ch === '*') {
      positions = Array.from({ length: path.length - positions[0] + 1 }, (_, i) => positions[0] + i);
    } else {
      positions = positions.filter((p) => p < path.length && path[p] === ch).map((p) => p + 1);
      if (positions.length === 0) return false;
    }
  }
  return true;
}

/** RFC 9309 2.2.2 over Google's matcher, both sides in the one spelling: the longest match wins, Allow on a tie. */
function referenceAllows(rules: PatternRule[], pathAndQuery: string): boolean {
  const path = normalizeForMatch(pathAndQuery, false);
  let allow = -1;
  let disallow = -1;
  for (const rule of rules) {
    const anchored = rule.pattern.endsWith('$');
    const pattern = normalizeForMatch(anchored ? rule.pattern.slice(0, -1) : rule.pattern, true) + (anchored ? '$' : '');
    if (!referenceMatches(path, pattern)) continue;
    if (rule.allow) allow = Math.max(allow, pattern.length);
    else disallow = Math.max(disallow, pattern.length);
  }
  return allow >= disallow;
}

/** The engine's seeded generator, so every run asks about the same URLs and a failure names its case. */
function random(seed: number): () => number {
  const rng = new Rng(seed);
  return () => rng.next();
}

/** Distinct pieces (literal runs after a `*`) of `rules`, their total, and the levels of a segment tree over them. */
function pieceCounts(rules: PatternRule[]): { distinct: number; total: number; depth: number } {
  const distinct = new Set<string>();
  let total = 0;
  for (const rule of rules) {
    for (const piece of rule.pattern.replace(/\$$/, '').split('*').slice(1).filter(Boolean)) {
      distinct.add(piece);
      total++;
    }
  }
  return { distinct: distinct.size, total, depth: Math.ceil(Math.log2(Math.max(2, distinct.size))) + 1 };
}

/** A file of the issue's kind: `Disallow: /*a<i>*z$` lines up to 500 KiB. */
function wildcardFile(make: (i: number) => string, bytes = 500 * 1024): PatternRule[] {
  const rules: PatternRule[] = [];
  let size = 0;
  for (let i = 0; ; i++) {
    const pattern = make(i);
    size += `Disallow: ${pattern}\n`.length;
    if (size > bytes) return rules;
    rules.push({ pattern, allow: false });
  }
}

describe('normalizeForMatch: patterns and URLs in one spelling (RFC 9309 2.2.2, 2.2.3)', () => {
  it.each([
    ['/%7Euser/%7e', false, '/~user/~'],
    ['/a%2fb%3Fc', false, '/a%2Fb%3Fc'],
    ['/caf\u00e9', false, '/caf%C3%A9'],
    ['/\u30c4', true, '/%E3%83%84'],
    ['/a b"<>{}|\\^`', false, '/a%20b%22%3C%3E%7B%7D%7C%5C%5E%60'],
    ['/file-*.html$x', false, '/file-%2A.html%24x'],
    ['/file-*.html$x', true, '/file-*.html%24x'],
    ['/100%/%zz/%4', false, '/100%/%zz/%4'],
    ['/\ud800x', false, '/%EF%BF%BDx'],
    ['/\u{1f600}', false, '/%F0%9F%98%80'],
    ['/plain/path?q=1&r=a:b', false, '/plain/path?q=1&r=a:b'],
  ])('%s (pattern: %s) -> %s', (text, pattern, expected) => {
    expect(normalizeForMatch(text, pattern)).toBe(expected);
  });
});

describe('PatternSet', () => {
  it('answers as the longest match over Google’s matcher on random patterns and paths', () => {
    const next = random(20260403);
    const alphabet = ['a', 'b', '/', '?', '%61', '%2F', '*', '*', '$', '\u00e9'];
    const word = (length: number, chars: string[]) =>
      Array.from({ length }, () => chars[Math.floor(next() * chars.length)]).join('');
    for (let trial = 0; trial < 3000; trial++) {
      const rules: PatternRule[] = Array.from({ length: 1 + Math.floor(next() * 6) }, () => ({
        pattern: (next() < 0.8 ? '/' : '') + word(Math.floor(next() * 7), alphabet) + (next() < 0.3 ? '$' : ''),
        allow: next() < 0.5,
      }));
      const set = new PatternSet(rules);
      for (let p = 0; p < 8; p++) {
        const path = `/${word(Math.floor(next() * 12), ['a', 'b', '/', '?', '%61', '*', '$', '\u00e9'])}`;
        expect(set.allows(path), `trial ${trial}: ${JSON.stringify(rules)} on ${path}`).toBe(referenceAllows(rules, path));
      }
    }
  });

  it('keeps identical patterns once, each kind with its longest line; Allow wins a tie', () => {
    const rules: PatternRule[] = [
      { pattern: '/a*b', allow: false },
      { pattern: '/a**b', allow: false },
      { pattern: '/a*b*', allow: true },
      { pattern: '/x', allow: false },
      { pattern: '/x', allow: true },
    ];
    const set = new PatternSet(rules);
    expect(set.size).toBe(2);
    expect(set.allows('/a-b')).toBe(true); // `/a**b` and `/a*b*` both have 5 octets: Allow wins
    expect(set.allows('/x/y')).toBe(true);
    expect(new PatternSet([...rules, { pattern: '/a***b', allow: false }]).allows('/a-b')).toBe(false);
  });

  it('matches the issue’s 500 KiB of `/*a<i>*z$` in a bounded number of steps per URL', () => {
    const rules = wildcardFile((i) => `/*a${i}*z$`);
    expect(rules.length).toBeGreaterThan(23_000);
    const set = new PatternSet(rules);
    const paths: [string, boolean][] = [
      [`/${'a'.repeat(1999)}`, true],
      [`/${'a9'.repeat(999)}z`, false],
      [`/${Array.from({ length: 400 }, (_, i) => `a${i}`).join('')}z`, false],
      [`/${Array.from({ length: 400 }, (_, i) => `a${i}`).join('')}`, true],
    ];
    for (const [path, allowed] of paths) {
      expect(set.allows(path)).toBe(allowed);
      // The path read once, a tree path per position, a step per pattern reached: none per pattern and position.
      expect(set.lastSteps).toBeLessThan(path.length * (pieceCounts(rules).depth + 3) + 2 * rules.length);
    }
  });

  it('bounds the steps on files built against it: nested pieces, many pieces per pattern, deep prefixes', () => {
    const files: Record<string, PatternRule[]> = {
      nested: wildcardFile((i) => `/*${'a'.repeat(i + 1)}*z$`),
      manyPieces: wildcardFile((i) => `/*${'a*'.repeat(46)}b${i}`),
      deepPrefixes: wildcardFile((i) => `/${'a'.repeat(i % 2000)}*b${i}`),
      stars: [
        { pattern: `/${'*'.repeat(240_000)}x$`, allow: false },
        ...wildcardFile((i) => `/${'a*'.repeat(20)}${i}`, 250 * 1024),
      ],
    };
    const path = `/${'a'.repeat(1999)}`;
    for (const [name, rules] of Object.entries(files)) {
      const set = new PatternSet(rules);
      set.allows(path);
      const { distinct, total, depth } = pieceCounts(rules);
      // Per position a tree path and a mark at most per piece; per edge reached (at most one per piece) a tree query.
      expect(set.lastSteps, name).toBeLessThan(path.length * (depth + 3) + distinct + total * (4 * depth + 2));
      expect(set.lastSteps, `${name}: far below a step per pattern and position`).toBeLessThan((rules.length * path.length) / 10);
    }
  });
});
