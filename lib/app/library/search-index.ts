/**
 * One crawl's full-text index (a segment of the library): MiniSearch over the titles, snippets and main texts of the
 * crawl's pages, keyed by URL. A segment per crawl keeps every write small (only the crawl that gets pages is saved
 * again), makes deleting a crawl or applying retention dropping its segment, and lets the library load segments
 * independently. The price: each segment ranks with its own term statistics (BM25's document frequencies), so a word
 * rare in one crawl weighs more there than in a crawl full of it.
 */
import MiniSearch, { type Options, type SearchResult } from 'minisearch';
import type { PageResult } from '../../engine';
import type { LibraryHit } from '../model/views';

/** Layout of a serialized segment; a stored segment of another layout is rebuilt from the crawl's pages. */
export const INDEX_VERSION = 1;

/** One page as the index holds it. */
interface IndexedPage {
  url: string;
  title: string;
  snippet: string;
  mainText: string;
  pageScore: number;
  fetchedAt: number;
}

/** Stored with each entry, so a hit is shown without reading the page from the store. */
const STORED_FIELDS = ['title', 'snippet', 'pageScore', 'fetchedAt'] as const;

const OPTIONS: Options<IndexedPage> = {
  idField: 'url',
  fields: ['title', 'snippet', 'mainText'],
  storeFields: [...STORED_FIELDS],
  searchOptions: {
    boost: { title: 3, snippet: 1.5 },
    // Every word must occur; the last one may be a prefix of a word (typing "photo" finds "photovoltaic").
    combineWith: 'AND',
    prefix: (term, i, terms) => i === terms.length - 1 && term.length >= 3,
  },
};

/** A search hit inside one segment: a library hit without its crawl, with the query words found in the page. */
export type SegmentHit = Omit<LibraryHit, 'crawlId'> & { terms: string[] };

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Bytes a page takes as stored (its JSON), for retention by size. */
export function pageBytes(page: PageResult): number {
  return JSON.stringify(page).length;
}

export class SearchIndex {
  private constructor(
    private readonly index: MiniSearch<IndexedPage>,
    /** Approximate bytes of the pages indexed (their JSON). */
    public bytes: number,
  ) {}

  static empty(): SearchIndex {
    return new SearchIndex(new MiniSearch(OPTIONS), 0);
  }

  /** A segment from its serialized form (throws on data that is not one). */
  static load(data: string, bytes: number): SearchIndex {
    return new SearchIndex(MiniSearch.loadJSON(data, OPTIONS), bytes);
  }

  get size(): number {
    return this.index.documentCount;
  }

  has(url: string): boolean {
    return this.index.has(url);
  }

  /** Adds pages; a page already indexed (same URL) is replaced. */
  add(pages: readonly PageResult[]): void {
    for (const page of pages) {
      const doc: IndexedPage = {
        url: page.url,
        title: text(page.title),
        snippet: text(page.snippet),
        mainText: text(page.mainText),
        pageScore: page.score,
        fetchedAt: page.fetchedAt,
      };
      if (this.index.has(page.url)) this.index.replace(doc);
      else {
        this.index.add(doc);
        this.bytes += pageBytes(page);
      }
    }
  }

  /** Drops pages (a watch kept under its cap); pages not indexed are ignored. */
  remove(pages: readonly PageResult[]): void {
    for (const page of pages) {
      if (!this.index.has(page.url)) continue;
      this.index.discard(page.url);
      this.bytes = Math.max(0, this.bytes - pageBytes(page));
    }
  }

  search(query: string, limit: number): SegmentHit[] {
    const results: SearchResult[] = this.index.search(query);
    return results.slice(0, limit).map((r) => ({
      url: String(r.id),
      title: text(r.title),
      snippet: text(r.snippet),
      pageScore: Number(r.pageScore),
      fetchedAt: Number(r.fetchedAt),
      rank: r.score,
      terms: r.terms,
    }));
  }

  serialize(): string {
    return JSON.stringify(this.index);
  }
}
