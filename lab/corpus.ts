/**
 * The corpus index: every page of the served sites, evaluated once with the engine's own evaluator (so the lab's
 * terms are exactly the crawler's terms: same text extraction, tokenizer, stemmer, stop words), with its link graph
 * mapped to page ids and PageRank over it. Cached on disk, keyed by the pages' sizes and dates, the sites' link
 * homes and the engine's text/HTML/URL source, so a change to any of them rebuilds it.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { evaluatePage } from '../lib/engine';
import type { TermVector } from '../lib/engine';
import type { LocalWeb } from './docweb/server';
import { documentFrequencies, idfWeights, pageRank } from './metrics';
import { globToRegExp, listFiles, pagePaths, type SiteConfig } from './sites';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const FORMAT = 'lab-corpus/2';

/**
 * Pages with at least this many distinct outlinks to other corpus pages are hubs (tables of contents, indexes):
 * they "mention everything" and are left out of the static top-k rankings, like the hubs named in sites.json.
 */
export const HUB_OUTDEGREE = 200;

export interface CorpusIndex {
  ids: string[];
  titles: string[];
  /** Term frequencies of each page (engine terms: stemmed, stop words removed). */
  tf: TermVector[];
  /** Tokens per page. */
  length: number[];
  /** Distinct corpus pages each page links to (indices into ids). */
  outlinks: number[][];
  /** Hub pages (sites.json patterns or out-degree >= HUB_OUTDEGREE). */
  hub: boolean[];
  pagerank: number[];
  df: Map<string, number>;
  idf: Map<string, number>;
  position: Map<string, number>;
  /** Whether the index was read from the disk cache. */
  fromCache: boolean;
}

interface StoredDoc {
  id: string;
  title: string;
  length: number;
  terms: TermVector;
  links: number[];
}

interface Stored {
  format: string;
  fingerprint: string;
  docs: StoredDoc[];
}

/** What the index depends on: the pages, the link homes and the engine source that turns bytes into terms and links. */
export function corpusFingerprint(sites: SiteConfig[]): string {
  const h = createHash('sha256').update(FORMAT);
  for (const s of sites) {
    h.update(`\0site ${s.name} ${JSON.stringify(s.homes)}`);
    for (const f of listFiles(s.dir)) {
      if (!/\.(html?|xhtml)(\.gz)?$/i.test(f)) continue;
      const st = statSync(join(s.dir, f));
      h.update(`\0${f} ${st.size} ${st.mtimeMs}`);
    }
  }
  for (const sub of ['lib/engine/html', 'lib/engine/text', 'lib/engine/url']) {
    const dir = join(REPO_ROOT, sub);
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).sort()) if (f.endsWith('.ts')) h.update(`\0${sub}/${f}`).update(readFileSync(join(dir, f)));
  }
  return h.digest('hex').slice(0, 32);
}

export interface BuildOptions {
  /** Cache file; none: always build. */
  cacheFile?: string;
  log?: (line: string) => void;
}

/** Builds (or reads from the cache) the corpus index of the sites served by `web`. */
export async function loadCorpusIndex(web: LocalWeb, sites: SiteConfig[], options: BuildOptions = {}): Promise<CorpusIndex> {
  const log = options.log ?? (() => {});
  const fingerprint = corpusFingerprint(sites);
  if (options.cacheFile && existsSync(options.cacheFile)) {
    try {
      const stored = JSON.parse(readFileSync(options.cacheFile, 'utf8')) as Stored;
      if (stored.format === FORMAT && stored.fingerprint === fingerprint) return finish(stored.docs, sites, true);
    } catch {
      // unreadable cache: rebuild
    }
  }
  const started = Date.now();
  const ids: string[] = [];
  for (const s of sites) for (const p of pagePaths(listFiles(s.dir))) ids.push(`${s.name}/${p}`);
  const position = new Map(ids.map((id, i) => [id, i]));
  const docs: StoredDoc[] = [];
  const topic = { keywords: '' };
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    const slash = id.indexOf('/');
    const served = await web.render(id.slice(0, slash), `/${id.slice(slash + 1)}`);
    const url = web.urlFor(id);
    if (served.status !== 200) {
      docs.push({ id, title: '', length: 0, terms: {}, links: [] });
      continue;
    }
    const ev = evaluatePage({ url, body: served.body, contentType: served.contentType, topic });
    const links = new Set<number>();
    for (const l of ev.links) {
      const target = web.idFor(l.url);
      const j = target === undefined ? undefined : position.get(target);
      if (j !== undefined && j !== i) links.add(j);
    }
    docs.push({ id, title: ev.title, length: ev.length, terms: { ...ev.terms }, links: [...links].sort((a, b) => a - b) });
    if ((i + 1) % 500 === 0) log(`corpus index: ${i + 1}/${ids.length} pages`);
  }
  log(`corpus index: ${ids.length} pages evaluated in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (options.cacheFile) {
    mkdirSync(dirname(options.cacheFile), { recursive: true });
    writeFileSync(options.cacheFile, JSON.stringify({ format: FORMAT, fingerprint, docs } satisfies Stored));
  }
  return finish(docs, sites, false);
}

function finish(docs: StoredDoc[], sites: SiteConfig[], fromCache: boolean): CorpusIndex {
  const ids = docs.map((d) => d.id);
  const tf = docs.map((d) => d.terms);
  const outlinks = docs.map((d) => d.links);
  const hubPatterns = new Map(sites.map((s) => [s.name, s.hubs.map(globToRegExp)]));
  const hub = docs.map((d) => {
    if (d.links.length >= HUB_OUTDEGREE) return true;
    const slash = d.id.indexOf('/');
    const path = d.id.slice(slash + 1);
    return (hubPatterns.get(d.id.slice(0, slash)) ?? []).some((re) => re.test(path));
  });
  const df = documentFrequencies(docs.map((d) => ({ tf: d.terms })));
  return {
    ids,
    titles: docs.map((d) => d.title),
    tf,
    length: docs.map((d) => d.length),
    outlinks,
    hub,
    pagerank: pageRank(outlinks),
    df,
    idf: idfWeights(df, docs.length),
    position: new Map(ids.map((id, i) => [id, i])),
    fromCache,
  };
}
