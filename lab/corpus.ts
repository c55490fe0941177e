/**
 * The corpus index: every page of the served sites, evaluated once with the engine's own evaluator (so the lab's
 * terms are exactly the crawler's terms: same text extraction, tokenizer, stemmer, stop words; a site's pages in its
 * own language), with its link graph mapped to page ids, PageRank over it, an inverted index for BM25, and each page's
 * title and first heading. Cached on disk, keyed by the pages' sizes and dates, the sites' link homes and languages,
 * and the engine's text/HTML/URL source, so a change to any of them rebuilds it.
 *
 * Stored compactly (DocWeb-L: 44,099 pages, 3.1 M links): term vectors, postings and links are flat typed arrays
 * (compressed sparse rows), the cache one binary file of them plus a JSON header.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeHtml, evaluatePage } from '../lib/engine';
import type { TermVector } from '../lib/engine';
import { type LocalWeb, STUB_MAX_BYTES } from './docweb/server';
import { pageRankCsr } from './metrics';
import { globToRegExp, listFiles, pagePaths, type SiteConfig } from './sites';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const FORMAT = 'lab-corpus/3';

/**
 * Pages with at least this many distinct outlinks to other corpus pages are hubs (tables of contents, indexes):
 * they "mention everything" and are left out of the static top-k rankings, like the hubs named in sites.json ...
 */
export const HUB_OUTDEGREE = 200;
/** ... and at least this many times the median out-degree of their site's pages. */
export const HUB_DEGREE_FACTOR = 3;

/** One page as the index is built from it. */
export interface CorpusDoc {
  id: string;
  title: string;
  /** Text of the page's first `<h1>` ('' when it has none). */
  heading: string;
  /** Tokens. */
  length: number;
  /** Term frequencies, in the evaluator's order. */
  terms: TermVector;
  /** Distinct corpus pages it links to (indices into the ids, ascending). */
  links: number[];
}

/** A growable Int32Array. */
class IntList {
  data = new Int32Array(1024);
  length = 0;
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  done(): Int32Array {
    return this.data.slice(0, this.length);
  }
}

/** The arrays an index is made of (what the disk cache holds). */
interface IndexArrays {
  ids: string[];
  titles: string[];
  headings: string[];
  /** Term dictionary; term vectors refer to terms by position. */
  terms: string[];
  length: Int32Array;
  /** Page i's terms are docTerms[docStart[i] .. docStart[i + 1]), with docCounts alongside. */
  docStart: Int32Array;
  docTerms: Int32Array;
  docCounts: Int32Array;
  /** Page i links to links[linkStart[i] .. linkStart[i + 1]). */
  linkStart: Int32Array;
  links: Int32Array;
}

/** Builds an index one page at a time, keeping only the compact arrays (not the pages' term objects). */
export class IndexBuilder {
  private readonly ids: string[] = [];
  private readonly titles: string[] = [];
  private readonly headings: string[] = [];
  private readonly terms: string[] = [];
  private readonly termId = new Map<string, number>();
  private readonly lengths = new IntList();
  private readonly docStart = new IntList();
  private readonly docTerms = new IntList();
  private readonly docCounts = new IntList();
  private readonly linkStart = new IntList();
  private readonly links = new IntList();

  constructor() {
    this.docStart.push(0);
    this.linkStart.push(0);
  }

  get size(): number {
    return this.ids.length;
  }

  add(d: CorpusDoc): void {
    this.ids.push(d.id);
    this.titles.push(d.title);
    this.headings.push(d.heading);
    this.lengths.push(d.length);
    for (const t in d.terms) {
      let k = this.termId.get(t);
      if (k === undefined) {
        k = this.terms.length;
        this.terms.push(t);
        this.termId.set(t, k);
      }
      this.docTerms.push(k);
      this.docCounts.push(d.terms[t]);
    }
    this.docStart.push(this.docTerms.length);
    for (const j of d.links) this.links.push(j);
    this.linkStart.push(this.links.length);
  }

  finish(sites: SiteConfig[], fromCache = false): CorpusIndex {
    return CorpusIndex.fromParts(
      {
        ids: this.ids,
        titles: this.titles,
        headings: this.headings,
        terms: this.terms,
        length: this.lengths.done(),
        docStart: this.docStart.done(),
        docTerms: this.docTerms.done(),
        docCounts: this.docCounts.done(),
        linkStart: this.linkStart.done(),
        links: this.links.done(),
      },
      sites,
      fromCache,
    );
  }
}

/** The corpus index; see the module comment. Build it with {@link loadCorpusIndex} or {@link CorpusIndex.fromDocs}. */
export class CorpusIndex {
  readonly ids: string[];
  readonly titles: string[];
  readonly headings: string[];
  /** Tokens per page. */
  readonly length: Int32Array;
  readonly terms: string[];
  readonly termId: Map<string, number>;
  /** Document frequency per term id. */
  readonly df: Int32Array;
  /** Hub pages (sites.json patterns, or out-degree >= HUB_OUTDEGREE and >= HUB_DEGREE_FACTOR x the site's median). */
  readonly hub: Uint8Array;
  readonly pagerank: Float64Array;
  readonly position: Map<string, number>;
  /** Whether the index was read from the disk cache. */
  readonly fromCache: boolean;
  private readonly a: IndexArrays;
  private postingsBuilt?: { start: Int32Array; docs: Int32Array; counts: Int32Array };

  private constructor(a: IndexArrays, sites: SiteConfig[], fromCache: boolean) {
    this.a = a;
    this.ids = a.ids;
    this.titles = a.titles;
    this.headings = a.headings;
    this.length = a.length;
    this.terms = a.terms;
    this.termId = new Map(a.terms.map((t, i) => [t, i]));
    this.fromCache = fromCache;
    this.position = new Map(a.ids.map((id, i) => [id, i]));
    const n = a.ids.length;
    this.df = new Int32Array(a.terms.length);
    for (let k = 0; k < a.docTerms.length; k++) this.df[a.docTerms[k]]++;
    const hubPatterns = new Map(sites.map((s) => [s.name, s.hubs.map(globToRegExp)]));
    const siteOf = (i: number) => a.ids[i].slice(0, a.ids[i].indexOf('/'));
    // A site whose every page carries a long sidebar (pandas' API pages link ~450 pages each) has no hubs by degree
    // at the fixed threshold: a hub is a page far above its site's typical out-degree.
    const degrees = new Map<string, number[]>();
    for (let i = 0; i < n; i++) {
      const s = siteOf(i);
      if (!degrees.has(s)) degrees.set(s, []);
      degrees.get(s)!.push(a.linkStart[i + 1] - a.linkStart[i]);
    }
    const threshold = new Map<string, number>();
    for (const [s, list] of degrees) {
      const sorted = list.sort((x, y) => x - y);
      threshold.set(s, Math.max(HUB_OUTDEGREE, HUB_DEGREE_FACTOR * sorted[Math.floor((sorted.length - 1) / 2)]));
    }
    this.hub = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const id = a.ids[i];
      const slash = id.indexOf('/');
      const path = id.slice(slash + 1);
      if (a.linkStart[i + 1] - a.linkStart[i] >= threshold.get(siteOf(i))!) this.hub[i] = 1;
      else if ((hubPatterns.get(id.slice(0, slash)) ?? []).some((re) => re.test(path))) this.hub[i] = 1;
    }
    this.pagerank = pageRankCsr(a.linkStart, a.links);
  }

  /** An index of the given pages. */
  static fromDocs(docs: CorpusDoc[], sites: SiteConfig[] = [], fromCache = false): CorpusIndex {
    const b = new IndexBuilder();
    for (const d of docs) b.add(d);
    return b.finish(sites, fromCache);
  }

  /** @internal */
  static fromParts(a: IndexArrays, sites: SiteConfig[], fromCache: boolean): CorpusIndex {
    return new CorpusIndex(a, sites, fromCache);
  }

  get size(): number {
    return this.ids.length;
  }

  get edges(): number {
    return this.a.links.length;
  }

  /** Page i's term frequencies as an object (terms in the evaluator's order). */
  tf(i: number): TermVector {
    const out: TermVector = {};
    const { docStart, docTerms, docCounts } = this.a;
    for (let k = docStart[i]; k < docStart[i + 1]; k++) out[this.terms[docTerms[k]]] = docCounts[k];
    return out;
  }

  /** Calls fn(term id, count) for each of page i's terms, in the evaluator's order. */
  forEachTerm(i: number, fn: (term: number, count: number) => void): void {
    const { docStart, docTerms, docCounts } = this.a;
    for (let k = docStart[i]; k < docStart[i + 1]; k++) fn(docTerms[k], docCounts[k]);
  }

  /** Pages page i links to (ascending indices). */
  outlinks(i: number): Int32Array {
    return this.a.links.subarray(this.a.linkStart[i], this.a.linkStart[i + 1]);
  }

  /** Pages linking to each page (ascending), built on demand. */
  inlinks(): Int32Array[] {
    const n = this.size;
    const count = new Int32Array(n + 1);
    for (const j of this.a.links) count[j + 1]++;
    for (let i = 0; i < n; i++) count[i + 1] += count[i];
    const all = new Int32Array(this.a.links.length);
    const fill = count.slice();
    for (let i = 0; i < n; i++) for (const j of this.outlinks(i)) all[fill[j]++] = i;
    return Array.from({ length: n }, (_, j) => all.subarray(count[j], count[j + 1]));
  }

  /** IDF ln(N / df) of a term; undefined for terms the corpus does not have. */
  idf(term: string): number | undefined {
    const k = this.termId.get(term);
    return k === undefined ? undefined : Math.log(this.size / this.df[k]);
  }

  /** The pages holding a term (ascending) and its count in each. */
  postings(term: string): { docs: Int32Array; counts: Int32Array } {
    const k = this.termId.get(term);
    if (k === undefined) return { docs: new Int32Array(0), counts: new Int32Array(0) };
    const p = this.buildPostings();
    return { docs: p.docs.subarray(p.start[k], p.start[k + 1]), counts: p.counts.subarray(p.start[k], p.start[k + 1]) };
  }

  private buildPostings(): { start: Int32Array; docs: Int32Array; counts: Int32Array } {
    if (this.postingsBuilt) return this.postingsBuilt;
    const { docStart, docTerms, docCounts } = this.a;
    const start = new Int32Array(this.terms.length + 1);
    for (let t = 0; t < this.terms.length; t++) start[t + 1] = start[t] + this.df[t];
    const fill = start.slice(0, this.terms.length);
    const docs = new Int32Array(docTerms.length);
    const counts = new Int32Array(docTerms.length);
    for (let i = 0; i < this.size; i++)
      for (let k = docStart[i]; k < docStart[i + 1]; k++) {
        const at = fill[docTerms[k]]++;
        docs[at] = i;
        counts[at] = docCounts[k];
      }
    this.postingsBuilt = { start, docs, counts };
    return this.postingsBuilt;
  }

  /** For the disk cache. */
  arrays(): IndexArrays {
    return this.a;
  }

  static fromArrays(a: IndexArrays, sites: SiteConfig[]): CorpusIndex {
    return new CorpusIndex(a, sites, true);
  }
}

/** What the index depends on: the pages, the link homes, languages and stub rule, and the engine source that turns bytes into terms and links. */
export function corpusFingerprint(sites: SiteConfig[], redirectStubs = false): string {
  const h = createHash('sha256').update(`${FORMAT} stubs=${redirectStubs}`);
  hashSiteFiles(h, sites);
  hashSources(h, [...ENGINE_SOURCES, SERVER_SOURCE]);
  return h.digest('hex').slice(0, 32);
}

const ENGINE_SOURCES = ['lib/engine/html', 'lib/engine/text', 'lib/engine/url'];
const SERVER_SOURCE = 'lab/docweb/server.ts';

function hashSiteFiles(h: ReturnType<typeof createHash>, sites: SiteConfig[]): void {
  for (const s of sites) {
    h.update(`\0site ${s.name} ${JSON.stringify(s.homes)} ${s.language ?? 'en'}`);
    for (const f of listFiles(s.dir)) {
      if (!/\.(html?|xhtml)(\.gz)?$/i.test(f)) continue;
      const st = statSync(join(s.dir, f));
      h.update(`\0${f} ${st.size} ${st.mtimeMs}`);
    }
  }
}

/** The pages as served: the files' names, sizes and dates, the sites' link homes and languages, the server's code. */
export function pagesFingerprint(sites: SiteConfig[], redirectStubs = false): string {
  const h = createHash('sha256').update(`${FORMAT} stubs=${redirectStubs}`);
  hashSiteFiles(h, sites);
  hashSources(h, [SERVER_SOURCE]);
  return h.digest('hex').slice(0, 32);
}

/** The engine's code that reads a page (text extraction, tokenizer, stemmers, links). */
export function engineFingerprint(): string {
  const h = createHash('sha256');
  hashSources(h, ENGINE_SOURCES);
  return h.digest('hex').slice(0, 32);
}

function hashSources(h: ReturnType<typeof createHash>, paths: string[]): void {
  for (const sub of paths) {
    const path = join(REPO_ROOT, sub);
    if (!existsSync(path)) continue;
    const files = statSync(path).isDirectory()
      ? readdirSync(path)
          .sort()
          .filter((f) => f.endsWith('.ts'))
          .map((f) => join(path, f))
      : [path];
    for (const f of files) h.update(`\0${f.slice(REPO_ROOT.length)}`).update(readFileSync(f));
  }
}

/** Every this many pages, one is evaluated again when the engine's code changed since the cache was written. */
export const RECHECK_EVERY = 50;

/**
 * Whether the engine as it is now reads the sampled pages (every {@link RECHECK_EVERY}th, each site included) exactly
 * as the index stores them: title, first heading, length, every term and count, every link. The first page that
 * differs is returned, else undefined.
 */
export function recheckSample(
  index: CorpusIndex,
  web: Pick<LocalWeb, 'render' | 'urlFor' | 'idFor'>,
  sites: SiteConfig[],
): string | undefined {
  const candidates = candidatePages(sites);
  const candidateIndex = new Map(candidates.map((c, i) => [c.id, i]));
  const sample = new Set<number>();
  const firstOfSite = new Map<string, number>();
  for (let i = 0; i < index.size; i++) {
    const site = index.ids[i].slice(0, index.ids[i].indexOf('/'));
    if (!firstOfSite.has(site)) firstOfSite.set(site, i);
    if (i % RECHECK_EVERY === 0) sample.add(i);
  }
  for (const i of firstOfSite.values()) sample.add(i);
  for (const i of [...sample].sort((a, b) => a - b)) {
    const id = index.ids[i];
    const c = candidateIndex.get(id);
    if (c === undefined) return `${id}: no longer a file of the corpus`;
    const [r] = evaluateCandidates(web, candidates, candidateIndex, c, c + 1);
    if (!r.page) return `${id}: answered ${r.status}`;
    if (r.title !== index.titles[i] || r.heading !== index.headings[i] || r.length !== index.length[i])
      return `${id}: title, heading or length differ`;
    const stored = index.tf(i);
    const keys = Object.keys(r.terms);
    if (keys.length !== Object.keys(stored).length || keys.some((t) => stored[t] !== r.terms[t])) return `${id}: terms differ`;
    const links = r.links
      .map((j) => index.position.get(candidates[j].id))
      .filter((j): j is number => j !== undefined)
      .sort((a, b) => a - b);
    const storedLinks = index.outlinks(i);
    if (links.length !== storedLinks.length || links.some((j, k) => j !== storedLinks[k])) return `${id}: links differ`;
  }
  return undefined;
}

export interface BuildOptions {
  /** Cache file; none: always build. */
  cacheFile?: string;
  /** Meta-refresh stubs are served as redirects (they are then not pages). */
  redirectStubs?: boolean;
  /** Worker threads evaluating pages when the index is built (default 0: this thread). */
  workers?: number;
  /** Build even when the cache is valid. */
  rebuild?: boolean;
  log?: (line: string) => void;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The text of the first `<h1>` of an HTML page: tags dropped, entities decoded, pilcrows and whitespace collapsed. */
export function firstHeading(html: string): string {
  const m = /<h1\b[^>]*>([\s\S]*?)<\/h1\s*>/i.exec(html);
  if (!m) return '';
  return m[1]
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, e: string) => {
      if (e[0] === '#') {
        const code = e[1] === 'x' || e[1] === 'X' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
        return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : ' ';
      }
      return ENTITIES[e.toLowerCase()] ?? whole;
    })
    .replace(/[¶#]\s*$/u, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 300);
}

/** A page to evaluate: its id and its site's language. */
export interface Candidate {
  id: string;
  language: string;
}

/** Every page file of the sites, in site order then path order (the index keeps this order, stubs left out). */
export function candidatePages(sites: SiteConfig[]): Candidate[] {
  const out: Candidate[] = [];
  for (const s of sites)
    for (const p of pagePaths(listFiles(s.dir))) out.push({ id: `${s.name}/${p}`, language: s.language ?? 'en' });
  return out;
}

/** What evaluating one candidate gave: not a page (a redirect stub, an error), or the page with links as candidate indices. */
export type EvaluatedCandidate =
  | { index: number; page: false; status: number }
  | { index: number; page: true; title: string; heading: string; length: number; terms: TermVector; links: number[] };

/**
 * Evaluates candidates [from, to) as `web` serves them, with the engine's evaluator in the site's language; links
 * are mapped to candidate indices (`candidateIndex`), so the caller can renumber them once it knows which candidates
 * are pages.
 */
export function evaluateCandidates(
  web: Pick<LocalWeb, 'render' | 'urlFor' | 'idFor'>,
  candidates: Candidate[],
  candidateIndex: Map<string, number>,
  from: number,
  to: number,
): EvaluatedCandidate[] {
  const out: EvaluatedCandidate[] = [];
  for (let i = from; i < to; i++) {
    const { id, language } = candidates[i];
    const slash = id.indexOf('/');
    const served = web.render(id.slice(0, slash), `/${id.slice(slash + 1)}`);
    if (served.status !== 200) {
      out.push({ index: i, page: false, status: served.status });
      continue;
    }
    const ev = evaluatePage({
      url: web.urlFor(id),
      body: served.body,
      contentType: served.contentType,
      topic: { keywords: '', ...(language !== 'en' ? { language } : {}) },
    });
    const links = new Set<number>();
    for (const l of ev.links) {
      const target = web.idFor(l.url);
      const j = target === undefined ? undefined : candidateIndex.get(target);
      if (j !== undefined && j !== i) links.add(j);
    }
    const heading = firstHeading(decodeHtml(served.body, served.contentType).text);
    out.push({ index: i, page: true, title: ev.title, heading, length: ev.length, terms: ev.terms, links: [...links] });
  }
  return out;
}

/**
 * Turns evaluated candidates, given in candidate order, into index pages: candidates that are not pages are dropped
 * and links renumbered to page indices (links to dropped candidates go). `pageIndex[c]` is candidate c's page index.
 */
function addInOrder(builder: IndexBuilder, candidates: Candidate[], pageIndex: Int32Array, results: EvaluatedCandidate[]): void {
  for (const r of results) {
    if (r.page !== pageIndex[r.index] >= 0)
      throw new Error(`corpus index: ${candidates[r.index].id} answered ${r.page ? 200 : r.status} on the second read`);
    if (!r.page) continue;
    const links = r.links
      .map((c) => pageIndex[c])
      .filter((j) => j >= 0)
      .sort((a, b) => a - b);
    builder.add({ id: candidates[r.index].id, title: r.title, heading: r.heading, length: r.length, terms: r.terms, links });
  }
}

/**
 * Which candidates are pages: a first pass that serves only the files small enough to be redirect stubs (they are
 * answered 301); larger files are pages (a file that then fails to serve stops the build with an error).
 */
function pageNumbers(
  web: Pick<LocalWeb, 'render'>,
  sites: SiteConfig[],
  candidates: Candidate[],
): { pageIndex: Int32Array; stubs: number } {
  const dirs = new Map(sites.map((s) => [s.name, s.dir]));
  const pageIndex = new Int32Array(candidates.length).fill(-1);
  let next = 0;
  let stubs = 0;
  candidates.forEach((c, i) => {
    const slash = c.id.indexOf('/');
    const site = c.id.slice(0, slash);
    const path = c.id.slice(slash + 1);
    let small = true;
    try {
      small = statSync(join(dirs.get(site)!, path)).size <= STUB_MAX_BYTES;
    } catch {
      // only x.html.gz exists: serve it to see
    }
    const status = small ? web.render(site, `/${path}`).status : 200;
    if (status === 200) pageIndex[i] = next++;
    else if (status === 301) stubs++;
  });
  return { pageIndex, stubs };
}

/** Candidates per block handed to a worker (small blocks keep the reorder buffer small). */
const BLOCK = 250;

/** Builds the index of the sites served by `web`, evaluating in `workers` worker threads (0: in this thread). */
async function buildIndex(
  web: LocalWeb,
  sites: SiteConfig[],
  redirectStubs: boolean,
  workers: number,
  log: (line: string) => void,
): Promise<CorpusIndex> {
  const started = Date.now();
  const candidates = candidatePages(sites);
  const candidateIndex = new Map(candidates.map((c, i) => [c.id, i]));
  const { pageIndex, stubs } = pageNumbers(web, sites, candidates);
  if (stubs) log(`corpus index: ${stubs} redirect stubs are not pages`);
  const builder = new IndexBuilder();
  const blocks = Math.ceil(candidates.length / BLOCK);
  const progress = (done: number) => {
    if (done % 8 === 0 || done === blocks)
      log(`corpus index: ${Math.min(done * BLOCK, candidates.length)}/${candidates.length} pages`);
  };
  if (workers === 0) {
    for (let b = 0; b < blocks; b++) {
      addInOrder(
        builder,
        candidates,
        pageIndex,
        evaluateCandidates(web, candidates, candidateIndex, b * BLOCK, Math.min((b + 1) * BLOCK, candidates.length)),
      );
      progress(b + 1);
    }
  } else {
    const { evaluateInWorkers } = await import('./workers');
    const pending = new Map<number, EvaluatedCandidate[]>();
    let nextBlock = 0;
    await evaluateInWorkers<Candidate, EvaluatedCandidate>(
      { sites, redirectStubs, candidates },
      blocks,
      BLOCK,
      workers,
      (block, results) => {
        pending.set(block, results);
        while (pending.has(nextBlock)) {
          addInOrder(builder, candidates, pageIndex, pending.get(nextBlock)!);
          pending.delete(nextBlock);
          nextBlock++;
          progress(nextBlock);
        }
      },
    );
  }
  log(`corpus index: ${builder.size} pages evaluated in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return builder.finish(sites);
}

/**
 * Builds (or reads from the cache) the corpus index of the sites served by `web`. A cache written for the same pages
 * by another version of the engine's page-reading code is kept when a sample of its pages (see {@link recheckSample})
 * reads the same now, and rebuilt otherwise: most engine changes do not change what the index stores, and a full
 * build of DocWeb-L takes minutes. `rebuild` skips the cache.
 */
export async function loadCorpusIndex(web: LocalWeb, sites: SiteConfig[], options: BuildOptions = {}): Promise<CorpusIndex> {
  const log = options.log ?? (() => {});
  const pages = pagesFingerprint(sites, options.redirectStubs);
  const engine = engineFingerprint();
  const fingerprint = corpusFingerprint(sites, options.redirectStubs);
  const stamp = { fingerprint, pages, engine };
  if (options.cacheFile && existsSync(options.cacheFile) && !options.rebuild) {
    try {
      const cached = readIndexFile(options.cacheFile);
      if (cached && cached.stamp.fingerprint === fingerprint) {
        // A cache from before the stamp had its parts: add them, so a later engine change can be rechecked.
        if (cached.stamp.pages !== pages) writeIndexFile(options.cacheFile, stamp, cached.arrays);
        return CorpusIndex.fromArrays(cached.arrays, sites);
      }
      // A cache written before the stamp had its parts (no `pages`) is rechecked the same way: the sample then stands
      // for the pages too (the corpus's files are pinned by sha256; a re-pin changes many pages).
      if (cached && (cached.stamp.pages === pages || cached.stamp.pages === undefined)) {
        const index = CorpusIndex.fromArrays(cached.arrays, sites);
        const started = Date.now();
        const difference = recheckSample(index, web, sites);
        const took = ((Date.now() - started) / 1000).toFixed(1);
        if (difference === undefined) {
          log(
            `corpus index: the engine's page-reading code changed; a sample of the pages reads the same (${took} s): cache kept`,
          );
          writeIndexFile(options.cacheFile, stamp, cached.arrays);
          return index;
        }
        log(`corpus index: the engine's page-reading code changed and ${difference} (${took} s): rebuilding`);
      }
    } catch {
      // unreadable cache: rebuild
    }
  }
  const index = await buildIndex(web, sites, !!options.redirectStubs, options.workers ?? 0, log);
  if (options.cacheFile) writeIndexFile(options.cacheFile, stamp, index.arrays());
  return index;
}

// ---------------------------------------------------------------------------------------------- disk cache
// File: 'LABIDX1\n', header length (uint32 LE), JSON header (format, fingerprint, ids, titles, headings, terms,
// array lengths), then the Int32Arrays in header order, little-endian, each 4-byte aligned.

const MAGIC = Buffer.from('LABIDX1\n');

function readFully(fd: number, target: Uint8Array, position: number): void {
  for (let done = 0; done < target.length; ) {
    const n = readSync(fd, target, done, target.length - done, position + done);
    if (n <= 0) throw new Error('corpus index cache: file ends early');
    done += n;
  }
}
const ARRAY_KEYS = ['length', 'docStart', 'docTerms', 'docCounts', 'linkStart', 'links'] as const;

/** What a cache file was built from: the whole fingerprint, and its parts (absent in older files). */
export interface IndexStamp {
  fingerprint: string;
  pages?: string;
  engine?: string;
}

export function writeIndexFile(file: string, stamp: IndexStamp, a: IndexArrays): void {
  mkdirSync(dirname(file), { recursive: true });
  const header = Buffer.from(
    JSON.stringify({
      format: FORMAT,
      ...stamp,
      ids: a.ids,
      titles: a.titles,
      headings: a.headings,
      terms: a.terms,
      arrays: ARRAY_KEYS.map((k) => a[k].length),
    }),
  );
  const pad = (4 - ((MAGIC.length + 4 + header.length) % 4)) % 4;
  const tmp = `${file}.tmp-${process.pid}`;
  const fd = openSync(tmp, 'w');
  try {
    const len = Buffer.alloc(4);
    len.writeUInt32LE(header.length + pad);
    writeSync(fd, MAGIC);
    writeSync(fd, len);
    writeSync(fd, header);
    writeSync(fd, Buffer.alloc(pad, 0x20));
    for (const k of ARRAY_KEYS) writeSync(fd, new Uint8Array(a[k].buffer, a[k].byteOffset, a[k].byteLength));
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

export function readIndexFile(file: string): { stamp: IndexStamp; arrays: IndexArrays } | undefined {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(MAGIC.length + 4);
    readFully(fd, head, 0);
    if (!head.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
    const headerLength = head.readUInt32LE(MAGIC.length);
    const headerBuf = Buffer.alloc(headerLength);
    readFully(fd, headerBuf, head.length);
    const h = JSON.parse(headerBuf.toString('utf8')) as IndexStamp & {
      format: string;
      ids: string[];
      titles: string[];
      headings: string[];
      terms: string[];
      arrays: number[];
    };
    if (h.format !== FORMAT) return undefined;
    let offset = head.length + headerLength;
    const arrays = {} as Record<(typeof ARRAY_KEYS)[number], Int32Array>;
    ARRAY_KEYS.forEach((k, i) => {
      const arr = new Int32Array(h.arrays[i]);
      readFully(fd, new Uint8Array(arr.buffer), offset);
      offset += arr.byteLength;
      arrays[k] = arr;
    });
    return {
      stamp: { fingerprint: h.fingerprint, pages: h.pages, engine: h.engine },
      arrays: { ids: h.ids, titles: h.titles, headings: h.headings, terms: h.terms, ...arrays },
    };
  } finally {
    closeSync(fd);
  }
}
