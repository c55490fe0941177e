/**
 * Crawl settings as the extension offers them: defaults, and the validation of a start request coming from the UI
 * (or a context-menu URL someone could craft): everything is checked and clamped here, so the runner only ever sees
 * sane values.
 */
import type { StartRequest, StrategyDescription } from '../model/protocol';
import type { CrawlSettings, SeedSource } from '../model/records';
import type { Topic } from '../../engine';
import { hostKind, stopwordLanguage, type HostKind, type TopicHints, type UrlPolicy } from '../../engine';
import { SETTING_BOUNDS } from './settings-bounds';

/** What a crawl started from the popup uses unless the user changes it. */
export const DEFAULT_SETTINGS: CrawlSettings = {
  // The combined strategy: in the lab it beats Best-N-First and Breadth-First from neighbour seeds (see README).
  strategy: 'forager',
  params: {},
  maxPages: 200,
  maxBuffer: 256,
  politenessDelayMs: 1000,
  stayOnSeedSites: false,
  privateHosts: [],
  seed: 1,
};

export { MAX_RETRIES, SETTING_BOUNDS } from './settings-bounds';
export const MAX_SEEDS = 500;
export const MAX_TOPIC_LENGTH = 500;
/** Context a topic keeps: pieces (a results page's titles and snippets: 2 per result) and characters per piece. */
export const MAX_CONTEXT_PIECES = 40;
export const MAX_CONTEXT_CHARS = 600;
export const MAX_NAME_LENGTH = 200;

/** A start request, validated: ready for the runner. */
export interface ValidStart {
  name: string;
  /** Its language only when the request names a known one; else the runner has it detected (analyseTopic). */
  topic: Topic;
  /** What besides the topic says its language. */
  hints: TopicHints;
  seeds: string[];
  source: SeedSource;
  settings: CrawlSettings;
}

export type Validation<T> = { ok: true; value: T } | { ok: false; error: string };

const SOURCE_KINDS = new Set<SeedSource['kind']>(['serp', 'page', 'link', 'selection', 'manual']);

function clampInt(value: unknown, fallback: number, bounds: { min: number; max: number }): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (!Number.isFinite(n)) return fallback;
  return Math.min(bounds.max, Math.max(bounds.min, Math.round(n)));
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** http(s) URL without credentials, or null. */
export function cleanSeed(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password) return null;
  url.hash = '';
  return url.href;
}

/**
 * Checks the strategy's parameters against its declared list: unknown names dropped, numbers clamped, wrong types
 * replaced by the default.
 */
export function cleanParams(raw: unknown, strategy: StrategyDescription | undefined): Record<string, number | string | boolean> {
  const out: Record<string, number | string | boolean> = {};
  const given = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  if (!strategy) {
    // Strategy list unknown: keep plain scalar values only.
    for (const [k, v] of Object.entries(given)) {
      if (typeof v === 'boolean' || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) out[k] = v;
    }
    return out;
  }
  for (const p of strategy.params) {
    const v = given[p.name];
    if (v === undefined) continue;
    if (typeof p.default === 'number') {
      const n = typeof v === 'number' ? v : Number(v);
      if (!Number.isFinite(n)) continue;
      const min = p.min ?? -Infinity;
      const max = p.max ?? Infinity;
      const clamped = Math.min(max, Math.max(min, n));
      out[p.name] = p.integer ? Math.round(clamped) : clamped;
    } else if (typeof p.default === 'boolean') {
      if (typeof v === 'boolean') out[p.name] = v;
    } else if (typeof v === 'string') {
      out[p.name] = v.slice(0, 200);
    }
  }
  return out;
}

/**
 * Validates a start request. Errors are sentences for the user.
 * @param strategies the known strategies; when given, the strategy name must be one of them.
 */
export function validateStart(
  req: unknown,
  strategies?: StrategyDescription[],
  now: number = Date.now(),
): Validation<ValidStart> {
  if (typeof req !== 'object' || req === null) return { ok: false, error: 'The start request is empty.' };
  const r = req as Partial<StartRequest>;
  const keywords = typeof r.topic === 'string' ? collapse(r.topic).slice(0, MAX_TOPIC_LENGTH) : '';
  if (!keywords) return { ok: false, error: 'Enter a topic: the words the pages should be about.' };
  const rawSeeds = Array.isArray(r.seeds) ? r.seeds : [];
  const seeds: string[] = [];
  for (const s of rawSeeds) {
    const url = cleanSeed(s);
    if (url && !seeds.includes(url)) seeds.push(url);
    if (seeds.length >= MAX_SEEDS) break;
  }
  if (seeds.length === 0) return { ok: false, error: 'There is no web page to start from (no http or https links).' };
  const s0 = (typeof r.settings === 'object' && r.settings !== null ? r.settings : {}) as Partial<CrawlSettings>;
  const privateSeeds = privateSeedHosts(seeds);
  const ticked = tickedPrivateHosts(s0.privateHosts, privateSeeds);
  const usable = seeds.filter((seed) => {
    const host = new URL(seed).host;
    return !privateSeeds.some((p) => p.host === host) || ticked.includes(host);
  });
  if (usable.length === 0) {
    const listed = privateSeeds.map((p) => p.host);
    const shown = `${listed.slice(0, 5).join(', ')}${listed.length > 5 ? `, and ${listed.length - 5} more` : ''}`;
    return privateSeeds.every((p) => p.kind === 'metadata')
      ? { ok: false, error: `Forager never fetches cloud metadata addresses (${shown}): there is nothing else to start from.` }
      : {
          ok: false,
          error: `Every start page is on your own network or this computer (${shown}). Tick the ones Forager may crawl, or start from public pages.`,
        };
  }

  const s = s0;
  const strategyName = typeof s.strategy === 'string' && s.strategy ? s.strategy : DEFAULT_SETTINGS.strategy;
  const info = strategies?.find((x) => x.name === strategyName);
  if (strategies && !info) return { ok: false, error: `Unknown crawl strategy "${strategyName.slice(0, 60)}".` };
  const settings: CrawlSettings = {
    strategy: strategyName,
    params: cleanParams(s.params, info),
    maxPages: clampInt(s.maxPages, DEFAULT_SETTINGS.maxPages, SETTING_BOUNDS.maxPages),
    maxBuffer: clampInt(s.maxBuffer, DEFAULT_SETTINGS.maxBuffer, SETTING_BOUNDS.maxBuffer),
    politenessDelayMs: clampInt(s.politenessDelayMs, DEFAULT_SETTINGS.politenessDelayMs, SETTING_BOUNDS.politenessDelayMs),
    stayOnSeedSites: s.stayOnSeedSites === true,
    privateHosts: ticked,
    seed: clampInt(s.seed, now % SETTING_BOUNDS.seed.max || 1, SETTING_BOUNDS.seed),
  };

  const src = (typeof r.source === 'object' && r.source !== null ? r.source : {}) as Partial<SeedSource>;
  const source: SeedSource = {
    kind: SOURCE_KINDS.has(src.kind as SeedSource['kind']) ? (src.kind as SeedSource['kind']) : 'manual',
  };
  if (typeof src.engine === 'string' && src.engine) source.engine = src.engine.slice(0, 40);
  if (typeof src.query === 'string' && src.query) source.query = collapse(src.query).slice(0, MAX_TOPIC_LENGTH);
  const pageUrl = cleanSeed(src.pageUrl);
  if (pageUrl) source.pageUrl = pageUrl;

  const context = cleanContext(r.context);
  const pageLang = typeof r.pageLang === 'string' ? r.pageLang.slice(0, 40) : undefined;
  const topic: Topic = { keywords };
  if (typeof r.language === 'string' && isKnownLanguage(r.language)) topic.language = r.language;
  if (context.length) topic.context = context;
  if (r.allLanguages === true) topic.allLanguages = true;
  const name =
    typeof r.name === 'string' && collapse(r.name)
      ? collapse(r.name).slice(0, MAX_NAME_LENGTH)
      : keywords.slice(0, MAX_NAME_LENGTH);
  return { ok: true, value: { name, topic, hints: pageLang ? { pageLang } : {}, seeds, source, settings } };
}

/** Context pieces as the topic keeps them: strings only, whitespace collapsed, empty ones dropped, bounded. */
export function cleanContext(raw: unknown): string[] {
  if (!Array.isArray(raw)) return [];
  const out: string[] = [];
  for (const piece of raw) {
    if (typeof piece !== 'string') continue;
    const text = collapse(piece).slice(0, MAX_CONTEXT_CHARS);
    if (text) out.push(text);
    if (out.length >= MAX_CONTEXT_PIECES) break;
  }
  return out;
}

/** Two-letter codes of the languages whose stop words the tokenizer knows (the engine falls back to English). */
export const KNOWN_LANGUAGES: readonly string[] = (() => {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const codes = ['en'];
  for (const a of letters) for (const b of letters) if (stopwordLanguage(a + b) !== 'eng') codes.push(a + b);
  return codes.sort();
})();

/** True for a two-letter language code the tokenizer has stop words for. */
export function isKnownLanguage(code: string): boolean {
  return KNOWN_LANGUAGES.includes(code);
}

/** Host names of the seeds (lower case, unique): the allowed hosts when a crawl stays on the results' sites. */
export function seedHosts(seeds: string[]): string[] {
  const hosts = new Set<string>();
  for (const s of seeds) {
    try {
      hosts.add(new URL(s).hostname.toLowerCase());
    } catch {
      // validated earlier; ignore
    }
  }
  return [...hosts];
}

/** A start page's host that is not on the public web, as the start form lists it for the user to tick. */
export interface PrivateSeedHost {
  /** Host and port as URL.host writes them: `192.168.1.20:8080`, `intranet`. */
  host: string;
  kind: Exclude<HostKind, 'public'>;
  /** False for cloud metadata addresses: they cannot be ticked. */
  tickable: boolean;
}

/**
 * The seeds' hosts that are on the user's own network or computer (loopback, private, link-local, local names) or
 * are cloud metadata addresses, once each, in seed order. A results page can list any address as a "result", so
 * none of these is crawled unless the user ticks it; metadata addresses never are.
 */
export function privateSeedHosts(seeds: string[]): PrivateSeedHost[] {
  const out: PrivateSeedHost[] = [];
  for (const seed of seeds) {
    let url: URL;
    try {
      url = new URL(seed);
    } catch {
      continue;
    }
    const kind = hostKind(url.hostname);
    if (kind === 'public' || out.some((p) => p.host === url.host)) continue;
    out.push({ host: url.host, kind, tickable: kind !== 'metadata' });
  }
  return out;
}

/** The ticked hosts that are tickable private seed hosts (anything else in the request is dropped). */
function tickedPrivateHosts(raw: unknown, privateSeeds: PrivateSeedHost[]): string[] {
  if (!Array.isArray(raw)) return [];
  const wanted = new Set(raw.filter((h): h is string => typeof h === 'string').map((h) => h.trim().toLowerCase()));
  return privateSeeds.filter((p) => p.tickable && wanted.has(p.host)).map((p) => p.host);
}

/**
 * The URL rules of a crawl. Private, loopback and link-local addresses are refused (a web page must not steer the
 * crawler into the user's router), except the seed hosts the user ticked (host and port): then the user's own network
 * host is what they asked to crawl. Cloud metadata addresses are refused whatever was ticked.
 */
export function crawlPolicy(seeds: string[], settings: Pick<CrawlSettings, 'stayOnSeedSites' | 'privateHosts'>): UrlPolicy {
  const hosts = seedHosts(seeds);
  const policy: UrlPolicy = { allowPrivate: false };
  const privateHosts = tickedPrivateHosts(settings.privateHosts, privateSeedHosts(seeds));
  if (privateHosts.length) policy.privateHosts = privateHosts;
  if (settings.stayOnSeedSites) policy.allowedHosts = hosts;
  return policy;
}
