/**
 * Search-results-page vocabulary. Engines are described as plain data (EngineSpec), in the spirit of uBlacklist's
 * per-engine files: when an engine changes its markup, its data file changes, not the extractor.
 */

/**
 * How an engine wraps outgoing result links, and how to get the target back. A rule applies to a link whose host
 * matches `hosts` (default: the engine's own `hosts`) and whose path starts with `pathPrefix` (if given).
 * Exactly one of `param` / `pathSegment` says where the target is.
 */
export interface RedirectRule {
  /** Host patterns of the wrapper link (see EngineSpec.hosts); default: the engine's hosts. */
  hosts?: string[];
  /** Only paths starting with this, e.g. '/url' (Google), '/ck/a' (Bing), '/l/' (DuckDuckGo). */
  pathPrefix?: string;
  /** Query parameter holding the target, e.g. 'q', 'u', 'uddg'. */
  param?: string;
  /** Path segment marker holding the percent-encoded target up to the next '/', e.g. 'RU=' (Yahoo). */
  pathSegment?: string;
  /** A prefix the value must start with; it is stripped before decoding (Bing: 'a1'). */
  prefix?: string;
  /** Extra decoding after the usual percent-decoding: 'base64url' (URL-safe base64, padding optional, UTF-8). */
  decode?: 'base64url';
}

/** One search engine, as data. All selectors are CSS selectors, listed most specific first. */
export interface EngineSpec {
  /** Stable identifier, e.g. 'google'. */
  id: string;
  /** Display name, e.g. 'Google'. */
  name: string;
  /**
   * Host patterns of its results pages. '*.' at the start stands for any number of subdomain labels (including
   * none); '.*' at the end for a country TLD ('com', 'de', 'co.uk', 'com.au').
   */
  hosts: string[];
  /** Results paths: '/search' also matches '/search/...' and '/search;...'; a path ending in '/' matches its subtree, '/' only itself. */
  paths: string[];
  /** URL parameters carrying the query, in order of preference. */
  queryParam: string[];
  /** Search-box selectors to read the query from when the URL has none (POSTed forms). Default: input/textarea named like queryParam. */
  queryInput?: string[];
  results: {
    /**
     * Elements holding organic results: one result each, or a whole results region. The first selector that yields
     * results wins. Containers inside another matched container are ignored.
     */
    container: string[];
    /** Title elements inside a container (each title is one result); per container the first selector that matches is used. */
    title: string[];
    /** The result's link when the title is neither inside nor around one. */
    link: string[];
    /** The result's description. */
    snippet: string[];
  };
  /** Blocks that are never organic results: ads, "people also ask", carousels, related searches. */
  exclude: string[];
  /** Markers that, found inside a result, make it an ad (e.g. a "Sponsored" label). */
  adMarkers?: string[];
  /** How the engine wraps result links. */
  redirect?: RedirectRule[];
  /**
   * Domains that belong to the engine (patterns as in `hosts`; subdomains included): links there are never seeds.
   * The host of the results page itself always counts.
   */
  ownDomains?: string[];
}

/** One organic result. */
export interface SerpResult {
  /** Canonical target URL (redirect wrappers removed). */
  url: string;
  /** Visible title text (never HTML). */
  title: string;
  /** Visible description text, '' when none was found. */
  snippet: string;
  /** 1-based position among the extracted results. */
  rank: number;
}

/** What the extractor makes of a results page. */
export interface SerpExtraction {
  /** EngineSpec.id, or null when the page's engine is unknown. */
  engine: string | null;
  /** The search query, whitespace-collapsed ('' when none was found). */
  query: string;
  /** Organic results in page order, deduplicated by canonical URL. */
  results: SerpResult[];
  /** Number of links (a[href]) on the page, for diagnostics ("10 results among 143 links"). */
  linkCount: number;
  /** 'engine': the engine's selectors found the results; 'fallback': the structural fallback did. */
  via: 'engine' | 'fallback';
}
