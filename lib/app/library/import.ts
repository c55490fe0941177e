/**
 * Import of Forager's JSON export (lib/app/export/json.ts), the reverse of it: a crawl moved to another browser or
 * machine. The file is untrusted: it is checked whole against a schema (valibot) before anything is stored, so a bad
 * file is refused with the reason and changes nothing. Every field must have its type and a bounded size, every page
 * URL (and seed, and referrer) must be http(s), and text (titles, snippets, main text, names, skip details) goes
 * through lib/app/rules/text-safety as page text always does: control, escape-sequence and bidi-override characters are
 * removed; markup in a title stays text (the UI renders text only). Keys the export does not have are dropped, and
 * any leave to fetch private hosts is emptied (`privateHosts`, `fetch.allowPrivate`): that is given in this browser only.
 */
import * as v from 'valibot';
import { MAX_VALIDATOR_CHARS, type PageResult, type SkipRecord } from '../../engine';
import { JSON_FORMAT, JSON_VERSION } from '../export/json';
import { MAX_NAME_LENGTH, MAX_RETRIES, MAX_SEEDS } from '../rules/settings';
import { settingsProblems } from '../rules/settings-bounds';
import { MAX_HIDDEN_SITES, MAX_SITE_CHARS } from '../rules/feedback';
import { RECORD_VERSION, type CrawlRecord } from '../model/records';
import { oneLine } from '../rules/text-safety';

/** Largest file taken (the UI checks the file's size before reading it; the background checks the text again). */
export const MAX_IMPORT_BYTES = 32 * 1024 * 1024;
const MAX_PAGES = 100_000;
const MAX_SKIPS = 500_000;
const MAX_URL = 8192;

const finite = v.pipe(v.number(), v.finite());
const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const isHttp = (s: string): boolean => {
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
};
const httpUrl = v.pipe(v.string(), v.maxLength(MAX_URL), v.check(isHttp, 'not an http(s) URL'));
const text = (max: number) => v.pipe(v.string(), v.maxLength(max));

/** A term vector (a page's profile, a topic's feedback): stemmed terms, bounded in number. */
const TermVectorSchema = v.pipe(
  v.record(text(200), finite),
  v.check((t) => Object.keys(t).length <= 200, 'too many terms'),
);

const TopicSchema = v.object({
  keywords: text(1000),
  language: v.optional(text(35)),
  allLanguages: v.optional(v.boolean()),
  context: v.optional(v.pipe(v.array(text(5000)), v.maxLength(200))),
  weights: v.optional(v.object({ expansion: v.optional(finite), boilerplate: v.optional(finite) })),
  feedback: v.optional(TermVectorSchema),
});

const JudgementSchema = v.object({
  url: httpUrl,
  value: v.picklist([1, -1]),
  terms: TermVectorSchema,
  at: finite,
});

const StatsSchema = v.object({
  pagesEvaluated: count,
  maxPages: count,
  errors: count,
  frontierSize: count,
  fetchesInFlight: count,
  elapsedMs: finite,
  meanScore: finite,
  linksRefused: v.optional(count),
  notModified: v.optional(count),
  retried: v.optional(count),
  waiting: v.optional(v.object({ site: text(MAX_URL), until: finite })),
  timings: v.optional(v.object({ fetchMs: finite, evaluateMs: finite, strategyMs: finite })),
});

const SettingsSchema = v.object({
  strategy: text(100),
  params: v.pipe(
    v.record(text(100), v.union([finite, text(1000), v.boolean()])),
    v.check((p) => Object.keys(p).length <= 50, 'too many strategy parameters'),
  ),
  maxPages: count,
  maxBuffer: count,
  politenessDelayMs: finite,
  stayOnSeedSites: v.boolean(),
  privateHosts: v.optional(v.pipe(v.array(text(300)), v.maxLength(MAX_SEEDS))),
  seed: finite,
  fetch: v.optional(
    v.object({
      concurrency: count,
      timeoutMs: finite,
      maxBytes: count,
      respectRobots: v.boolean(),
      allowPrivate: v.boolean(),
      privateHosts: v.optional(v.pipe(v.array(text(300)), v.maxLength(MAX_SEEDS))),
      retries: v.optional(v.pipe(count, v.maxValue(MAX_RETRIES))),
    }),
  ),
});

const WatchCheckSchema = v.object({
  startedAt: finite,
  since: finite,
  trigger: v.picklist(['manual', 'schedule']),
  endedAt: v.optional(finite),
  outcome: v.optional(v.picklist(['done', 'stopped', 'error'])),
  newPages: v.optional(count),
  changedPages: v.optional(count),
  notModified: v.optional(count),
  newRelevant: v.optional(count),
});

const WatchSchema = v.object({
  schedule: v.picklist(['daily', 'weekly']),
  createdAt: finite,
  nextDueAt: finite,
  check: v.optional(WatchCheckSchema),
  seen: v.optional(v.boolean()),
  skipped: v.optional(v.object({ at: finite, reason: v.picklist(['metered', 'battery']) })),
});

const RecordSchema = v.object({
  version: v.literal(RECORD_VERSION),
  id: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  name: text(1000),
  topic: TopicSchema,
  seeds: v.pipe(v.array(httpUrl), v.minLength(1), v.maxLength(MAX_SEEDS)),
  source: v.object({
    kind: v.picklist(['serp', 'page', 'link', 'selection', 'manual']),
    engine: v.optional(text(100)),
    query: v.optional(text(1000)),
    pageUrl: v.optional(httpUrl),
  }),
  settings: SettingsSchema,
  status: v.picklist(['running', 'paused', 'stopped', 'done', 'error']),
  error: v.optional(text(5000)),
  createdAt: finite,
  updatedAt: finite,
  stats: StatsSchema,
  pinned: v.optional(v.boolean()),
  watch: v.optional(WatchSchema),
  judgements: v.optional(v.pipe(v.array(JudgementSchema), v.maxLength(MAX_PAGES))),
  hiddenSites: v.optional(v.pipe(v.array(text(MAX_SITE_CHARS)), v.maxLength(MAX_HIDDEN_SITES))),
  refusedHosts: v.optional(
    v.object({
      privateAddress: count,
      notContacted: count,
      examples: v.pipe(v.array(v.object({ host: text(MAX_SITE_CHARS), detail: text(1000) })), v.maxLength(10)),
    }),
  ),
});

const PageSchema = v.object({
  url: httpUrl,
  title: text(2000),
  snippet: text(5000),
  mainText: v.optional(text(20_000)),
  score: finite,
  depth: count,
  from: v.optional(httpUrl),
  fetchedAt: finite,
  lastModified: v.optional(text(MAX_VALIDATOR_CHARS.lastModified)),
  etag: v.optional(text(MAX_VALIDATOR_CHARS.etag)),
  contentHash: v.optional(text(100)),
  firstSeenAt: v.optional(finite),
  changedAt: v.optional(finite),
  published: v.optional(text(200)),
  modified: v.optional(text(200)),
  ogTitle: v.optional(text(2000)),
  h1: v.optional(text(2000)),
  isSeed: v.boolean(),
  noindex: v.optional(v.boolean()),
  profile: v.optional(v.object({ terms: TermVectorSchema, cosine: finite })),
});

const SkipSchema = v.object({
  // Skipped URLs may be anything a page linked to (mailto:, javascript:): kept as text, never as a link.
  url: v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_URL)),
  reason: v.picklist([
    'url-refused',
    'robots',
    'http-error',
    'not-html',
    'timeout',
    'network',
    'redirect',
    'aborted',
    'evaluation',
  ]),
  detail: text(5000),
  at: finite,
});

const ExportSchema = v.object({
  format: v.literal(JSON_FORMAT),
  version: v.literal(JSON_VERSION),
  exportedAt: text(100),
  crawl: RecordSchema,
  pages: v.pipe(v.array(PageSchema), v.maxLength(MAX_PAGES)),
  skips: v.pipe(v.array(SkipSchema), v.maxLength(MAX_SKIPS)),
});

/**
 * The schemas describe exactly the stored types: a field added to CrawlRecord, PageResult or SkipRecord fails to
 * compile here until the schema knows it (an unknown key would otherwise be dropped silently on import).
 */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Same type and the same keys (an optional field missing from a schema still passes `Same`). */
type Exact<A, B> = Same<A, B> extends true ? Same<keyof A, keyof B> : false;
type Out<S extends v.GenericSchema> = v.InferOutput<S>;
type Record_ = Out<typeof RecordSchema>;
const schemasMatchTypes: [
  Exact<Record_, CrawlRecord>,
  Exact<Record_['topic'], CrawlRecord['topic']>,
  Exact<NonNullable<Record_['topic']['weights']>, NonNullable<CrawlRecord['topic']['weights']>>,
  Exact<Record_['source'], CrawlRecord['source']>,
  Exact<Record_['settings'], CrawlRecord['settings']>,
  Exact<NonNullable<Record_['settings']['fetch']>, NonNullable<CrawlRecord['settings']['fetch']>>,
  Exact<Record_['stats'], CrawlRecord['stats']>,
  Exact<NonNullable<Record_['stats']['timings']>, NonNullable<CrawlRecord['stats']['timings']>>,
  Exact<NonNullable<Record_['watch']>, NonNullable<CrawlRecord['watch']>>,
  Exact<NonNullable<NonNullable<Record_['watch']>['check']>, NonNullable<NonNullable<CrawlRecord['watch']>['check']>>,
  Exact<Out<typeof PageSchema>, PageResult>,
  Exact<NonNullable<Out<typeof PageSchema>['profile']>, NonNullable<PageResult['profile']>>,
  Exact<NonNullable<Record_['judgements']>[number], NonNullable<CrawlRecord['judgements']>[number]>,
  Exact<Out<typeof SkipSchema>, SkipRecord>,
  Exact<NonNullable<Record_['refusedHosts']>, NonNullable<CrawlRecord['refusedHosts']>>,
] = [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true];
void schemasMatchTypes;

/** A crawl read from an export, ready to store. */
export interface ImportedCrawl {
  record: CrawlRecord;
  pages: PageResult[];
  skips: SkipRecord[];
}

/** Why a file was refused, for the user. */
export class ImportError extends Error {
  override name = 'ImportError';
}

/** Reads a JSON export. Throws an ImportError saying what is wrong (the first few problems) when it is not one. */
export function parseCrawlExport(json: string): ImportedCrawl {
  if (typeof json !== 'string') throw new ImportError('Nothing to import.');
  if (json.length > MAX_IMPORT_BYTES) {
    throw new ImportError(`The file is too large to import (over ${MAX_IMPORT_BYTES / 1024 / 1024} MB).`);
  }
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (error) {
    throw new ImportError(`The file is not JSON (${error instanceof Error ? error.message : String(error)}).`);
  }
  const format = (data as { format?: unknown } | null)?.format;
  if (format !== JSON_FORMAT) throw new ImportError('The file is not a Forager crawl export (JSON).');
  const version = (data as { version?: unknown }).version;
  if (typeof version === 'number' && version > JSON_VERSION) {
    throw new ImportError('The file was exported by a newer version of Forager.');
  }
  const result = v.safeParse(ExportSchema, data, { abortPipeEarly: true });
  if (!result.success) {
    const problems = result.issues.slice(0, 3).map((issue) => `${v.getDotPath(issue) ?? 'the file'}: ${issue.message}`);
    const more = result.issues.length > 3 ? ` (and ${result.issues.length - 3} more)` : '';
    throw new ImportError(`The file is not a valid Forager export: ${problems.join('; ')}${more}.`);
  }
  const doc = result.output;
  const outOfBounds = settingsProblems(doc.crawl.settings);
  if (outOfBounds.length) {
    throw new ImportError(`The file's crawl settings are out of bounds: ${outOfBounds.slice(0, 3).join('; ')}.`);
  }
  // Leave to reach the user's own network is given in this browser, never by a file: emptied on import.
  // (Values replaced in place: the keys keep their order, so the crawl exports again to the same file.)
  const noPrivateHosts = <T extends object>(o: T): T =>
    Object.fromEntries(Object.entries(o).map(([k, x]) => [k, k === 'privateHosts' ? [] : k === 'allowPrivate' ? false : x])) as T;
  const settings = noPrivateHosts(doc.crawl.settings);
  if (settings.fetch) settings.fetch = noPrivateHosts(settings.fetch);
  const record: CrawlRecord = {
    ...doc.crawl,
    settings,
    name: oneLine(doc.crawl.name).slice(0, MAX_NAME_LENGTH),
    topic: {
      ...doc.crawl.topic,
      keywords: oneLine(doc.crawl.topic.keywords),
      ...(doc.crawl.topic.context ? { context: doc.crawl.topic.context.map(oneLine) } : {}),
    },
    // Nothing runs it in this browser: a crawl exported while running is imported stopped (resumable needs a
    // checkpoint, which exports do not carry; Resume starts it again from its seeds).
    status: doc.crawl.status === 'running' ? 'stopped' : doc.crawl.status,
    ...(doc.crawl.error !== undefined ? { error: oneLine(doc.crawl.error) } : {}),
  };
  // A watch fetches on its own schedule: set up in this browser, never by a file.
  delete record.watch;
  if (!record.topic.keywords) throw new ImportError('The file is not a valid Forager export: the crawl has no topic.');
  const pages: PageResult[] = doc.pages.map((p) => ({
    ...p,
    title: oneLine(p.title),
    snippet: oneLine(p.snippet),
    ...(p.mainText !== undefined ? { mainText: oneLine(p.mainText) } : {}),
    ...(p.ogTitle !== undefined ? { ogTitle: oneLine(p.ogTitle) } : {}),
    ...(p.h1 !== undefined ? { h1: oneLine(p.h1) } : {}),
    ...(p.published !== undefined ? { published: oneLine(p.published) } : {}),
    ...(p.modified !== undefined ? { modified: oneLine(p.modified) } : {}),
  }));
  const skips: SkipRecord[] = doc.skips.map((s) => ({ ...s, detail: oneLine(s.detail) }));
  return { record, pages, skips };
}
