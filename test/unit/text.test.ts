import { describe, expect, it } from 'vitest';
import {
  TermCounter,
  TermStream,
  cosine,
  norm,
  stopwordLanguage,
  termVector,
  tokenize,
  tokenizeInto,
  topicVector,
  words,
} from '../../lib/engine/text';
import { cosineMeasured, measure, termsCosine } from '../../lib/engine/text/vector';

describe('tokenize', () => {
  it('lowercases, drops stop words and Porter-stems English', () => {
    expect(tokenize('The Runners were RUNNING and jumping')).toEqual(['runner', 'run', 'jump']);
  });

  it('drops 1-character tokens and numbers longer than 4 digits, keeps short numbers', () => {
    expect(tokenize('x y 2024 123456 7 42 z9')).toEqual(['2024', '42', 'z9']);
  });

  it('splits on punctuation and keeps Unicode letters', () => {
    expect(tokenize('coffee-grinders, espresso/latte; Straße')).toEqual(['coffe', 'grinder', 'espresso', 'latt', 'straße']);
  });

  it('applies NFKC: full-width letters and ligatures become plain letters', () => {
    expect(tokenize('ＣＯＦＦＥＥ')).toEqual(tokenize('coffee'));
    expect(tokenize('ﬁle')).toEqual(tokenize('file'));
  });

  it('keeps combining marks inside words (decomposed and composed forms agree)', () => {
    const decomposed = 'cafe\u0301 re\u0301sume\u0301';
    const composed = 'café résumé';
    expect(tokenize(decomposed, 'fr')).toEqual(tokenize(composed, 'fr'));
    expect(tokenize(composed, 'fr')).toEqual(['caf', 'résum']); // French Snowball stems
  });

  it('does not leave English contraction fragments behind', () => {
    expect(tokenize("don't stop, it isn't over")).toEqual(['stop']);
  });

  it('uses the stop words and the Snowball stemmer of the selected language', () => {
    expect(tokenize('Die Häuser und der Garten', 'de')).toEqual(['haus', 'gart']);
    expect(tokenize('le café et la maison', 'fr')).toEqual(['caf', 'maison']);
    // English stop words are not German ones.
    expect(tokenize('the houses', 'de')).toContain('the');
  });

  it('maps ISO 639-1 codes and regional tags; unknown codes fall back to English', () => {
    expect(stopwordLanguage('en')).toBe('eng');
    expect(stopwordLanguage('en-US')).toBe('eng');
    expect(stopwordLanguage('de')).toBe('deu');
    expect(stopwordLanguage('fr')).toBe('fra');
    expect(stopwordLanguage('pt-BR')).toBe('porBr');
    expect(stopwordLanguage('deu')).toBe('deu');
    expect(stopwordLanguage('xx')).toBe('eng');
    expect(stopwordLanguage(undefined)).toBe('eng');
    expect(tokenize('the running', 'xx')).toEqual(['run']);
  });

  it('cuts CJK runs into bigrams and keeps a lone CJK character', () => {
    expect(tokenize('日本語', 'ja')).toEqual(['日本', '本語']);
    expect(tokenize('東 京', 'ja')).toEqual(['東', '京']);
  });

  it('returns nothing for empty, whitespace-only or symbol-only text', () => {
    expect(tokenize('')).toEqual([]);
    expect(tokenize('   \n\t ')).toEqual([]);
    expect(tokenize('!!! --- ***')).toEqual([]);
  });

  it('survives hostile input: lone surrogates, control characters, huge words', () => {
    const hostile = `\ud800abc\udc00 \u0000\u0007 ${'a'.repeat(100_000)} \uFFFD coffee`;
    const out = tokenize(hostile);
    expect(out).toContain('coffe');
    expect(out).toContain('abc');
  });

  it('gives every word its own term however many distinct words are cached (no hash mix-ups)', () => {
    // 3,000 distinct pseudo-words, tokenized one by one and all together: the cached path must agree.
    const vocab = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}q${((i * 7919) % 1000).toString(36)}`);
    const one = vocab.map((w) => tokenize(w)[0]);
    expect(tokenize(vocab.join(' '))).toEqual(one);
    expect(new Set(one).size).toBe(3000);
  });

  it('keeps counting right when the bounded cache is cleared in the middle of a text', () => {
    // More distinct words than the cache holds (50,000), with "coffee" before and after.
    const filler = Array.from({ length: 60_000 }, (_, i) => `zq${i}`); // stems to itself
    const counter = new TermCounter();
    const terms: string[] = [];
    tokenizeInto(`coffee ${filler.join(' ')} coffees`, 'en', terms, undefined, 0, counter);
    const v = counter.vector();
    expect(v.coffe).toBe(2);
    expect(terms.length).toBe(60_002);
    expect(Object.values(v).reduce((a, b) => a + b, 0)).toBe(60_002);
    expect(counter.sumOfSquares()).toBe(60_000 + 4); // coffee counted 2, squared 4, across the clear
    expect(tokenize('running')).toEqual(['run']);
  });

  it('reports offsets of terms into the original text', () => {
    const terms: string[] = [];
    const offsets: number[] = [];
    const text = 'The ＣＯＦＦＥＥ grinder';
    tokenizeInto(text, 'en', terms, offsets, 100);
    expect(terms).toEqual(['coffe', 'grinder']);
    expect(offsets).toEqual([104, 111]);
  });

  it('handles a term named like an Object.prototype property', () => {
    const v = termVector(tokenize('constructor constructor tostring hasownproperty'));
    expect(v.constructor).toBe(2);
    expect(cosine(v, termVector(['constructor']))).toBeGreaterThan(0);
  });
});

describe('words', () => {
  it('returns unstemmed lowercase words with stop words kept', () => {
    expect(words('The Runners, RUNNING!')).toEqual(['the', 'runners', 'running']);
    expect(words('')).toEqual([]);
  });
});

describe('vectors', () => {
  it('counts terms', () => {
    expect({ ...termVector(['a', 'b', 'a']) }).toEqual({ a: 2, b: 1 });
  });

  it('computes the norm', () => {
    expect(norm({ a: 3, b: 4 })).toBe(5);
    expect(norm({})).toBe(0);
  });

  it('cosine is 1 for parallel vectors, 0 for disjoint or empty ones, symmetric, in [0, 1]', () => {
    expect(cosine({ a: 1, b: 2 }, { a: 2, b: 4 })).toBeCloseTo(1, 12);
    expect(cosine({ a: 1 }, { b: 1 })).toBe(0);
    expect(cosine({}, { a: 1 })).toBe(0);
    expect(cosine({ a: 1 }, {})).toBe(0);
    const x = { a: 1, b: 3, c: 1 };
    const y = { a: 2, c: 5 };
    expect(cosine(x, y)).toBeCloseTo(cosine(y, x), 12);
    expect(cosine(x, y)).toBeCloseTo((1 * 2 + 1 * 5) / (Math.sqrt(11) * Math.sqrt(29)), 12);
  });

  it('builds the topic vector from the keywords in the topic language', () => {
    expect({ ...topicVector({ keywords: 'Coffee brewing at home' }) }).toEqual({ coffe: 1, brew: 1, home: 1 });
    expect({ ...topicVector({ keywords: 'Kaffee und Kuchen', language: 'de' }) }).toEqual({ kaffe: 1, kuch: 1 });
    expect(topicVector({ keywords: '' })).toEqual({});
  });
});

describe('termsCosine', () => {
  // Numbers that are array indices (ordered first by a for-in), numbers that are not, and words.
  const vocabulary = ['0', '7', '42', '10', '3', '007', '4294967294', '4294967295', '-1', 'python', 'django', 'orm'];
  for (let i = 0; i < 40; i++) vocabulary.push(`w${i}`);
  const reference = (terms: string[], more: string[], v: Record<string, number>) =>
    cosineMeasured(measure(termVector([...terms, ...more])), measure(v));

  it('equals the cosine of the counted vector bit for bit, with number-like terms and lists of every size', () => {
    const rand = lcg(7);
    const pick = (n: number) => Array.from({ length: n }, () => vocabulary[Math.floor(rand() * vocabulary.length)]);
    let checked = 0;
    let orderMatters = 0;
    for (let trial = 0; trial < 3000; trial++) {
      const terms = pick(Math.floor(rand() * 40));
      const more = pick(trial % 3 === 0 ? Math.floor(rand() * 50) : trial % 101 === 1 ? 400 : 0);
      const v: Record<string, number> = Object.create(null);
      for (const t of pick(1 + Math.floor(rand() * (trial % 2 === 0 ? 4 : 45)))) v[t] = rand() * 3 + 1e-3 / (1 + rand());
      const want = reference(terms, more, v);
      expect(Object.is(termsCosine(terms, measure(v), more), want)).toBe(true);
      checked++;
      // The same sum in first-seen order (number-like keys not first): differs in some cases, so the order is tested.
      const all = [...terms, ...more];
      const counts = new Map<string, number>();
      for (const t of all) counts.set(t, (counts.get(t) ?? 0) + 1);
      if (counts.size <= measure(v).size) {
        let dot = 0;
        let sq = 0;
        for (const [t, c] of counts) {
          sq += c * c;
          if (Object.hasOwn(v, t)) dot += c * v[t];
        }
        const naive = all.length === 0 ? 0 : Math.min(1, Math.max(0, dot / (Math.sqrt(sq) * measure(v).norm)));
        if (!Object.is(naive, want)) orderMatters++;
      }
    }
    expect(checked).toBe(3000);
    expect(orderMatters).toBeGreaterThan(0);
  });

  it('sums number-like terms in numeric order, as a vector does', () => {
    const rand = lcg(11);
    const numbers = ['0', '3', '7', '10', '42', '100', '4294967294', 'orm'];
    let orderMatters = 0;
    for (let trial = 0; trial < 2000; trial++) {
      const terms = Array.from({ length: 2 + Math.floor(rand() * 6) }, () => numbers[Math.floor(rand() * numbers.length)]);
      const v: Record<string, number> = Object.create(null);
      // Weights of different magnitudes, so the order of the sum shows in its last bits; more terms than the list.
      for (const t of numbers) v[t] = rand() * 10 ** Math.floor(rand() * 8);
      const want = reference(terms, [], v);
      expect(Object.is(termsCosine(terms, measure(v)), want)).toBe(true);
      // The same sum in descending numeric order differs in some cases, so the order is tested.
      const counts = termVector(terms);
      const keys = Object.keys(counts).sort((a, b) => (Number(b) || -1) - (Number(a) || -1));
      let dot = 0;
      for (const k of keys) dot += counts[k] * v[k];
      const descending = Math.min(1, Math.max(0, dot / (measure(counts).norm * measure(v).norm)));
      if (!Object.is(descending, want)) orderMatters++;
    }
    expect(orderMatters).toBeGreaterThan(0);
  });

  it('is 0 for no terms or an empty vector, and 1 (to rounding) for the same terms', () => {
    expect(termsCosine([], measure({ a: 1 }))).toBe(0);
    expect(termsCosine(['a'], measure({}))).toBe(0);
    expect(termsCosine(['a', 'b', 'a'], measure(termVector(['a', 'b', 'a'])))).toBeCloseTo(1, 12);
  });
});

/** Seeded LCG, so the split points below are reproducible. */
function lcg(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

describe('tokenizeInto ranges and TermStream', () => {
  const SAMPLES = [
    'The Runners were RUNNING and jumping over 2024 fences, 123456 times.',
    'Café crème, naïve coöperation; e\u0301tude with combining marks; ＣＯＦＦＥＥ ﬁne ½ cup.',
    '東京都に住んでいます。日本語 text mixed with 中文 and 한국어 words.',
    'Math letters 𝐀𝐁𝐂 and emoji 😀 between words, a lone \ud800 surrogate and \udc00 another.',
    "x y z a I 7 — single letters, don't, isn't, you'll; hyphen-ated_words and snake_case.",
  ];

  function reference(text: string, base = 0) {
    const terms: string[] = [];
    const offsets: number[] = [];
    const counter = new TermCounter();
    tokenizeInto(text, 'en', terms, offsets, base, counter);
    return { terms, offsets, vector: counter.vector() };
  }

  it('tokenizes only [from, to), as if that slice were the whole text, with offsets from the start', () => {
    for (const text of SAMPLES) {
      for (const [from, to] of [
        [0, text.length],
        [3, text.length - 4],
        [10, 11],
        [5, 5],
        [7, 40],
      ]) {
        const terms: string[] = [];
        const offsets: number[] = [];
        tokenizeInto(text, 'en', terms, offsets, 0, undefined, from, to);
        const ref = reference(text.slice(from, to), from);
        expect(terms).toEqual(ref.terms);
        expect(offsets).toEqual(ref.offsets);
      }
    }
    // A surrogate pair cut by `to` is a lone surrogate there, as at the end of a string.
    const astral = 'ab𝐀𝐁';
    const cut: string[] = [];
    tokenizeInto(astral, 'en', cut, undefined, 0, undefined, 0, 3);
    expect(cut).toEqual(tokenize(astral.slice(0, 3)));
  });

  it('gives exactly the terms, offsets and counts of the joined text however it is cut into pieces', () => {
    const rnd = lcg(42);
    for (const text of SAMPLES) {
      const ref = reference(text, 100);
      for (let trial = 0; trial < 60; trial++) {
        // Random cut points, some inside words, some between the halves of a surrogate pair.
        const cuts = new Set<number>();
        const n = 1 + Math.floor(rnd() * 12);
        for (let k = 0; k < n; k++) cuts.add(Math.floor(rnd() * (text.length + 1)));
        const points = [0, ...[...cuts].sort((a, b) => a - b), text.length];
        const terms: string[] = [];
        const offsets: number[] = [];
        const counter = new TermCounter();
        const stream = new TermStream('en', terms, offsets, counter);
        // Half the pieces are given as ranges of a larger string, as the evaluator does with the page's HTML.
        const source = `<<${text}>>`;
        for (let k = 0; k + 1 < points.length; k++) {
          const [a, b] = [points[k], points[k + 1]];
          if (k % 2 === 0) stream.push(text.slice(a, b), 100 + a);
          else stream.push(source, 100 + a, a + 2, b + 2);
        }
        stream.end();
        expect(terms).toEqual(ref.terms);
        expect(offsets).toEqual(ref.offsets);
        expect(counter.vector()).toEqual(ref.vector);
      }
    }
  });

  it('breaks words at end(): pieces on either side tokenize as separate texts', () => {
    const terms: string[] = [];
    const stream = new TermStream('en', terms);
    stream.push('coff', 0);
    stream.end();
    stream.push('ee running', 4);
    stream.end();
    expect(terms).toEqual([...tokenize('coff'), ...tokenize('ee running')]);
    const joined: string[] = [];
    const s2 = new TermStream('en', joined);
    s2.push('coff', 0);
    s2.push('ee running', 4);
    s2.end();
    expect(joined).toEqual(tokenize('coffee running'));
  });

  it('records the positions of watched terms while counting', () => {
    const topic = tokenize('coffee brewing');
    const terms: string[] = [];
    const counter = new TermCounter();
    counter.watch(topic, 'en', terms);
    tokenizeInto('Coffee and tea. Brewing coffee takes time; brewed coffees too.', 'en', terms, undefined, 0, counter);
    // A title tokenized into another array with the same counter is counted but not recorded.
    tokenizeInto('Coffee title', 'en', [], undefined, 0, counter);
    expect(counter.watchValid()).toBe(true);
    const expected = terms.map((t, i) => (topic.includes(t) ? i : -1)).filter((i) => i >= 0);
    expect(counter.watchHits).toEqual(expected);
    expect(expected.length).toBe(5); // Coffee, Brewing, coffee, brewed, coffees ("brewing" and "brewed" stem to "brew")
    expect(counter.vector().coffe).toBe(4);
  });
});
