/**
 * In-memory CrawlStore for tests and a command-line crawl without --save. Behaves like the IndexedDB store: values
 * are structured-cloned on the way in and out (callers can never alias stored data), the same inputs are rejected,
 * and results come back in the same order the IndexedDB indexes produce. The file store keeps its data in one.
 */
import type { CrawlCheckpoint, PageResult, SkipRecord } from '../../engine';
import {
  bestFirst,
  checkCrawl,
  checkCheckpoint,
  checkId,
  checkPages,
  checkProgress,
  checkSearchIndex,
  checkSkips,
  checkUrls,
  mergePatch,
  newestFirst,
  oldestFirst,
  sliceWindow,
} from './common';
import type { CrawlRecord, CrawlStore, SearchIndexRecord } from '../model/records';

/** Creates an empty in-memory CrawlStore. Nothing survives the process. */
export function createMemoryStore(): CrawlStore {
  const crawls = new Map<string, CrawlRecord>();
  const pages = new Map<string, Map<string, PageResult>>();
  const skips = new Map<string, Map<string, SkipRecord>>();
  const checkpoints = new Map<string, CrawlCheckpoint>();
  const searchIndexes = new Map<string, SearchIndexRecord>();

  const bucket = <T>(all: Map<string, Map<string, T>>, crawlId: string): Map<string, T> => {
    let m = all.get(crawlId);
    if (!m) all.set(crawlId, (m = new Map()));
    return m;
  };

  return {
    async putCrawl(record) {
      checkCrawl(record);
      crawls.set(record.id, structuredClone(record));
    },

    async getCrawl(id) {
      checkId(id);
      const r = crawls.get(id);
      return r === undefined ? undefined : structuredClone(r);
    },

    async listCrawls() {
      return structuredClone([...crawls.values()].sort(newestFirst));
    },

    async updateCrawl(id, patch) {
      checkId(id);
      const current = crawls.get(id);
      if (!current) return undefined;
      // Clone first: a patch that cannot be cloned must leave the record untouched, as an aborted transaction would.
      const merged = structuredClone(mergePatch(current, patch));
      crawls.set(id, merged);
      return structuredClone(merged);
    },

    async deleteCrawl(id) {
      checkId(id);
      crawls.delete(id);
      pages.delete(id);
      skips.delete(id);
      checkpoints.delete(id);
      searchIndexes.delete(id);
    },

    async deleteAll() {
      crawls.clear();
      pages.clear();
      skips.clear();
      checkpoints.clear();
      searchIndexes.clear();
    },

    async addPages(crawlId, list) {
      checkPages(crawlId, list);
      const copies = structuredClone(list); // all or nothing, like one transaction
      const m = bucket(pages, crawlId);
      for (const p of copies) m.set(p.url, p);
    },

    async getPages(crawlId, window) {
      checkId(crawlId);
      return structuredClone(sliceWindow([...(pages.get(crawlId)?.values() ?? [])].sort(bestFirst), window));
    },

    async countPages(crawlId) {
      checkId(crawlId);
      return pages.get(crawlId)?.size ?? 0;
    },

    async deletePages(crawlId, urls) {
      checkUrls(crawlId, urls);
      const m = pages.get(crawlId);
      if (m) for (const url of urls) m.delete(url);
    },

    async addSkips(crawlId, list) {
      checkSkips(crawlId, list);
      const copies = structuredClone(list);
      const m = bucket(skips, crawlId);
      for (const s of copies) m.set(s.url, s);
    },

    async getSkips(crawlId, window) {
      checkId(crawlId);
      return structuredClone(sliceWindow([...(skips.get(crawlId)?.values() ?? [])].sort(oldestFirst), window));
    },

    async countSkips(crawlId) {
      checkId(crawlId);
      return skips.get(crawlId)?.size ?? 0;
    },

    async saveCheckpoint(crawlId, checkpoint) {
      checkCheckpoint(crawlId, checkpoint);
      checkpoints.set(crawlId, structuredClone(checkpoint));
    },

    async saveProgress(crawlId, progress) {
      checkProgress(crawlId, progress);
      // Validate and clone everything before touching anything: all or nothing, like one transaction.
      const current = crawls.get(crawlId);
      const merged = current && progress.patch ? structuredClone(mergePatch(current, progress.patch)) : undefined;
      const copies = structuredClone({ pages: progress.pages, skips: progress.skips, checkpoint: progress.checkpoint });
      const pageBucket = bucket(pages, crawlId);
      for (const p of copies.pages) pageBucket.set(p.url, p);
      const skipBucket = bucket(skips, crawlId);
      for (const s of copies.skips) skipBucket.set(s.url, s);
      if (copies.checkpoint === null) checkpoints.delete(crawlId);
      else checkpoints.set(crawlId, copies.checkpoint);
      if (merged) crawls.set(crawlId, merged);
    },

    async getCheckpoint(crawlId) {
      checkId(crawlId);
      const c = checkpoints.get(crawlId);
      return c === undefined ? undefined : structuredClone(c);
    },

    async getSearchIndex(crawlId) {
      checkId(crawlId);
      const r = searchIndexes.get(crawlId);
      return r === undefined ? undefined : { ...r };
    },

    async putSearchIndex(record) {
      checkSearchIndex(record);
      if (!crawls.has(record.crawlId)) return;
      searchIndexes.set(record.crawlId, { ...record });
    },
  };
}
