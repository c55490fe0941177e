/**
 * `npm run lab -- content`: how well Forager reads a page's main content, on the article-extraction benchmark (181
 * real news and blog pages with hand-made article bodies, scored by the benchmark's own method: shingles.ts).
 * Rows: Forager's main text (the text it gives full weight, as `mainText` and `contentHash` read it, not cut),
 * Mozilla Readability.js on linkedom run in the same process on the same decoded pages, all visible text (Forager's
 * own pass, nothing left out: the floor), and trafilatura's published output (scored, not run). Then the pages
 * Forager reads worst, and the time per page: Forager's whole evaluation (parse, score, links) against Readability's
 * parse and extraction, page by page alternately, the median of several rounds.
 */
import { writeFileSync } from 'node:fs';
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { decodeHtml, evaluatePage, pageTexts, readPage, type Topic } from '../../lib/engine';
import { oneLine } from '../../lib/app/node';
import { type BenchmarkPage, loadBenchmark, loadPublishedOutput } from './benchmark';
import { type Evaluation, evaluateExtraction, pageF1, type TpFpFn } from './shingles';

const CONTENT_TYPE = 'text/html; charset=utf-8';
/** A topic for timing the whole evaluation (scoring, snippet): the page's main text does not depend on it. */
const TIMING_TOPIC: Topic = { keywords: 'news report' };

export interface ContentOptions {
  /** Pages listed as the worst (default 15). */
  worst?: number;
  /** Timing rounds over every page (default 3; 0: no timing). */
  rounds?: number;
  /** Every page's texts and scores as JSON. */
  json?: string;
  /** Only these page ids. */
  ids?: string[];
  write?: (line: string) => void;
}

export interface ExtractorRow {
  name: string;
  evaluation: Evaluation;
  /** Pages for which it extracted no text at all. */
  empty: number;
  /** Milliseconds per page (median of the rounds), if timed. */
  msPerPage?: number;
}

/** Forager's main text and all visible text of a page. */
export function foragerTexts(page: BenchmarkPage): { main: string; visible: string } {
  return pageTexts(readPage({ url: page.url, body: page.html, contentType: CONTENT_TYPE }));
}

/** Readability.js's article text (textContent, as the benchmark's own Readability.js runner prints it). */
export function readabilityText(page: BenchmarkPage): string {
  const { document } = parseHTML(decodeHtml(page.html, CONTENT_TYPE).text);
  // linkedom's document is not lib.dom's Document, and Readability reads only the DOM API they share.
  const article = new Readability(document as unknown as Document).parse();
  return article?.textContent ?? '';
}

function row(name: string, pages: BenchmarkPage[], texts: string[], msPerPage?: number): ExtractorRow {
  const evaluation = evaluateExtraction(
    pages.map((p) => p.truth),
    texts,
  );
  return { name, evaluation, empty: texts.filter((t) => !/[\p{L}\p{N}_]/u.test(t)).length, msPerPage };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Per round, each page through Forager's evaluation then Readability: total ms per page of each, median of rounds. */
function timeBoth(pages: BenchmarkPage[], rounds: number): { forager: number; readability: number } {
  const forager: number[] = [];
  const readability: number[] = [];
  for (let r = 0; r < rounds; r++) {
    let f = 0;
    let d = 0;
    for (const page of pages) {
      const t0 = performance.now();
      evaluatePage({ url: page.url, body: page.html, contentType: CONTENT_TYPE, topic: TIMING_TOPIC });
      const t1 = performance.now();
      readabilityText(page);
      d += performance.now() - t1;
      f += t1 - t0;
    }
    forager.push(f / pages.length);
    readability.push(d / pages.length);
  }
  return { forager: median(forager), readability: median(readability) };
}

const fmt = (x: number) => x.toFixed(3);

/** The table, the worst pages and the timing, as lines. */
export function contentReport(rows: ExtractorRow[], pages: BenchmarkPage[], worst: number): string[] {
  const lines: string[] = [];
  lines.push(
    `article-extraction benchmark: ${pages.length} pages, 4-word shingles (its evaluate.py), ± = bootstrap SD over pages`,
  );
  lines.push(
    `${'extractor'.padEnd(34)} ${'F1'.padEnd(13)}  ${'precision'.padEnd(13)}  ${'recall'.padEnd(13)}  accuracy  empty  ms/page`,
  );
  for (const r of rows) {
    const m = r.evaluation.metrics;
    const s = r.evaluation.std;
    lines.push(
      `${r.name.padEnd(34)} ${fmt(m.f1)} ± ${fmt(s.f1)}  ${fmt(m.precision)} ± ${fmt(s.precision)}  ${fmt(m.recall)} ± ${fmt(s.recall)}  ` +
        `${fmt(m.accuracy).padEnd(8)}  ${String(r.empty).padStart(5)}  ${r.msPerPage === undefined ? '-' : r.msPerPage.toFixed(2)}`,
    );
  }
  const forager = rows[0].evaluation.pages;
  const other = rows[1]?.evaluation.pages;
  const order = forager.map((_, i) => i).sort((a, b) => pageF1(forager[a]) - pageF1(forager[b]));
  lines.push(
    '',
    `The ${Math.min(worst, pages.length)} pages ${rows[0].name} reads worst (page F1, P, R; ${rows[1]?.name ?? ''} F1):`,
  );
  const pr = ([tp, fp, fn]: TpFpFn) => `${fmt(tp + fp > 0 ? tp / (tp + fp) : 0)} ${fmt(tp + fn > 0 ? tp / (tp + fn) : 0)}`;
  for (const i of order.slice(0, worst)) {
    lines.push(
      `  ${fmt(pageF1(forager[i]))}  ${pr(forager[i])}  ${other ? fmt(pageF1(other[i])) : ''}  ${pages[i].id.slice(0, 12)}  ${oneLine(pages[i].url).slice(0, 90)}`,
    );
  }
  return lines;
}

/** Runs the benchmark and prints the report; returns the rows. */
export function runContentBenchmark(options: ContentOptions = {}): ExtractorRow[] {
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const pages = loadBenchmark({ ids: options.ids });
  const forager = pages.map(foragerTexts);
  const readability = pages.map(readabilityText);
  const rounds = options.rounds ?? 3;
  const timing = rounds > 0 ? timeBoth(pages, rounds) : undefined;
  const rows = [
    row(
      'Forager main text',
      pages,
      forager.map((t) => t.main),
      timing?.forager,
    ),
    row('Readability.js (linkedom)', pages, readability, timing?.readability),
    row(
      'all visible text',
      pages,
      forager.map((t) => t.visible),
    ),
  ];
  if (!options.ids) {
    const published = loadPublishedOutput('trafilatura');
    rows.push(
      row(
        `trafilatura ${published.version} (published output)`,
        pages,
        pages.map((p) => published.bodies.get(p.id) ?? ''),
      ),
    );
  }
  for (const line of contentReport(rows, pages, options.worst ?? 15)) write(line);
  if (timing) {
    write(
      `\nms per page (median of ${rounds} rounds, same process, alternating): Forager's whole evaluation ${timing.forager.toFixed(2)}, ` +
        `Readability.js parse + extraction ${timing.readability.toFixed(2)} (x${(timing.readability / timing.forager).toFixed(1)})`,
    );
  }
  if (options.json) {
    const perPage = pages.map((p, i) => ({
      id: p.id,
      url: p.url,
      forager: { f1: pageF1(rows[0].evaluation.pages[i]), text: forager[i].main },
      readability: { f1: pageF1(rows[1].evaluation.pages[i]), text: readability[i] },
    }));
    writeFileSync(
      options.json,
      JSON.stringify(
        { rows: rows.map((r) => ({ ...r, evaluation: { ...r.evaluation, pages: undefined } })), pages: perPage },
        null,
        1,
      ),
    );
  }
  return rows;
}
