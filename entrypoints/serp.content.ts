/**
 * Reads the rendered search results page it is injected into (never re-fetching the engine) and returns the
 * extraction as the value of `scripting.executeScript`. Registered at runtime, not in the manifest: the background
 * injects it into the active tab when the popup opens (activeTab), so no search engine host permission is needed.
 */
import { extractSerp } from '../lib/app/serp/extract';

export default defineContentScript({
  registration: 'runtime',
  main() {
    try {
      const x = extractSerp(document, location.href);
      // Plain data only: it crosses into the extension as a structured clone.
      return {
        engine: x.engine,
        query: x.query,
        lang: document.documentElement.lang || undefined,
        results: x.results.map((r) => ({ url: r.url, title: r.title, snippet: r.snippet, rank: r.rank })),
        linkCount: x.linkCount,
      };
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
  },
});
