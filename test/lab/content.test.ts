import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BENCHMARK_DIR, loadBenchmark, loadPublishedOutput } from '../../lab/content/benchmark';
import { runContentBenchmark } from '../../lab/content/command';
import { evaluateExtraction, metricsOf, shingleMatching, tokenizeWords } from '../../lab/content/shingles';

/** Pages main's reading left empty (a boilerplate name on <body> or the page wrapper), and a WordPress blog post. */
const PAGES = [
  '1ee91d1fce65e09be8b8d2d29eab771546d98ca2ba5c862941e660e9fec12432', // polygraph.info
  '95301fb7883e0ee5214d1111554d30dd97e08c6380d7699369c0b9c15f42e6aa', // vortexcannon.org
  '14cc2a0ca59c62a8c9f205a171e9ccf4ef4cf69b0c642f51c8c65c051b39024f', // sciencealert.com
];

describe("the article-extraction benchmark's scorer (evaluate.py, ported)", () => {
  it('tokenizes as Python\'s \\w+: letters and digits of any script and "_", case kept, marks and punctuation out', () => {
    expect(tokenizeWords('Héllo, wörld_2 — ÖL! 東京 l’été')).toEqual(['Héllo', 'wörld_2', 'ÖL', '東京', 'l', 'été']);
  });

  it('counts 4-word shingles as multisets, normalised to sum 1; a short text is one shingle', () => {
    // 5 true tokens: shingles "a b c d", "b c d e"; predicted shares one and adds "c d e f" twice over.
    const [tp, fp, fn] = shingleMatching('a b c d e', 'a b c d x y');
    // predicted shingles: "a b c d", "b c d x", "c d x y" -> tp 1, fp 2, fn 1, over 4
    expect([tp, fp, fn]).toEqual([0.25, 0.5, 0.25]);
    expect(shingleMatching('one two', 'one two')).toEqual([1, 0, 0]);
    expect(shingleMatching('one two', 'two one')).toEqual([0, 0.5, 0.5]);
    expect(shingleMatching('', '')).toEqual([0, 0, 0]);
    expect(shingleMatching('a a a a a', 'a a a a')).toEqual([0.5, 0, 0.5]);
  });

  it('averages precision over pages that extracted something and recall over pages with a true text', () => {
    // Page 1 extracted nothing (no precision), page 2 has no true text (no recall), page 3 is half right.
    const m = metricsOf([
      [0, 0, 1],
      [0, 1, 0],
      [0.5, 0.25, 0.25],
    ]);
    expect(m.precision).toBeCloseTo((0 + 0.5 / 0.75) / 2, 12);
    expect(m.recall).toBeCloseTo((0 + 0.5 / 0.75) / 2, 12);
  });

  it("reproduces the benchmark's published figures for trafilatura 2.0 (F1 .958, P .938, R .978, accuracy .293)", () => {
    const truth = JSON.parse(readFileSync(join(BENCHMARK_DIR, 'ground-truth.json'), 'utf8')) as Record<
      string,
      { articleBody: string }
    >;
    const ids = Object.keys(truth);
    const { bodies, version } = loadPublishedOutput('trafilatura');
    expect(version).toBe('2.0.0');
    const e = evaluateExtraction(
      ids.map((id) => truth[id].articleBody),
      ids.map((id) => bodies.get(id) ?? ''),
      100,
    );
    expect(e.metrics.f1.toFixed(3)).toBe('0.958');
    expect(e.metrics.precision.toFixed(3)).toBe('0.938');
    expect(e.metrics.recall.toFixed(3)).toBe('0.978');
    expect(e.metrics.accuracy.toFixed(3)).toBe('0.293');
  });
});

describe('npm run lab -- content', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('refuses data that differs from its checksums', () => {
    const dir = mkdtempSync(join(tmpdir(), 'aeb-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'html'));
    for (const f of ['SHA256SUMS', 'ground-truth.json', `html/${PAGES[0]}.html.gz`])
      copyFileSync(join(BENCHMARK_DIR, f), join(dir, f));
    expect(loadBenchmark({ dir, ids: [PAGES[0]] })[0].truth.length).toBeGreaterThan(100);
    writeFileSync(join(dir, `html/${PAGES[0]}.html.gz`), 'changed');
    expect(() => loadBenchmark({ dir, ids: [PAGES[0]] })).toThrow(/sha256/);
    rmSync(join(dir, `html/${PAGES[0]}.html.gz`));
    expect(() => loadBenchmark({ dir, ids: [PAGES[0]] })).toThrow(/missing/);
  });

  it("scores Forager's main text, Readability.js and all visible text on committed pages, and lists the worst", () => {
    const lines: string[] = [];
    const rows = runContentBenchmark({ ids: PAGES, rounds: 0, worst: 3, write: (l) => lines.push(l) });
    expect(rows.map((r) => r.name)).toEqual(['Forager main text', 'Readability.js (linkedom)', 'all visible text']);
    const [forager, readability, all] = rows.map((r) => r.evaluation.metrics);
    expect(rows[0].empty).toBe(0);
    expect(readability.f1).toBeGreaterThan(0.95);
    // All visible text finds the article (recall) but holds the page's chrome too (precision).
    expect(all.recall).toBeGreaterThan(0.95);
    expect(all.precision).toBeLessThan(0.8);
    expect(forager.f1).toBeGreaterThan(0.9);
    expect(lines.join('\n')).toMatch(/Forager main text +0\.\d{3} ± /);
    expect(lines.filter((l) => /^ {2}\d\.\d{3} /.test(l))).toHaveLength(3);
  });
});
