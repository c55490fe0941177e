/**
 * Real results pages of engines added from the Webis Archive Query Log (test/fixtures/serp/unseen-engines.json), and
 * the pages of pages.json marked `heldOut` (engines whose data was written for them): each unseen-engines page is read
 * with its engine's data (precision and recall 1.00, page order; serp.test.ts does this for pages.json), and every
 * page is read again with its engine taken out of the data (the structural fallback alone), where micro precision and
 * recall over all pages are measured and held to at least .95 and .90.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { ENGINES, extractSerp, type QueryRoot } from '../../lib/app/serp/index';
import { canonicalizeUrl } from '../../lib/engine/url/canonical';

const fixtureDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/serp');

interface Page {
  name: string;
  url: string;
  /** null: an engine Forager has no data for (read by the fallback only). */
  engine: string | null;
  heldOut?: boolean;
}
interface Expected {
  engine: string;
  query: string;
  results: { title: string; url: string }[];
}

const readPages = (file: string): Page[] => JSON.parse(readFileSync(path.join(fixtureDir, file), 'utf8')) as Page[];
const PAGES = readPages('unseen-engines.json');
const HELD_OUT = [...PAGES, ...readPages('pages.json').filter((p) => p.heldOut)];
const docOf = (name: string): QueryRoot =>
  parseHTML(gunzipSync(readFileSync(path.join(fixtureDir, `${name}.html.gz`))).toString('utf8')).document as unknown as QueryRoot;
const expectedOf = (name: string): Expected =>
  JSON.parse(readFileSync(path.join(fixtureDir, `${name}.expected.json`), 'utf8')) as Expected;

/** True positives, false positives and false negatives of `got` against `want` (URL sets). */
function counts(got: string[], want: string[]): { tp: number; fp: number; fn: number } {
  const w = new Set(want);
  const g = new Set(got);
  const tp = got.filter((u) => w.has(u)).length;
  return { tp, fp: got.length - tp, fn: want.filter((u) => !g.has(u)).length };
}

describe('engines added from real pages: read with their data, and as unknown engines', () => {
  for (const page of PAGES.filter((p) => p.engine !== null)) {
    it(`${page.name}: the engine's data reads every result, in order, and nothing else`, () => {
      const want = expectedOf(page.name);
      const got = extractSerp(docOf(page.name), page.url);
      expect(got.engine).toBe(page.engine);
      expect(got.via).toBe('engine');
      expect(got.query).toBe(want.query);
      expect(got.results.map((r) => r.url)).toEqual(want.results.map((r) => canonicalizeUrl(r.url)));
    });
  }

  it('with each page’s engine taken out of the data, the fallback reads them at micro precision ≥ .95, recall ≥ .90', () => {
    const total = { tp: 0, fp: 0, fn: 0 };
    for (const page of HELD_OUT) {
      const engines = ENGINES.filter((e) => e.id !== page.engine);
      const got = extractSerp(docOf(page.name), page.url, undefined, { engines });
      expect(got.engine).toBeNull();
      expect(got.via).toBe('fallback');
      const c = counts(
        got.results.map((r) => r.url),
        expectedOf(page.name).results.map((r) => canonicalizeUrl(r.url) ?? r.url),
      );
      total.tp += c.tp;
      total.fp += c.fp;
      total.fn += c.fn;
    }
    const precision = total.tp / (total.tp + total.fp);
    const recall = total.tp / (total.tp + total.fn);
    console.log(
      `held-out engines, ${HELD_OUT.length} pages: micro precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)} (${JSON.stringify(total)})`,
    );
    expect(precision).toBeGreaterThanOrEqual(0.95);
    expect(recall).toBeGreaterThanOrEqual(0.9);
  });
});
