/**
 * Page-evaluation cost against the bare parse.
 *
 * For real HTML pages cut to 100 KB, in groups (the saved search-result pages in shared/serp; large HTML manuals
 * under /usr/share/doc; real documentation sites under .cache/docweb/sites, when the lab has downloaded them), it
 * times evaluatePage (decode, parse, visible text, tokenize + stem, score, snippet, link extraction and
 * canonicalization) and, side by side, decoding the same bytes and running htmlparser2's Parser with no-op callbacks.
 * Medians over many interleaved repetitions, and ratios of minimums (see below); the target is evaluation < 2x the
 * bare parse.
 *
 * With `--baseline DIR` (a checkout of another commit, e.g. `git worktree add --detach /tmp/base main` with a
 * node_modules link), that tree's evaluatePage is timed too, interleaved with this one on the same pages, and the
 * ratio of this evaluation to that one is printed (sums of medians and of minimums).
 *
 * Run: npx tsx bench/evaluate.ts [--baseline DIR]       (REPS=n for more repetitions; FEEDBACK=1: topics carrying
 * ten judgements' feedback, see withJudgements)
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { Parser } from 'htmlparser2';
import { evaluatePage, termProfile, withFeedback } from '../lib/engine';
import type { EvaluationInput, PageEvaluation, Topic } from '../lib/engine';
import { median } from './stats';

type EvaluateFn = (input: EvaluationInput) => PageEvaluation;

const PAGE_BYTES = 100 * 1024;
const REPS = Math.max(5, Number(process.env.REPS) || 40);
const WARMUP = 5;
const MAX_DOC_PAGES = 8;
/** Pages taken per documentation site under .cache/docweb/sites. */
const MAX_DOCWEB_PAGES = 4;

interface BenchPage {
  name: string;
  /** 'serp', 'usr-share-doc' or 'docweb/<site>'. */
  group: string;
  body: Uint8Array;
  topic: Topic;
}

/** Up to `max` HTML files over 60 KB under `root` (sorted walk, bounded). */
function largeHtmlFiles(root: string, max: number): string[] {
  const found: string[] = [];
  if (!existsSync(root)) return found;
  const stack = [root];
  let visited = 0;
  while (stack.length && found.length < 200 && visited < 20_000) {
    const dir = stack.pop()!;
    let entries: string[];
    try {
      entries = readdirSync(dir).sort();
    } catch {
      continue;
    }
    for (const e of entries) {
      visited++;
      const p = join(dir, e);
      let st: ReturnType<typeof statSync>;
      try {
        st = statSync(p);
      } catch {
        continue;
      }
      if (st.isDirectory()) stack.push(p);
      else if (e.endsWith('.html') && st.size > 60 * 1024) found.push(p);
    }
  }
  return found.sort().slice(0, max);
}

/**
 * FEEDBACK=1: every page's topic carries the feedback of ten judgements, five up and five down, the term
 * profiles of ten of the bench's pages: the heaviest topic vector a judged crawl scores with (up to FEEDBACK_TERMS
 * more terms). A baseline from before feedback existed ignores them, so --baseline gives the whole cost.
 */
function withJudgements(pages: BenchPage[]): void {
  const judged = pages.slice(0, 10).map((p, i) => ({
    value: (i % 2 === 0 ? 1 : -1) as 1 | -1,
    terms: termProfile(evaluatePage({ url: 'https://example.com/j', body: p.body, topic: p.topic }).terms),
  }));
  for (const p of pages) p.topic = withFeedback(p.topic, judged);
}

/** Real documentation sites (Python, PostgreSQL, Django, git, SQLite ...) the lab downloads into .cache/docweb. */
function findDocwebPages(): { site: string; file: string }[] {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const sites = join(here, '..', '.cache', 'docweb', 'sites');
  if (!existsSync(sites)) return [];
  const out: { site: string; file: string }[] = [];
  for (const site of readdirSync(sites).sort()) {
    for (const file of largeHtmlFiles(join(sites, site), MAX_DOCWEB_PAGES)) out.push({ site, file });
  }
  return out;
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
      let st: ReturnType<typeof statSync>;
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
  if (name.startsWith('docweb/python')) return { keywords: 'python function module' };
  if (name.startsWith('docweb/postgresql') || name.startsWith('docweb/sqlite')) return { keywords: 'sql query index' };
  if (name.includes('matrix')) return { keywords: 'matrix movie' };
  if (name.includes('javascript')) return { keywords: 'javascript tutorial' };
  if (name.includes('nodejs') || name.includes('process') || name.includes('async')) return { keywords: 'node process async' };
  return { keywords: 'documentation manual reference' };
}

/** Loads the benchmark pages (100 KB each). */
export function loadBenchPages(): BenchPage[] {
  const pages: BenchPage[] = [];
  const add = (file: string, name: string, group: string) => {
    const bytes = readFileSync(file);
    const body = new Uint8Array(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, PAGE_BYTES));
    pages.push({ name, group, body: body.slice(), topic: topicFor(name) });
  };
  const serp = findSerpDir();
  if (serp)
    for (const f of readdirSync(serp)
      .filter((f) => f.endsWith('.html'))
      .sort())
      add(join(serp, f), f, 'serp');
  for (const file of findDocPages()) add(file, file.slice('/usr/share/doc/'.length), 'usr-share-doc');
  for (const { site, file } of findDocwebPages()) add(file, `docweb/${site}/${basename(file)}`, `docweb/${site}`);
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
 * `ratio:<name>`, `minRatio:<name>` (fastest evaluation / fastest parse); per group (`serp`, `usr-share-doc`,
 * `docweb/<site>`) `groupEval:<g>` and `groupParse:<g>` (medians of the per-page medians), `groupRatio:<g>` (sum of
 * evaluation medians / sum of parse medians) and `groupMinRatio:<g>` (same with minimums); overall `evalMedianMs`,
 * `parseMedianMs`, `ratio`, `minRatio`, `worstRatio`, `coldEvalMs` (first evaluation, empty stem cache), `pages`.
 */
export async function benchEvaluate(baseline?: EvaluateFn): Promise<Record<string, number>> {
  const pages = loadBenchPages();
  if (process.env.FEEDBACK) withJudgements(pages);
  const out: Record<string, number> = { pages: pages.length };
  if (pages.length === 0) return out;
  const url = 'https://example.com/page';

  const t0 = performance.now();
  evaluatePage({ url, body: pages[0].body, contentType: 'text/html', topic: pages[0].topic });
  out.coldEvalMs = performance.now() - t0;

  interface PageFigures {
    group: string;
    evalMedian: number;
    parseMedian: number;
    evalMin: number;
    parseMin: number;
    baseMedian: number;
    baseMin: number;
  }
  const figures: PageFigures[] = [];
  for (const page of pages) {
    const input = { url, body: page.body, contentType: 'text/html; charset=utf-8', topic: page.topic };
    for (let i = 0; i < WARMUP; i++) {
      evaluatePage(input);
      baseline?.(input);
      bareParse(page.body);
    }
    const ev: number[] = [];
    const pa: number[] = [];
    const ba: number[] = [];
    for (let i = 0; i < REPS; i++) {
      // Interleaved so both see the same machine noise; the order alternates so neither always runs on a cache the
      // other has just warmed.
      const parseFirst = i % 2 === 0;
      let t = 0;
      if (parseFirst) {
        t = performance.now();
        bareParse(page.body);
        pa.push(performance.now() - t);
      }
      if (baseline && !parseFirst) {
        t = performance.now();
        baseline(input);
        ba.push(performance.now() - t);
      }
      t = performance.now();
      evaluatePage(input);
      ev.push(performance.now() - t);
      if (baseline && parseFirst) {
        t = performance.now();
        baseline(input);
        ba.push(performance.now() - t);
      }
      if (!parseFirst) {
        t = performance.now();
        bareParse(page.body);
        pa.push(performance.now() - t);
      }
    }
    const f: PageFigures = {
      group: page.group,
      evalMedian: median(ev),
      parseMedian: median(pa),
      // Minimums too: on a shared, loaded machine a 2 ms call is preempted far more often than a 1 ms one, which
      // inflates wall-clock medians of the longer call; the fastest run shows the cost of the work itself.
      evalMin: Math.min(...ev),
      parseMin: Math.min(...pa),
      baseMedian: ba.length ? median(ba) : Number.NaN,
      baseMin: ba.length ? Math.min(...ba) : Number.NaN,
    };
    figures.push(f);
    out[`eval:${page.name}`] = f.evalMedian;
    out[`parse:${page.name}`] = f.parseMedian;
    out[`ratio:${page.name}`] = f.evalMedian / f.parseMedian;
    out[`minRatio:${page.name}`] = f.evalMin / f.parseMin;
    if (baseline) out[`vsBase:${page.name}`] = f.evalMedian / f.baseMedian;
  }
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const summarize = (fs: PageFigures[], key: string) => {
    out[`groupEval:${key}`] = median(fs.map((f) => f.evalMedian));
    out[`groupParse:${key}`] = median(fs.map((f) => f.parseMedian));
    out[`groupRatio:${key}`] = sum(fs.map((f) => f.evalMedian)) / sum(fs.map((f) => f.parseMedian));
    out[`groupMinRatio:${key}`] = sum(fs.map((f) => f.evalMin)) / sum(fs.map((f) => f.parseMin));
    if (baseline) {
      out[`groupVsBase:${key}`] = sum(fs.map((f) => f.evalMedian)) / sum(fs.map((f) => f.baseMedian));
      out[`groupMinVsBase:${key}`] = sum(fs.map((f) => f.evalMin)) / sum(fs.map((f) => f.baseMin));
    }
  };
  for (const group of [...new Set(figures.map((f) => f.group))]) {
    summarize(
      figures.filter((f) => f.group === group),
      group,
    );
  }
  // All documentation sites together, when there are several.
  const docweb = figures.filter((f) => f.group.startsWith('docweb/'));
  if (docweb.length > 0) summarize(docweb, 'docweb (all sites)');
  out.evalMedianMs = median(figures.map((f) => f.evalMedian));
  out.parseMedianMs = median(figures.map((f) => f.parseMedian));
  out.ratio = sum(figures.map((f) => f.evalMedian)) / sum(figures.map((f) => f.parseMedian));
  out.worstRatio = Math.max(...figures.map((f) => f.evalMedian / f.parseMedian));
  out.minRatio = sum(figures.map((f) => f.evalMin)) / sum(figures.map((f) => f.parseMin));
  if (baseline) {
    out.vsBase = sum(figures.map((f) => f.evalMedian)) / sum(figures.map((f) => f.baseMedian));
    out.minVsBase = sum(figures.map((f) => f.evalMin)) / sum(figures.map((f) => f.baseMin));
    out.worstVsBase = Math.max(...figures.map((f) => f.evalMedian / f.baseMedian));
  }
  return out;
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
/** The evaluatePage of another checkout (`--baseline DIR`), to time against this one. */
async function loadBaseline(dir: string): Promise<EvaluateFn> {
  const entry = join(dir, 'lib', 'engine', 'index.ts');
  if (!existsSync(entry)) throw new Error(`--baseline ${dir}: no lib/engine/index.ts there`);
  const mod = (await import(entry)) as { evaluatePage?: EvaluateFn };
  if (typeof mod.evaluatePage !== 'function') throw new Error(`--baseline ${dir}: lib/engine exports no evaluatePage`);
  return mod.evaluatePage;
}

if (isMain) {
  const at = process.argv.indexOf('--baseline');
  const baselineDir = at >= 0 ? process.argv[at + 1] : undefined;
  if (at >= 0 && !baselineDir) throw new Error('--baseline needs a directory');
  (baselineDir ? loadBaseline(baselineDir) : Promise.resolve(undefined)).then(benchEvaluate).then((r) => {
    if (!r.pages) {
      console.log('no pages found (shared/serp, /usr/share/doc and .cache/docweb absent)');
      return;
    }
    const names = Object.keys(r)
      .filter((k) => k.startsWith('eval:'))
      .map((k) => k.slice(5));
    const w = Math.max(...names.map((n) => n.length), 24);
    const row = (label: string, e: number, p: number, ratio: number, minRatio: number) =>
      console.log(
        `${label.padEnd(w)}  ${e.toFixed(2).padStart(11)}  ${p.toFixed(2).padStart(13)}  ${ratio.toFixed(2).padStart(6)}  ${minRatio.toFixed(2).padStart(9)}`,
      );
    const header = (first: string) =>
      console.log(
        `${first.padEnd(w)}  ${'evaluate ms'.padStart(11)}  ${'bare parse ms'.padStart(13)}  ${'ratio'.padStart(6)}  ${'min ratio'.padStart(9)}`,
      );
    header('page (100 KB)');
    for (const n of names) row(n, r[`eval:${n}`], r[`parse:${n}`], r[`ratio:${n}`], r[`minRatio:${n}`]);
    console.log('');
    header('group (median ms per page)');
    for (const g of Object.keys(r)
      .filter((k) => k.startsWith('groupEval:'))
      .map((k) => k.slice(10))) {
      row(g, r[`groupEval:${g}`], r[`groupParse:${g}`], r[`groupRatio:${g}`], r[`groupMinRatio:${g}`]);
    }
    console.log(
      `\n${r.pages} pages, ${REPS} interleaved repetitions each; median evaluate ${r.evalMedianMs.toFixed(2)} ms vs bare parse ` +
        `${r.parseMedianMs.toFixed(2)} ms; overall ratio ${r.ratio.toFixed(2)} (worst page ${r.worstRatio.toFixed(2)}; ` +
        `of minimums ${r.minRatio.toFixed(2)}); first (cold) evaluation ${r.coldEvalMs.toFixed(1)} ms\n` +
        `ratio = sum of evaluation medians / sum of bare-parse medians; min ratio = the same with each page's fastest run.`,
    );
    if (r.vsBase !== undefined) {
      console.log(`\nagainst --baseline ${baselineDir} (this evaluation / that one, same pages, interleaved):`);
      for (const g of Object.keys(r)
        .filter((k) => k.startsWith('groupVsBase:'))
        .map((k) => k.slice(12))) {
        console.log(`  ${g.padEnd(w)}  median ${r[`groupVsBase:${g}`].toFixed(3)}  min ${r[`groupMinVsBase:${g}`].toFixed(3)}`);
      }
      console.log(
        `  overall: ${r.vsBase.toFixed(3)} (sum of medians), ${r.minVsBase.toFixed(3)} (sum of minimums); worst page ${r.worstVsBase.toFixed(3)}`,
      );
    }
  });
}
