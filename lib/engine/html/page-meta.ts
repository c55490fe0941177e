/**
 * A page's metadata for the result list, read during the pass: published and modified dates from <meta> tags and
 * JSON-LD, og:title, and whether the first <h1> is the headline (the title again, left out of the main text).
 */
import { collapse } from './visible-text';

export const MAX_TITLE_CHARS = 500;
/** Longest date value kept from page metadata; JSON-LD text read per page. */
export const MAX_META_CHARS = 80;
export const MAX_LD_CHARS = 200_000;

/** Dates and title of a page's metadata, as given (dates unparsed: the UI parses and labels them). */
export interface PageMeta {
  published?: string;
  modified?: string;
  ogTitle?: string;
}

const PUBLISHED_META = new Set([
  'article:published_time',
  'og:published_time',
  'datepublished',
  'dc.date.issued',
  'dcterms.issued',
  'dcterms.created',
  'date',
]);
const MODIFIED_META = new Set(['article:modified_time', 'og:updated_time', 'datemodified', 'dcterms.modified', 'last-modified']);

/** <meta property|name|itemprop=... content=...>: published and modified dates, og:title. */
export function readMeta(meta: PageMeta, attribs: Record<string, string>): void {
  const key = (attribs.property ?? attribs.name ?? attribs.itemprop ?? '').trim().toLowerCase();
  const content = attribs.content?.trim();
  if (!key || !content) return;
  if (meta.published === undefined && PUBLISHED_META.has(key)) meta.published = content.slice(0, MAX_META_CHARS);
  else if (meta.modified === undefined && MODIFIED_META.has(key)) meta.modified = content.slice(0, MAX_META_CHARS);
  else if (meta.ogTitle === undefined && key === 'og:title') meta.ogTitle = collapse(content).slice(0, MAX_TITLE_CHARS);
}

/** JSON-LD (schema.org): the first datePublished / dateModified anywhere in it (@graph, arrays, nested objects). */
export function readJsonLd(meta: PageMeta, text: string): void {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return; // several blocks run together, or broken JSON: metadata is optional
  }
  const stack: unknown[] = [data];
  for (let seen = 0; stack.length > 0 && seen < 2000; seen++) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push(node[i]);
    } else if (node && typeof node === 'object') {
      const o = node as Record<string, unknown>;
      if (meta.published === undefined && typeof o.datePublished === 'string' && o.datePublished.trim())
        meta.published = o.datePublished.trim().slice(0, MAX_META_CHARS);
      if (meta.modified === undefined && typeof o.dateModified === 'string' && o.dateModified.trim())
        meta.modified = o.dateModified.trim().slice(0, MAX_META_CHARS);
      for (const v of Object.values(o)) if (v && typeof v === 'object') stack.push(v);
    }
  }
}

/**
 * Whether a page's first <h1> is its headline, the title again: most of its words are in the <title> or og:title.
 * The article's body, as a reader (or schema.org's articleBody) takes it, starts below it.
 */
export function isHeadline(h1: string, title: string, ogTitle: string | undefined): boolean {
  const words = h1.toLowerCase().match(WORD) ?? [];
  if (words.length === 0) return false;
  const titled = new Set(`${title} ${ogTitle ?? ''}`.toLowerCase().match(WORD) ?? []);
  let found = 0;
  for (const w of words) if (titled.has(w)) found++;
  return found >= HEADLINE_SHARE * words.length;
}
const WORD = /[\p{L}\p{N}]+/gu;
/** Share of the <h1>'s words found in the title for it to be the headline. */
const HEADLINE_SHARE = 0.75;
