/**
 * A deterministic generator of a small topical web, for crawler tests, the benchmark and the offline demo.
 *
 * Shape (defaults: 6 topics x 120 pages on 8 sites, about 820 pages):
 * - every site has a front page `/`, a news index `/news/` with news articles, `/about.html` and `/contact.html`;
 *   those general pages are off topic and linked from almost every page (site navigation), as on the real web;
 * - a portal page (`/portal.html` on site0) links to every site's front page;
 * - each topic's pages are spread over a primary site (hubs live there), a secondary site and a few others, so
 *   politeness per origin matters;
 * - each topic is split into clusters; pages link mostly within their cluster (so on-topic pages are several
 *   clicks apart), about 80% of content links stay on topic, the rest are detours to news and other topics;
 * - one hub page per main cluster links to most of it;
 * - the last cluster of each topic is an island: no page of the topic outside it links into it; only a few
 *   bridge pages (news articles and a page of another topic) do, so a crawl must pass off-topic pages to find it;
 * - page text draws on the topic vocabulary with a per-page strength (some pages only weakly on topic) plus
 *   general words; anchors come from the target's title words, sometimes generic ("click here");
 * - some pages are dead ends (no links at all), a few links are deliberately broken (404), a few pages carry a
 *   `<base href>`, fragments, relative and absolute links, and one site hides `/private/` behind robots.txt.
 *
 * Pure TypeScript (no Node APIs): a browser build can use it too. Same seed, same web.
 */
import { FUNCTION_WORDS, GENERAL_WORDS, GENERIC_ANCHORS, TOPIC_CATALOG } from './vocab';
import { escapeHtml } from '../../lib/app/rules/text-safety';

/** A topic of the test web. */
export interface TestTopic {
  id: string;
  name: string;
  /** 2-4 words a user would type. */
  keywords: string;
  vocabulary: string[];
}

export type PageKind = 'portal' | 'front' | 'hub' | 'article' | 'news-index' | 'news' | 'about' | 'contact' | 'private';

/** Text, or a reference to `page.links[link]` rendered as an `<a>` with `page.anchors[link]`. */
export type Segment = string | { link: number };

/** A block of a page body. `nav` and `ul` render each link as its own item. */
export interface Block {
  tag: 'nav' | 'h2' | 'p' | 'ul';
  parts: Segment[];
}

/** A link to a hostile route of the page's own site, rendered only when the server runs with `hostile: true`. */
export interface HostileLink {
  path: string;
  anchor: string;
}

export interface TestPage {
  /** `site + path`, e.g. 'site3/astronomy/saturn-rings-12.html'. Keys of `TestWeb.pages` and of `links`. */
  key: string;
  /** Host label, e.g. 'site3'. */
  site: string;
  /** URL path, starting with '/'. */
  path: string;
  kind: PageKind;
  /** Topic id, or null for general (off-topic) pages. */
  topic: string | null;
  /** Share of topic words in the text (0 for general pages). */
  strength: number;
  /** Cluster within the topic (null for general pages); the last cluster is the island. */
  cluster: number | null;
  /** In its topic's island cluster (reachable only through bridge pages). */
  island: boolean;
  /** Links into another topic's island. */
  bridge: boolean;
  /** Has no outlinks at all. */
  deadEnd: boolean;
  title: string;
  /** Link targets (page keys; a key in `TestWeb.missing` is a deliberate 404), in document order. */
  links: string[];
  /** Anchor text of each link (parallel to `links`). */
  anchors: string[];
  blocks: Block[];
  hostileLinks: HostileLink[];
  /** Rendered with `<base href="origin/">` (same-site links then resolve against the site root). */
  baseHref: boolean;
  /** Rendered with `<meta name="robots" content="noindex">`. */
  noindex: boolean;
  /** HTTP Last-Modified value. */
  lastModified: string;
}

export interface TestWeb {
  seed: number;
  /** Host labels: 'site0', 'site1', ... */
  sites: string[];
  topics: TestTopic[];
  /** Every servable page, by key (`site + path`). The robots-protected page is not here (see `privatePage`). */
  pages: Map<string, TestPage>;
  /** Key of the portal page. */
  portal: string;
  /** Site -> key of its front page. */
  fronts: Record<string, string>;
  /** Topic id -> keys of its hub pages. */
  hubs: Record<string, string[]>;
  /** Topic id -> keys of its island pages. */
  islands: Record<string, string[]>;
  /** Keys of pages that link into another topic's island. */
  bridges: string[];
  /** Keys that are linked but deliberately not served (404). */
  missing: Set<string>;
  /** The site whose robots.txt disallows /private/. */
  privateSite: string;
  /** The disallowed page (linked from a few pages; a polite crawler never fetches it). */
  privatePage: TestPage;
  /** Topic id -> the site hosting its hubs and its links to hostile routes. */
  primarySite: Record<string, string>;
}

export interface GenerateOptions {
  seed?: number;
  /** Number of topics (1..8). Default 6. */
  topics?: number;
  /** Pages per topic (>= 8). Default 120. */
  pagesPerTopic?: number;
  /** Number of sites (>= 2). Default 8. */
  sites?: number;
  /** News articles per site. Default 6. */
  newsPerSite?: number;
}

/** The hostile routes every site serves (see harness/testweb/server.ts); pages link to them when hostile mode is on. */
export const HOSTILE_PATHS: readonly string[] = [
  '/hostile/big',
  '/hostile/binary',
  '/hostile/notype',
  '/hostile/wrongtype',
  '/hostile/cp1252',
  '/hostile/sjis',
  '/hostile/loop-a',
  '/hostile/hang',
  '/hostile/trickle',
  '/hostile/404',
  '/hostile/500',
  '/hostile/429',
  '/hostile/links20k',
  '/hostile/js-links',
  '/hostile/calendar/2026/11',
  '/hostile/malformed',
  '/hostile/internal',
];

export const PRIVATE_PATH = '/private/secret.html';

// ---------------------------------------------------------------------------------------------------------------
// PRNG

/** mulberry32: small, fast, good enough for test data; deterministic across engines (the engine's own Rng, sfc32, is for crawls; changing this one would change every generated web). */
export class Mulberry32 {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  /** Integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items;
  }
}

/** Mixes two integers into a seed (so each page's text has its own stream, independent of generation order). */
export function mixSeed(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x7f4a7c15, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Text

/** Samples a vocabulary with Zipf weights (head words, i.e. the keywords, most often). */
class ZipfSampler {
  private readonly cdf: number[] = [];
  constructor(
    readonly words: readonly string[],
    exponent = 0.9,
  ) {
    let sum = 0;
    for (let i = 0; i < words.length; i++) {
      sum += 1 / (i + 1) ** exponent;
      this.cdf.push(sum);
    }
    for (let i = 0; i < this.cdf.length; i++) this.cdf[i] /= sum;
  }
  sample(rng: Mulberry32): string {
    const r = rng.next();
    let lo = 0;
    let hi = this.cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cdf[mid] < r) lo = mid + 1;
      else hi = mid;
    }
    return this.words[lo];
  }
}

const GENERAL = new ZipfSampler(GENERAL_WORDS, 0.5);
const samplers = new Map<string, ZipfSampler>();
function samplerFor(topic: TestTopic): ZipfSampler {
  let s = samplers.get(topic.id);
  if (!s) samplers.set(topic.id, (s = new ZipfSampler(topic.vocabulary)));
  return s;
}

/** Words of one sentence: topic words with probability `strength`, general words otherwise, glued by function words. */
function sentenceWords(rng: Mulberry32, topic: TestTopic | null, strength: number, length: number): string[] {
  const words: string[] = [];
  while (words.length < length) {
    if (words.length > 0 && rng.chance(0.35)) words.push(rng.pick(FUNCTION_WORDS));
    const onTopic = topic !== null && rng.chance(strength);
    words.push(onTopic ? samplerFor(topic!).sample(rng) : GENERAL.sample(rng));
  }
  return words;
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** One sentence of running text, capitalized and ended with a full stop. */
export function sentence(rng: Mulberry32, topic: TestTopic | null, strength: number, length = rng.range(8, 16)): string {
  const words = sentenceWords(rng, topic, strength, length);
  words[0] = capitalize(words[0]);
  return `${words.join(' ')}.`;
}

/** A paragraph of `sentences` sentences. */
export function paragraph(rng: Mulberry32, topic: TestTopic | null, strength: number, sentences = rng.range(3, 5)): string {
  const out: string[] = [];
  for (let i = 0; i < sentences; i++) out.push(sentence(rng, topic, strength));
  return out.join(' ');
}

function distinctTopicWords(rng: Mulberry32, topic: TestTopic, n: number): string[] {
  const sampler = samplerFor(topic);
  const out: string[] = [];
  for (let guard = 0; out.length < n && guard < 100; guard++) {
    const w = sampler.sample(rng);
    if (!out.includes(w)) out.push(w);
  }
  return out;
}

function distinctGeneralWords(rng: Mulberry32, n: number): string[] {
  const out: string[] = [];
  for (let guard = 0; out.length < n && guard < 100; guard++) {
    const w = GENERAL.sample(rng);
    if (!out.includes(w)) out.push(w);
  }
  return out;
}

function articleTitle(rng: Mulberry32, topic: TestTopic, strength: number): string {
  if (strength < 0.14) {
    // Weakly on topic: a general story that touches the topic.
    const [g1, g2] = distinctGeneralWords(rng, 2).map(capitalize);
    const [a] = distinctTopicWords(rng, topic, 1).map(capitalize);
    return rng.pick([`${g1} ${g2} and ${a}`, `${g1} Notes: ${a} and ${g2}`, `${a} at the ${g1} ${g2}`]);
  }
  const [a, b, c] = distinctTopicWords(rng, topic, 3).map(capitalize);
  return rng.pick([
    `${a} and ${b}`,
    `A Beginner's Guide to ${a} ${b}`,
    `Notes on ${a}, ${b} and ${c}`,
    `Why ${a} Matters for ${b}`,
    `${a} ${b}: Tips and Mistakes`,
    `The ${a} of ${b}`,
    `${a}, ${b} and ${c} Explained`,
    `Ten Questions about ${a} ${b}`,
  ]);
}

function newsTitle(rng: Mulberry32): string {
  const [a, b, c, d] = distinctGeneralWords(rng, 4).map(capitalize);
  return rng.pick([`${a} ${b}: ${c} ${d} Announced`, `${a} and ${b} in the ${c} Report`, `${a} ${b} Update: ${c} ${d}`]);
}

const TITLE_FILLER = new Set(['a', 'and', 'the', 'of', 'to', 'for', 'on', 'in', 'at', 'about', "beginner's", 'why', 'ten']);

function slugOf(title: string): string {
  const words = title
    .toLowerCase()
    .replace(/[^a-z0-9' ]+/g, ' ')
    .split(/\s+/)
    .filter((w) => w && !TITLE_FILLER.has(w));
  return words.slice(0, 5).join('-').replace(/'/g, '');
}

/** An anchor for a link to a page with this title: words of the title (sometimes all of it), or a generic phrase. */
function anchorFor(rng: Mulberry32, title: string, genericShare = 0.15): string {
  if (rng.chance(genericShare)) return rng.pick(GENERIC_ANCHORS);
  if (rng.chance(0.35)) return title;
  const words = title
    .replace(/[:,]/g, '')
    .split(/\s+/)
    .filter((w) => !TITLE_FILLER.has(w.toLowerCase()));
  if (words.length <= 2) return title;
  const len = Math.min(words.length, rng.range(2, 3));
  const start = rng.int(words.length - len + 1);
  return words.slice(start, start + len).join(' ');
}

function httpDate(rng: Mulberry32): string {
  const from = Date.UTC(2020, 0, 1);
  const to = Date.UTC(2026, 5, 1);
  return new Date(from + Math.floor(rng.next() * (to - from))).toUTCString();
}

// ---------------------------------------------------------------------------------------------------------------
// Structure

type Place = 'nav' | 'text' | 'list';
interface PendingLink {
  to: string;
  anchor: string;
  place: Place;
}

/** Splits a page key into site and path. */
export function splitKey(key: string): { site: string; path: string } {
  const slash = key.indexOf('/');
  if (slash <= 0) throw new Error(`not a page key: ${key}`);
  return { site: key.slice(0, slash), path: key.slice(slash) };
}

/**
 * Generates the test web. Deterministic: the same options always give the same web.
 * @throws if an option is out of range.
 */
export function generateWeb(opts: GenerateOptions = {}): TestWeb {
  const seed = (opts.seed ?? 1) >>> 0;
  const topicCount = opts.topics ?? 6;
  const perTopic = opts.pagesPerTopic ?? 120;
  const siteCount = opts.sites ?? 8;
  const newsPerSite = opts.newsPerSite ?? 6;
  if (!Number.isInteger(topicCount) || topicCount < 1 || topicCount > TOPIC_CATALOG.length)
    throw new Error(`topics must be 1..${TOPIC_CATALOG.length}`);
  if (!Number.isInteger(perTopic) || perTopic < 8) throw new Error('pagesPerTopic must be an integer >= 8');
  if (!Number.isInteger(siteCount) || siteCount < 2) throw new Error('sites must be an integer >= 2');
  if (!Number.isInteger(newsPerSite) || newsPerSite < 2) throw new Error('newsPerSite must be an integer >= 2');

  const rng = new Mulberry32(seed);
  const sites = Array.from({ length: siteCount }, (_, i) => `site${i}`);
  const topics: TestTopic[] = TOPIC_CATALOG.slice(0, topicCount).map((t) => ({ ...t, vocabulary: [...t.vocabulary] }));
  const topicById = new Map(topics.map((t) => [t.id, t]));
  const pages = new Map<string, TestPage>();
  const pending = new Map<string, PendingLink[]>();
  const missing = new Set<string>();
  const usedPaths = new Set<string>();

  const newPage = (
    site: string,
    path: string,
    kind: PageKind,
    topic: string | null,
    title: string,
    strength: number,
  ): TestPage => {
    let p = path;
    for (let n = 2; usedPaths.has(site + p); n++) p = path.replace(/(\.html)?$/, `-${n}$1`);
    usedPaths.add(site + p);
    const page: TestPage = {
      key: site + p,
      site,
      path: p,
      kind,
      topic,
      strength,
      cluster: null,
      island: false,
      bridge: false,
      deadEnd: false,
      title,
      links: [],
      anchors: [],
      blocks: [],
      hostileLinks: [],
      baseHref: false,
      noindex: false,
      lastModified: httpDate(rng),
    };
    pages.set(page.key, page);
    pending.set(page.key, []);
    return page;
  };
  const link = (from: TestPage, to: string, place: Place, anchor?: string) => {
    const target = pages.get(to);
    pending.get(from.key)!.push({ to, place, anchor: anchor ?? anchorFor(rng, target ? target.title : 'Archive') });
  };

  // General pages of every site.
  const fronts: Record<string, string> = {};
  const newsBySite: Record<string, TestPage[]> = {};
  const general: Record<string, { front: TestPage; newsIndex: TestPage; about: TestPage; contact: TestPage }> = {};
  const portal = newPage(sites[0], '/portal.html', 'portal', null, 'Forager Test Web Portal', 0);
  for (const site of sites) {
    const n = site.slice(4);
    const front = newPage(site, '/', 'front', null, `Site ${n} Home`, 0);
    const newsIndex = newPage(site, '/news/', 'news-index', null, `Site ${n} News`, 0);
    const about = newPage(site, '/about.html', 'about', null, `About Site ${n}`, 0);
    const contact = newPage(site, '/contact.html', 'contact', null, `Contact Site ${n}`, 0);
    contact.noindex = true;
    fronts[site] = front.key;
    general[site] = { front, newsIndex, about, contact };
    newsBySite[site] = [];
    for (let i = 0; i < newsPerSite; i++) {
      const title = newsTitle(rng);
      newsBySite[site].push(newPage(site, `/news/${slugOf(title)}.html`, 'news', null, title, 0));
    }
  }
  const allNews = sites.flatMap((s) => newsBySite[s]);

  // Topic pages.
  const CLUSTERS = 4; // the last one is the island
  const primarySite: Record<string, string> = {};
  const hubs: Record<string, string[]> = {};
  const islands: Record<string, string[]> = {};
  const byCluster = new Map<string, TestPage[][]>();
  topics.forEach((topic, t) => {
    const primary = sites[t % siteCount];
    // Half-way round the sites: never the primary one, and spreads topics over all sites.
    const secondary = sites[(t + Math.ceil(siteCount / 2)) % siteCount];
    primarySite[topic.id] = primary;
    const clusters: TestPage[][] = Array.from({ length: CLUSTERS }, () => []);
    hubs[topic.id] = [];
    for (let i = 0; i < perTopic; i++) {
      const c = Math.floor((i * CLUSTERS) / perTopic);
      const isHub = c < CLUSTERS - 1 && clusters[c].length === 0;
      let page: TestPage;
      if (isHub) {
        const [a, b, c2] = distinctTopicWords(rng, topic, 3).map(capitalize);
        page = newPage(
          primary,
          `/${topic.id}/guide-${c + 1}.html`,
          'hub',
          topic.id,
          `${topic.name} Guide ${c + 1}: ${a}, ${b} and ${c2}`,
          0.5,
        );
        hubs[topic.id].push(page.key);
      } else {
        const r = rng.next();
        const strength = r < 0.55 ? 0.35 + rng.next() * 0.25 : r < 0.85 ? 0.15 + rng.next() * 0.15 : 0.05 + rng.next() * 0.07;
        const s = rng.next();
        const site = s < 0.55 ? primary : s < 0.85 ? secondary : rng.pick(sites);
        const title = articleTitle(rng, topic, strength);
        page = newPage(site, `/${topic.id}/${slugOf(title)}.html`, 'article', topic.id, title, strength);
      }
      page.cluster = c;
      page.island = c === CLUSTERS - 1;
      clusters[c].push(page);
    }
    islands[topic.id] = clusters[CLUSTERS - 1].map((p) => p.key);
    byCluster.set(topic.id, clusters);
  });
  const mainPages = (topicId: string) =>
    byCluster
      .get(topicId)!
      .slice(0, CLUSTERS - 1)
      .flat();

  // Dead ends: some plain articles (never hubs) have no links at all.
  for (const topic of topics) {
    for (const cluster of byCluster.get(topic.id)!) {
      for (const page of cluster) if (page.kind === 'article' && rng.chance(0.1)) page.deadEnd = true;
    }
  }

  const nav = (page: TestPage) => {
    const g = general[page.site];
    link(page, g.front.key, 'nav', 'Home');
    link(page, g.newsIndex.key, 'nav', 'News');
    link(page, g.about.key, 'nav', 'About');
    link(page, g.contact.key, 'nav', 'Contact');
  };
  const brokenLink = (page: TestPage, dir: string) => {
    const key = `${page.site}/${dir}/archive-${rng.int(1000)}.html`;
    if (pages.has(key)) return;
    missing.add(key);
    link(page, key, rng.chance(0.5) ? 'text' : 'list', rng.pick(['old archive', 'archived page', 'previous edition']));
  };

  // Topic pages' links.
  for (const topic of topics) {
    const clusters = byCluster.get(topic.id)!;
    const others = topics.filter((t) => t.id !== topic.id);
    for (const cluster of clusters) {
      for (const page of cluster) {
        if (page.deadEnd) continue;
        nav(page);
        const c = page.cluster!;
        if (page.kind === 'hub') {
          const members = cluster.filter((p) => p !== page);
          for (const m of members) if (rng.chance(0.75)) link(page, m.key, 'list');
          for (const h of hubs[topic.id]) if (h !== page.key) link(page, h, 'text');
          continue;
        }
        const degree = rng.range(3, 9);
        for (let i = 0; i < degree; i++) {
          if (rng.chance(0.8)) {
            // On topic: mostly the same cluster; islands link back to the main clusters but never the reverse.
            let pool: TestPage[];
            if (rng.chance(0.85)) pool = cluster;
            else pool = mainPages(topic.id);
            const target = rng.pick(pool);
            if (target !== page) link(page, target.key, rng.chance(0.7) ? 'text' : 'list');
          } else {
            const r = rng.next();
            if (r < 0.5) link(page, rng.pick(allNews).key, rng.chance(0.5) ? 'text' : 'list');
            else if (r < 0.85 && others.length > 0) link(page, rng.pick(mainPages(rng.pick(others).id)).key, 'text');
            else link(page, rng.chance(0.5) ? fronts[rng.pick(sites)] : general[rng.pick(sites)].about.key, 'list');
          }
        }
        if (c < CLUSTERS - 1 && rng.chance(0.5)) link(page, hubs[topic.id][c], 'list');
        if (rng.chance(0.04)) brokenLink(page, topic.id);
      }
    }
  }

  // General pages' links.
  for (const site of sites) {
    const g = general[site];
    nav(g.front);
    link(g.front, portal.key, 'nav', 'All sites');
    for (const topic of topics) if (primarySite[topic.id] === site) for (const h of hubs[topic.id]) link(g.front, h, 'list');
    const local = [...pages.values()].filter((p) => p.site === site && p.kind === 'article' && !p.island);
    for (let i = 0; i < 6 && local.length > 0; i++) link(g.front, rng.pick(local).key, 'list');
    for (const n of newsBySite[site].slice(0, 3)) link(g.front, n.key, 'list');

    nav(g.newsIndex);
    for (const n of newsBySite[site]) link(g.newsIndex, n.key, 'list');

    nav(g.about);
    for (const other of rng.shuffle(sites.filter((s) => s !== site)).slice(0, 3)) link(g.about, fronts[other], 'text');
    nav(g.contact);

    for (const n of newsBySite[site]) {
      nav(n);
      const degree = rng.range(3, 6);
      for (let i = 0; i < degree; i++) {
        const r = rng.next();
        if (r < 0.3) link(n, rng.pick(allNews).key, 'text');
        else if (r < 0.5) link(n, fronts[rng.pick(sites)], 'text');
        else link(n, rng.pick(mainPages(rng.pick(topics).id)).key, 'text');
      }
      if (rng.chance(0.1)) brokenLink(n, 'news');
    }
  }
  for (const site of sites) link(portal, fronts[site], 'list', `Site ${site.slice(4)}`);

  // Bridges into each island: two news articles and one page of another topic (A -> off-topic -> A's island).
  const bridges = new Set<string>();
  topics.forEach((topic, t) => {
    const island = byCluster.get(topic.id)![CLUSTERS - 1];
    const sources: TestPage[] = [];
    const newsPool = rng.shuffle([...allNews]);
    sources.push(newsPool[0], newsPool[1]);
    if (topics.length > 1) {
      const other = topics[(t + 1) % topics.length];
      const candidates = mainPages(other.id).filter((p) => p.kind === 'article' && !p.deadEnd);
      if (candidates.length > 0) sources.push(rng.pick(candidates));
    }
    // The news bridges are cited by a few of the topic's own pages: off-topic detours that lead back in.
    const citing = mainPages(topic.id).filter((p) => p.kind === 'article' && !p.deadEnd);
    for (const news of sources.slice(0, 2)) {
      for (let i = 0; i < 3 && citing.length > 0; i++) link(rng.pick(citing), news.key, 'text');
    }
    for (const src of sources) {
      const count = rng.range(2, 3);
      for (let i = 0; i < count; i++) link(src, rng.pick(island).key, 'text');
      src.bridge = true;
      bridges.add(src.key);
    }
  });

  // The robots-protected page: on topic, tempting, linked from a few pages of its site.
  const privateSite = sites[1];
  const privateTopic = topics.find((t) => primarySite[t.id] === privateSite) ?? topics[0];
  const privatePage: TestPage = {
    key: privateSite + PRIVATE_PATH,
    site: privateSite,
    path: PRIVATE_PATH,
    kind: 'private',
    topic: privateTopic.id,
    strength: 0.5,
    cluster: null,
    island: false,
    bridge: false,
    deadEnd: false,
    title: `Secret ${privateTopic.name} Notes`,
    links: [],
    anchors: [],
    blocks: [],
    hostileLinks: [],
    baseHref: false,
    noindex: false,
    lastModified: httpDate(rng),
  };
  const privateCarriers = mainPages(privateTopic.id).filter((p) => p.site === privateSite && p.kind === 'article' && !p.deadEnd);
  for (const carrier of rng.shuffle([...privateCarriers]).slice(0, 2)) link(carrier, privatePage.key, 'text', privatePage.title);

  // Hostile links: dealt over three strong articles of each topic on its primary site.
  for (const topic of topics) {
    const site = primarySite[topic.id];
    const candidates = mainPages(topic.id)
      .filter((p) => p.site === site && p.kind === 'article' && !p.deadEnd)
      .sort((a, b) => b.strength - a.strength)
      .slice(0, 3);
    if (candidates.length === 0) continue;
    HOSTILE_PATHS.forEach((path, i) => {
      const carrier = candidates[i % candidates.length];
      const words = distinctTopicWords(rng, topic, 2).join(' ');
      carrier.hostileLinks.push({ path, anchor: `${words} ${path.split('/')[2]}` });
    });
  }

  // Everything must be reachable from the portal: add links to pages the random wiring missed.
  repairReachability(rng, portal.key, pages, pending);

  // Some pages carry <base href>, to exercise resolution.
  for (const page of pages.values()) if (!page.deadEnd && rng.chance(0.05)) page.baseHref = true;

  // Bodies: each page's text has its own RNG stream.
  let index = 0;
  for (const page of pages.values()) {
    buildBody(
      new Mulberry32(mixSeed(seed, index++)),
      page,
      pending.get(page.key)!,
      page.topic ? topicById.get(page.topic)! : null,
      topicById,
      pages,
    );
  }
  buildBody(new Mulberry32(mixSeed(seed, index)), privatePage, [], privateTopic, topicById, pages);

  return {
    seed,
    sites,
    topics,
    pages,
    portal: portal.key,
    fronts,
    hubs,
    islands,
    bridges: [...bridges],
    missing,
    privateSite,
    privatePage,
    primarySite,
  };
}

/** Adds links until every page is reachable from the portal, keeping islands reachable only through bridges. */
function repairReachability(
  rng: Mulberry32,
  root: string,
  pages: Map<string, TestPage>,
  pending: Map<string, PendingLink[]>,
): void {
  for (let round = 0; round < 100; round++) {
    const seen = new Set<string>([root]);
    const queue = [root];
    while (queue.length > 0) {
      const key = queue.shift()!;
      for (const l of pending.get(key) ?? []) {
        if (!seen.has(l.to) && pages.has(l.to)) {
          seen.add(l.to);
          queue.push(l.to);
        }
      }
    }
    const unreachable = [...pages.values()].filter((p) => !seen.has(p.key));
    if (unreachable.length === 0) return;
    const open = [...pages.values()].filter((p) => seen.has(p.key) && !p.deadEnd);
    const news = open.filter((p) => p.kind === 'news');
    for (const page of unreachable) {
      // A reachable page of the same topic and cluster (island pages only from island pages), else a news page.
      const same = page.topic === null ? [] : open.filter((p) => p.topic === page.topic && p.cluster === page.cluster);
      const src = rng.pick(same.length > 0 ? same : news);
      pending.get(src.key)!.push({ to: page.key, place: 'list', anchor: anchorFor(rng, page.title) });
    }
  }
  throw new Error('test web: could not make every page reachable');
}

/** Writes a page's text and places its links (in-text links sit in a sentence about the target's topic). */
function buildBody(
  rng: Mulberry32,
  page: TestPage,
  links: PendingLink[],
  topic: TestTopic | null,
  topics: Map<string, TestTopic>,
  pages: Map<string, TestPage>,
): void {
  // Links are numbered in document order once the body is laid out (text links land in random paragraphs).
  type Draft = string | PendingLink;
  const blocks: { tag: Block['tag']; parts: Draft[] }[] = [];
  const navLinks = links.filter((l) => l.place === 'nav');
  if (navLinks.length > 0) blocks.push({ tag: 'nav', parts: navLinks });

  const textLinks = links.filter((l) => l.place === 'text');
  const listLinks = links.filter((l) => l.place === 'list');
  const strength = page.strength;
  const paragraphs =
    page.kind === 'article' || page.kind === 'private'
      ? rng.range(4, 7)
      : page.kind === 'news'
        ? rng.range(3, 5)
        : page.kind === 'hub'
          ? 2
          : 1;
  const texts: Draft[][] = [];
  for (let i = 0; i < paragraphs; i++) texts.push([paragraph(rng, topic, strength)]);
  // In-text links: each in its own short sentence, worded like the target (context carries signal).
  for (const l of textLinks) {
    const target = pages.get(l.to);
    const targetTopic = target?.topic ? topics.get(target.topic)! : null;
    const para = texts[rng.int(texts.length)];
    const before = sentenceWords(rng, targetTopic ?? topic, targetTopic ? 0.5 : strength, rng.range(3, 7));
    before[0] = capitalize(before[0]);
    const after = sentenceWords(rng, targetTopic ?? topic, targetTopic ? 0.5 : strength, rng.range(2, 5));
    para.push(` ${before.join(' ')} `, l, ` ${after.join(' ')}.`);
  }
  for (const parts of texts) blocks.push({ tag: 'p', parts });
  if (listLinks.length > 0) {
    blocks.push({
      tag: 'h2',
      parts: [page.kind === 'hub' ? 'In this guide' : page.kind === 'news-index' ? 'Latest stories' : 'See also'],
    });
    blocks.push({ tag: 'ul', parts: listLinks });
  }
  page.blocks = blocks.map((b) => ({
    tag: b.tag,
    parts: b.parts.map((d): Segment => {
      if (typeof d === 'string') return d;
      page.links.push(d.to);
      page.anchors.push(d.anchor);
      return { link: page.links.length - 1 };
    }),
  }));
}

// ---------------------------------------------------------------------------------------------------------------
// Queries

/**
 * Up to `count` strong on-topic pages to start a crawl from, as a search engine would return them: the most
 * on-topic articles of the topic's main clusters, taken round-robin over clusters (never hubs, islands or dead ends).
 */
export function seedsFor(web: TestWeb, topicId: string, count = 3): TestPage[] {
  if (!web.topics.some((t) => t.id === topicId)) throw new Error(`unknown topic: ${topicId}`);
  const byCluster = new Map<number, TestPage[]>();
  for (const p of web.pages.values()) {
    if (p.topic !== topicId || p.kind !== 'article' || p.island || p.deadEnd) continue;
    const list = byCluster.get(p.cluster!) ?? [];
    list.push(p);
    byCluster.set(p.cluster!, list);
  }
  const lists = [...byCluster.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([, l]) => l.sort((a, b) => b.strength - a.strength || (a.key < b.key ? -1 : 1)));
  const out: TestPage[] = [];
  for (let i = 0; out.length < count && lists.some((l) => i < l.length); i++) {
    for (const l of lists) if (i < l.length && out.length < count) out.push(l[i]);
  }
  return out;
}

/** URLs of every servable page of a topic (hubs, articles, islands, dead ends), given each site's origin. */
export function onTopicUrls(web: TestWeb, topicId: string, origin: (site: string) => string): string[] {
  const out: string[] = [];
  for (const p of web.pages.values()) if (p.topic === topicId) out.push(origin(p.site) + p.path);
  return out;
}

/** The topic (as the engine's `Topic`) a crawl of this test-web topic should use. */
export function topicQuery(web: TestWeb, topicId: string): { keywords: string; language: string } {
  const t = web.topics.find((x) => x.id === topicId);
  if (!t) throw new Error(`unknown topic: ${topicId}`);
  return { keywords: t.keywords, language: 'en' };
}

/** Plain text of a page (title and body, anchors included), e.g. for scoring in tests. */
export function pageText(page: TestPage): string {
  const parts: string[] = [page.title];
  for (const b of page.blocks) for (const s of b.parts) parts.push(typeof s === 'string' ? s : page.anchors[s.link]);
  return parts.join(' ');
}

// ---------------------------------------------------------------------------------------------------------------
// Rendering

export interface RenderOptions {
  /** Render the links to hostile routes. Default false. */
  hostile?: boolean;
}

/** FNV-1a. */
function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Path from directory of `fromPath` to `toPath`, e.g. '/a/b.html' -> '/a/c.html' gives 'c.html'. */
function relativePath(fromPath: string, toPath: string): string {
  const fromDir = fromPath.slice(0, fromPath.lastIndexOf('/') + 1);
  if (toPath.startsWith(fromDir)) return toPath.slice(fromDir.length) || './';
  const fromParts = fromDir.split('/').filter(Boolean);
  const toParts = toPath.split('/').filter(Boolean);
  const toIsDir = toPath.endsWith('/');
  let common = 0;
  while (common < fromParts.length && common < toParts.length && fromParts[common] === toParts[common]) common++;
  const up = fromParts.length - common;
  return '../'.repeat(up) + toParts.slice(common).join('/') + (toIsDir && toParts.length > common ? '/' : '');
}

/**
 * The href a page uses for one of its links: absolute across sites; on the same site root-relative, relative,
 * absolute or with a fragment, chosen by a hash of (page, link) so renders are stable.
 */
export function hrefFor(page: TestPage, index: number, origin: (site: string) => string): string {
  const { site, path } = splitKey(page.links[index]);
  const h = mixSeed(index, hashString(page.key)) % 20;
  let href: string;
  if (site !== page.site || h === 0) href = origin(site) + path;
  else if (page.baseHref) href = path.slice(1) || './';
  else if (h < 5) href = relativePath(page.path, path);
  else href = path;
  if (h === 7 || h === 13) href += `#section-${index % 4}`;
  return href;
}

/** Renders a page to HTML. Cross-site links need the origins (ports), hence a function of `origin`. */
export function renderPage(page: TestPage, origin: (site: string) => string, opts: RenderOptions = {}): string {
  const out: string[] = [];
  out.push('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n');
  out.push(`<title>${escapeHtml(page.title)}</title>\n`);
  if (page.baseHref) out.push(`<base href="${escapeHtml(origin(page.site))}/">\n`);
  if (page.noindex) out.push('<meta name="robots" content="noindex">\n');
  out.push('</head>\n<body>\n');
  const a = (i: number) => `<a href="${escapeHtml(hrefFor(page, i, origin))}">${escapeHtml(page.anchors[i])}</a>`;
  let mainOpen = false;
  for (const block of page.blocks) {
    if (block.tag === 'nav') {
      out.push(`<nav>${block.parts.map((s) => (typeof s === 'string' ? escapeHtml(s) : a(s.link))).join(' | ')}</nav>\n`);
      continue;
    }
    if (!mainOpen) {
      out.push(`<main>\n<h1>${escapeHtml(page.title)}</h1>\n`);
      mainOpen = true;
    }
    if (block.tag === 'ul') {
      out.push(
        '<ul>\n' +
          block.parts.map((s) => `<li>${typeof s === 'string' ? escapeHtml(s) : a(s.link)}</li>`).join('\n') +
          '\n</ul>\n',
      );
    } else {
      out.push(
        `<${block.tag}>` +
          block.parts.map((s) => (typeof s === 'string' ? escapeHtml(s) : a(s.link))).join('') +
          `</${block.tag}>\n`,
      );
    }
  }
  if (!mainOpen) out.push(`<main>\n<h1>${escapeHtml(page.title)}</h1>\n`);
  if (opts.hostile && page.hostileLinks.length > 0) {
    out.push('<aside><h2>Odd corners</h2><ul>\n');
    for (const h of page.hostileLinks) out.push(`<li><a href="${escapeHtml(h.path)}">${escapeHtml(h.anchor)}</a></li>\n`);
    out.push('</ul></aside>\n');
  }
  out.push('</main>\n<footer><p>Forager test web, generated. Nothing here is real.</p></footer>\n</body>\n</html>\n');
  return out.join('');
}
