/**
 * Reads the rendered search results page it is injected into (never re-fetching the engine) and returns the
 * extraction as the value of `scripting.executeScript({ files: ['/serp-reader.js'] })`. The background injects it
 * into the active tab when the popup opens (activeTab), so no search engine host permission is needed.
 *
 * An unlisted script, not a WXT content script: WXT's content-script wrapper announces every start to the page
 * (a `postMessage(..., '*')` and a DOM event, both carrying the extension's id), which told any results page that
 * Forager was installed and when its popup opened. This script only reads the DOM: it dispatches, posts and
 * writes nothing the page can observe.
 */
import { extractRendered } from '../lib/app';

export default defineUnlistedScript(() => {
  try {
    const x = extractRendered(document, location.href, window);
    // Plain data only: it crosses into the extension as a structured clone.
    return {
      engine: x.engine,
      engineName: x.engineName,
      query: x.query,
      lang: document.documentElement.lang || undefined,
      results: x.results.map((r) => ({ url: r.url, title: r.title, snippet: r.snippet, rank: r.rank })),
      linkCount: x.linkCount,
      challenge: x.challenge,
      hidden: x.hidden,
      overCap: x.overCap,
      blocked: x.blocked,
      visibleLinks: x.visibleLinks?.map((l) => ({ url: l.url, text: l.text })),
    };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
});
