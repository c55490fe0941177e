/**
 * Page-evaluation cost against the bare parse.
 *
 * For real HTML pages cut to 100 KB (the saved search-result pages in shared/serp, plus any large HTML manual under
 * /usr/share/doc), it times evaluatePage (decode, parse, visible text, tokenize + stem, score, snippet, link
 * extraction and canonicalization) and, side by side, decoding the same bytes and running htmlparser2's Parser with
 * no-op callbacks. Medians over many interleaved repetitions; the target is evaluation < 2x the bare parse.
 *
 * Run: npx tsx bench/evaluate.ts
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { Parser } from 'htmlparser2';
import { evaluatePage } from '../lib/html/evaluate';
import type { Topic } from '../lib/types';

const PAGE_BYTES = 100 * 1024;
const REPS = 40;
const WARMUP = 5;
const MAX_DOC_PAGES = 8;

interface BenchPage {
  name: string;
  body: Uint8Array;
  topic: Topic;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

function findSerpDir(): string | null {
  const here = fileURLToPath(new URL('.', import.meta.url));
  // shared/ sits beside the repository (../shared), both on this machine and in CI.
  for (const dir of [join(here, '..', '..', 'shared', 'serp'), join(here, '..', 'shared', 'serp')]) {
    if (existsSync(dir)) return dir;
  }
  return null;
}

/** Large HTML files under /usr/share/doc, if the machine has any (bounded walk). */
function findDocPages(): string[] {
  const root = '/usr/share/doc';
  const found: string[] = [];
  if (!existsSync(root)) return found;
  const stack = [root];
  let visited = 0;
  while (stack.length && found.length < 200 && visited < 20_000) {
    const dir = stack.pop()!;
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      continue;
    }
    for (const e of entries) {
      visited++;
      const p = join(dir, e);
      let st;
      try {
        st = statSync(p);
      } catch {
        continue;
      }
      if (st.isDirectory()) stack.push(p);
      else if (e.endsWith('.html') && st.size > 60 * 1024) found.push(p);
    }
  }
  return found.sort().slice(0, MAX_DOC_PAGES);
}

function topicFor(name: string): Topic {
  if (name.includes('coffee')) return { keywords: 'coffee' };
  if (name.includes('matrix')) return { keywords: 'matrix movie' };
  if (name.includes('javascript')) return { keywords: 'javascript tutorial' };
  if (name.includes('nodejs') || name.includes('process') || name.includes('async')) return { keywords: 'node process async' };
  return { keywords: 'documentation manual reference' };
}

/** Loads the benchmark pages (100 KB each). */
export function loadBenchPages(): BenchPage[] {
  const pages: BenchPage[] = [];
  const serp = findSerpDir();
  const files = [
    ...(serp ? readdirSync(serp).filter((f) => f.endsWith('.html')).map((f) => join(serp, f)) : []),
    ...findDocPages(),
  ];
  for (const file of files) {
    const bytes = readFileSync(file);
    const body = new Uint8Array(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, PAGE_BYTES));
    const name = file.startsWith('/usr/share/doc/') ? file.slice('/usr/share/doc/'.length) : basename(file);
    pages.push({ name, body: body.slice(), topic: topicFor(name) });
  }
  return pages;
}

function bareParse(body: Uint8Array): number {
  const html = new TextDecoder('utf-8').decode(body);
  let n = 0;
  const parser = new Parser(
    {
      onopentag() {
        n++;
      },
      ontext() {},
      onclosetag() {},
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return n;
}

/**
 * Runs the benchmark and returns its figures (milliseconds, ratios): per page `eval:<name>`, `parse:<name>`,
 * `ratio:<name>`, `minRatio:<name>` (fastest evaluation / fastest parse); overall `evalMedianMs`, `parseMedianMs`
 * (medians of the per-page medians), `ratio` (sum of evaluation medians / sum of parse medians), `minRatio` (same
 * with minimums), `worstRatio`, `coldEvalMs` (first evaluation, empty stem cache), `pages`.
 */
export async function benchEvaluate(): Promise<Record<string, number>> {
  const pages = loadBenchPages();
  const out: Record<string, number> = { pages: pages.length };
  if (pages.length === 0) return out;
  const url = 'https://example.com/page';

  const t0 = performance.now();
  evaluatePage({ url, body: pages[0].body, contentType: 'text/html', topic: pages[0].topic });
  out.coldEvalMs = performance.now() - t0;

  const evalMedians: number[] = [];
  const minEval: number[] = [];
  const minParse: number[] = [];
  const parseMedians: number[] = [];
  let worst = 0;
  for (const page of pages) {
    const input = { url, body: page.body, contentType: 'text/html; charset=utf-8', topic: page.topic };
    for (let i = 0; i < WARMUP; i++) {
      evaluatePage(input);
      bareParse(page.body);
    }
    const ev: number[] = [];
    const pa: number[] = [];
    for (let i = 0; i < REPS; i++) {
      // Interleaved so both see the same machine noise.
      let t = performance.now();
      bareParse(page.body);
      pa.push(performance.now() - t);
      t = performance.now();
      evaluatePage(input);
      ev.push(performance.now() - t);
    }
    const e = median(ev);
    const p = median(pa);
    out[`eval:${page.name}`] = e;
    out[`parse:${page.name}`] = p;
    out[`ratio:${page.name}`] = e / p;
    // Minimums too: on a shared, loaded machine a 2 ms call is preempted far more often than a 1 ms one, which
    // inflates wall-clock medians of the longer call; the fastest run shows the cost of the work itself.
    out[`minRatio:${page.name}`] = Math.min(...ev) / Math.min(...pa);
    minEval.push(Math.min(...ev));
    minParse.push(Math.min(...pa));
    worst = Math.max(worst, e / p);
    evalMedians.push(e);
    parseMedians.push(p);
  }
  out.evalMedianMs = median(evalMedians);
  out.parseMedianMs = median(parseMedians);
  out.ratio = evalMedians.reduce((a, b) => a + b, 0) / parseMedians.reduce((a, b) => a + b, 0);
  out.worstRatio = worst;
  out.minRatio = minEval.reduce((a, b) => a + b, 0) / minParse.reduce((a, b) => a + b, 0);
  return out;
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  benchEvaluate().then((r) => {
    if (!r.pages) {
      console.log('no pages found (shared/serp and /usr/share/doc absent)');
      return;
    }
    const names = Object.keys(r).filter((k) => k.startsWith('eval:')).map((k) => k.slice(5));
    const w = Math.max(...names.map((n) => n.length), 10);
    console.log(
      `${'page (100 KB)'.padEnd(w)}  ${'evaluate ms'.padStart(11)}  ${'bare parse ms'.padStart(13)}  ${'ratio'.padStart(6)}  ${'min ratio'.padStart(9)}`,
    );
    for (const n of names) {
      console.log(
        `${n.padEnd(w)}  ${r[`eval:${n}`].toFixed(2).padStart(11)}  ${r[`parse:${n}`].toFixed(2).padStart(13)}  ${r[`ratio:${n}`].toFixed(2).padStart(6)}  ${r[`minRatio:${n}`].toFixed(2).padStart(9)}`,
      );
    }
    console.log(
      `\n${r.pages} pages; median evaluate ${r.evalMedianMs.toFixed(2)} ms vs bare parse ${r.parseMedianMs.toFixed(2)} ms; ` +
        `overall ratio ${r.ratio.toFixed(2)} (worst page ${r.worstRatio.toFixed(2)}; of minimums ${r.minRatio.toFixed(2)}); ` +
        `first (cold) evaluation ${r.coldEvalMs.toFixed(1)} ms`,
    );
  });
}
