/** The entry of readerBundle (reader-bundle.ts): the reader, on globalThis, for tests that evaluate it in a page. */
import { extractSerp } from '../../lib/app/serp/extract';
import { extractRendered } from '../../lib/app/serp/rendered';

(globalThis as unknown as { __foragerRead: unknown }).__foragerRead = (url: string, markupOnly = false) => {
  const x = markupOnly ? extractSerp(document, url) : extractRendered(document, url, window);
  return { engine: x.engine, urls: x.results.map((r) => r.url), hidden: x.hidden };
};
