/**
 * Where a crawl loses the reachable targets it has not found at a budget: the crawl runs to the budget on the
 * simulated network, its checkpoint is taken at that page, and each reachable target it has not crawled is put in
 * one place, read from the checkpoint's frontier and the corpus links of the pages it crawled:
 *   queued     in the frontier (with its rank there: outranked by the links taken instead);
 *   reserved   in forager's reserve of links the full frontier lost;
 *   in flight  handed out, its page not in yet;
 *   failed     fetched without a page (error, timeout);
 *   dropped    a crawled page links to it, but it is nowhere: the bounded frontier (MAX_BUFFER) evicted or turned it
 *              away, and no reserve kept it;
 *   unseen     no crawled page links to it: on a site the crawl entered, or on one it never entered.
 * It also says what the crawl spent its pages on after half the budget (targets, pages with a topic word, pages on a
 * site that holds targets) and how the targets' sites were entered, so a loss can be laid at a cause.
 */
import { type CrawlCheckpoint, type Json, tokenize } from '../lib/engine';
import { corpusTermCounts, reachableFrom } from './analysis';
import type { CorpusIndex } from './corpus';
import type { LocalWeb } from './docweb/server';
import {
  CachingEvaluator,
  type LabStrategy,
  labTopic,
  type NetworkSetting,
  resultsPageContext,
  runCrawlTask,
  strategyParams,
} from './run';
import { type LabTopic, seedsOf, type TaskId } from './topics';

export const LOSS_PLACES = [
  'queued',
  'reserved',
  'in flight',
  'failed',
  'dropped',
  'unseen, site entered',
  'unseen, site not entered',
] as const;
export type LossPlace = (typeof LOSS_PLACES)[number];

/** One crawl's losses at the budget. */
export interface CrawlLosses {
  reachable: number;
  found: number;
  places: Record<LossPlace, number>;
  /** Ranks (0 = best) of the queued missed targets among the frontier's entries, and the frontier's size. */
  queuedRanks: number[];
  frontierSize: number;
  /** Missed targets one link beyond a page that is queued, reserved or dropped (their parent was seen, not taken). */
  unseenParentSeen: number;
  /** Of those: the parent's best place (queued, reserved, dropped), and parents holding a topic word. */
  unseenParent: { queued: number; reserved: number; dropped: number; topicWord: number; ranks: number[] };
  /** Unseen targets on a site the crawl never entered, but some crawled page links into that site. */
  siteLinked: number;
  /** Sites holding reachable targets, and how many of them the crawl entered (crawled a page of) by the budget. */
  targetSites: number;
  targetSitesEntered: number;
  /** Of the pages from half the budget to the budget: targets, pages with a topic word, pages on a target site. */
  late: { pages: number; targets: number; topicWord: number; onTargetSite: number };
  /** The frontier's best 50 entries at the budget: targets among them, and entries on a site holding targets. */
  top: { entries: number; targets: number; onTargetSite: number };
}

const inlinks = new WeakMap<CorpusIndex, Int32Array[]>();
/** The corpus's inlinks, built once per corpus. */
function inlinksOf(corpus: CorpusIndex): Int32Array[] {
  let all = inlinks.get(corpus);
  if (!all) inlinks.set(corpus, (all = corpus.inlinks()));
  return all;
}

const siteOfId = (id: string) => id.slice(0, id.indexOf('/'));

/** Corpus positions of the URLs of the checkpoint's frontier (state.frontier.entries) with their scores, best first. */
function frontierOf(state: Json, web: Pick<LocalWeb, 'idFor'>): { id: string | undefined; score: number }[] {
  const entries = ((state as { frontier?: { entries?: [string, number][] } }).frontier?.entries ?? []).map(([url, score]) => ({
    id: web.idFor(url),
    score,
  }));
  return entries.sort((a, b) => b.score - a.score);
}

/** Ids of forager's reserve (state.reserved: [score, depth, from, [url, ...]]); none for other strategies. */
function reservedOf(state: Json, web: Pick<LocalWeb, 'idFor'>): Set<string> {
  const out = new Set<string>();
  for (const r of (state as { reserved?: [number, number, unknown, [string]][] }).reserved ?? []) {
    const id = web.idFor(r[3][0]);
    if (id) out.add(id);
  }
  return out;
}

/**
 * Places each reachable target a crawl missed within `pages` (its first `budget` pages, corpus ids) from the
 * checkpoint taken at the budget. `keywords`: the topic's terms, for "a page with a topic word".
 */
export function crawlLosses(
  corpus: CorpusIndex,
  web: Pick<LocalWeb, 'idFor'>,
  seeds: readonly string[],
  targets: readonly string[],
  pages: readonly string[],
  budget: number,
  snapshot: CrawlCheckpoint,
  keywords: string[],
): CrawlLosses {
  const reach = reachableFrom(corpus, seeds);
  const seedSet = new Set(seeds);
  const at = (id: string) => corpus.position.get(id) ?? -1;
  const wanted = targets.filter((t) => !seedSet.has(t) && reach[at(t)] === 1);
  const crawled = pages.slice(0, budget);
  const crawledSet = new Set(crawled);
  const linked = new Uint8Array(corpus.size);
  for (const id of crawled) {
    const i = at(id);
    if (i >= 0) for (const j of corpus.outlinks(i)) linked[j] = 1;
  }
  const state = snapshot.strategy.state;
  const frontier = frontierOf(state, web);
  const rankOf = new Map<string, number>();
  frontier.forEach((e, r) => {
    if (e.id !== undefined) rankOf.set(e.id, r);
  });
  const reserved = reservedOf(state, web);
  const inFlight = new Set(snapshot.inFlight.map((e) => web.idFor(e.url)));
  const fetched = new Set(snapshot.fetched.map((u) => web.idFor(u)));
  const sitesEntered = new Set(crawled.map(siteOfId));
  const places = Object.fromEntries(LOSS_PLACES.map((p) => [p, 0])) as Record<LossPlace, number>;
  const queuedRanks: number[] = [];
  let unseenParentSeen = 0;
  let siteLinked = 0;
  const unseenParent = { queued: 0, reserved: 0, dropped: 0, topicWord: 0, ranks: [] as number[] };
  const holds = corpusTermCounts(corpus, keywords);
  const linkedSites = new Set<string>();
  for (let i = 0; i < corpus.size; i++) if (linked[i]) linkedSites.add(siteOfId(corpus.ids[i]));
  /** A parent's best place: queued (rank), reserved, dropped (linked, neither), or undefined (not seen). */
  const parentPlace = (i: number): number | 'reserved' | 'dropped' | undefined => {
    const id = corpus.ids[i];
    if (crawledSet.has(id)) return undefined;
    if (rankOf.has(id)) return rankOf.get(id)!;
    if (reserved.has(id)) return 'reserved';
    return linked[i] === 1 ? 'dropped' : undefined;
  };
  const parents = inlinksOf(corpus);
  for (const t of wanted) {
    if (crawledSet.has(t)) continue;
    const i = at(t);
    let place: LossPlace;
    if (rankOf.has(t)) {
      place = 'queued';
      queuedRanks.push(rankOf.get(t)!);
    } else if (reserved.has(t)) place = 'reserved';
    else if (inFlight.has(t)) place = 'in flight';
    else if (fetched.has(t)) place = 'failed';
    else if (linked[i]) place = 'dropped';
    else {
      place = sitesEntered.has(siteOfId(t)) ? 'unseen, site entered' : 'unseen, site not entered';
      if (place === 'unseen, site not entered' && linkedSites.has(siteOfId(t))) siteLinked++;
      const seen = [...parents[i]].filter((j) => parentPlace(j) !== undefined);
      if (seen.length > 0) {
        unseenParentSeen++;
        if (seen.some((j) => holds[j] > 0)) unseenParent.topicWord++;
        const ranks = seen.map(parentPlace).filter((r): r is number => typeof r === 'number');
        if (ranks.length) {
          unseenParent.queued++;
          unseenParent.ranks.push(Math.min(...ranks));
        } else if (seen.some((j) => parentPlace(j) === 'reserved')) unseenParent.reserved++;
        else unseenParent.dropped++;
      }
    }
    places[place]++;
  }
  const targetSet = new Set(wanted);
  const targetSites = new Set(wanted.map(siteOfId));
  const late = crawled.slice(Math.floor(budget / 2));
  const top = frontier.slice(0, 50);
  return {
    reachable: wanted.length,
    found: wanted.filter((t) => crawledSet.has(t)).length,
    places,
    queuedRanks,
    frontierSize: frontier.length,
    unseenParentSeen,
    unseenParent,
    siteLinked,
    targetSites: targetSites.size,
    targetSitesEntered: [...targetSites].filter((s) => sitesEntered.has(s)).length,
    late: {
      pages: late.length,
      targets: late.filter((id) => targetSet.has(id)).length,
      topicWord: late.filter((id) => holds[at(id)] > 0).length,
      onTargetSite: late.filter((id) => targetSites.has(siteOfId(id))).length,
    },
    top: {
      entries: top.length,
      targets: top.filter((e) => e.id !== undefined && targetSet.has(e.id)).length,
      onTargetSite: top.filter((e) => e.id !== undefined && targetSites.has(siteOfId(e.id))).length,
    },
  };
}

/** The sum of several crawls' losses (ranks pooled). */
export function sumLosses(all: readonly CrawlLosses[]): CrawlLosses {
  const out: CrawlLosses = {
    reachable: 0,
    found: 0,
    places: Object.fromEntries(LOSS_PLACES.map((p) => [p, 0])) as Record<LossPlace, number>,
    queuedRanks: [],
    frontierSize: 0,
    unseenParentSeen: 0,
    unseenParent: { queued: 0, reserved: 0, dropped: 0, topicWord: 0, ranks: [] },
    siteLinked: 0,
    targetSites: 0,
    targetSitesEntered: 0,
    late: { pages: 0, targets: 0, topicWord: 0, onTargetSite: 0 },
    top: { entries: 0, targets: 0, onTargetSite: 0 },
  };
  for (const l of all) {
    out.reachable += l.reachable;
    out.found += l.found;
    for (const p of LOSS_PLACES) out.places[p] += l.places[p];
    out.queuedRanks.push(...l.queuedRanks);
    out.frontierSize += l.frontierSize;
    out.unseenParentSeen += l.unseenParentSeen;
    out.siteLinked += l.siteLinked;
    for (const k of ['queued', 'reserved', 'dropped', 'topicWord'] as const) out.unseenParent[k] += l.unseenParent[k];
    out.unseenParent.ranks.push(...l.unseenParent.ranks);
    out.targetSites += l.targetSites;
    out.targetSitesEntered += l.targetSitesEntered;
    for (const k of ['pages', 'targets', 'topicWord', 'onTargetSite'] as const) out.late[k] += l.late[k];
    for (const k of ['entries', 'targets', 'onTargetSite'] as const) out.top[k] += l.top[k];
  }
  return out;
}

/** One line: found/reachable, where the missed ones are, the ranks of the queued ones, what the late pages were. */
export function lossLine(l: CrawlLosses): string {
  const missed = l.reachable - l.found;
  const share = (x: number, of: number) => (of ? `${x} (${Math.round((100 * x) / of)}%)` : `${x}`);
  const ranks = [...l.queuedRanks].sort((a, b) => a - b);
  const median = ranks.length ? ranks[Math.floor(ranks.length / 2)] : NaN;
  const up = l.unseenParent;
  const parentRanks = [...up.ranks].sort((a, b) => a - b);
  return (
    `found ${l.found}/${l.reachable}, missed ${missed}: ` +
    LOSS_PLACES.filter((p) => l.places[p] > 0)
      .map((p) => `${p} ${share(l.places[p], missed)}`)
      .join(', ') +
    (ranks.length ? `; queued ranks median ${median} of ${l.frontierSize}` : '') +
    (l.unseenParentSeen
      ? `; unseen with a seen parent ${l.unseenParentSeen} (parent queued ${up.queued}` +
        (parentRanks.length ? ` at ranks ${parentRanks.join(' ')}` : '') +
        `, reserved ${up.reserved}, dropped ${up.dropped}; with a topic word ${up.topicWord})`
      : '') +
    (l.siteLinked ? `; unseen on a site not entered but linked ${l.siteLinked}` : '') +
    `; target sites entered ${l.targetSitesEntered}/${l.targetSites}` +
    `; pages ${Math.floor(l.late.pages)} after half: targets ${share(l.late.targets, l.late.pages)}, ` +
    `topic word ${share(l.late.topicWord, l.late.pages)}, on a target site ${share(l.late.onTargetSite, l.late.pages)}` +
    `; frontier top ${l.top.entries}: targets ${l.top.targets}, on a target site ${l.top.onTargetSite}`
  );
}

export interface LossRunOptions {
  web: LocalWeb;
  corpus: CorpusIndex;
  topics: readonly LabTopic[];
  strategy: LabStrategy;
  tasks: readonly TaskId[];
  seed: number;
  budget: number;
  maxBuffer: number;
  network: NetworkSetting;
  log: (line: string) => void;
}

/**
 * Crawls each topic and task once to the budget on the simulated network, in this thread, and logs each crawl's
 * losses, then their sums by topic kind and over the crawls that missed a tenth or more of their reachable targets.
 */
export async function runLosses(o: LossRunOptions): Promise<Map<string, CrawlLosses>> {
  const evaluator = new CachingEvaluator();
  const out = new Map<string, CrawlLosses>();
  const byKind = new Map<string, CrawlLosses[]>();
  const weak: CrawlLosses[] = [];
  let index = 0;
  for (const topic of o.topics) {
    for (const task of o.tasks) {
      const seeds = seedsOf(topic, task);
      const job = { topic, task, strategy: o.strategy, seed: o.seed };
      const outcome = await runCrawlTask(
        {
          index: index++,
          topicId: topic.id,
          topic: labTopic(job, await resultsPageContext(o.web, seeds)),
          seedUrls: seeds.map((id) => o.web.urlFor(id)),
          strategy: { name: o.strategy.name, params: strategyParams(o.strategy.params) },
          seed: o.seed,
          maxPages: o.budget,
          maxBuffer: o.maxBuffer,
          fetchConcurrency: 8,
          network: o.network,
          snapshotAt: o.budget,
        },
        evaluator,
        undefined,
        o.web,
      );
      const pages = outcome.urls.map((u) => o.web.idFor(u) ?? u);
      // A crawl that ran out of links before the budget: its frontier is empty, so its end is its snapshot.
      const snapshot = outcome.snapshot ?? emptySnapshot(outcome.urls);
      const keywords = [...new Set(tokenize(topic.keywords, topic.language ?? 'en'))];
      const l = crawlLosses(o.corpus, o.web, seeds, topic.targets, pages, o.budget, snapshot, keywords);
      out.set(`${topic.id} task${task}`, l);
      const kind = topic.kind ?? 'none';
      byKind.set(kind, [...(byKind.get(kind) ?? []), l]);
      if (l.reachable > 0 && l.found < 0.9 * l.reachable) weak.push(l);
      o.log(`${topic.id} (${kind}) task${task}: ${lossLine(l)}`);
    }
  }
  for (const [kind, all] of byKind) o.log(`ALL ${kind} (${all.length} crawls): ${lossLine(sumLosses(all))}`);
  o.log(`ALL crawls below .9 of their reachable targets (${weak.length}): ${lossLine(sumLosses(weak))}`);
  o.log(`ALL (${out.size} crawls): ${lossLine(sumLosses([...out.values()]))}`);
  return out;
}

function emptySnapshot(fetched: string[]): CrawlCheckpoint {
  return { strategy: { state: {} }, inFlight: [], fetched } as unknown as CrawlCheckpoint;
}
