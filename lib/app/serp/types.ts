/**
 * Search-results-page vocabulary. Engines are described as plain data (EngineSpec), in the spirit of uBlacklist's
 * per-engine files: when an engine changes its markup, its data file changes, not the extractor. `schema.ts` checks
 * every engine file against this shape (CSS selectors included) in the unit tests and at build time.
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
  /** Extra decoding after the usual percent-decoding: 'base64url' (URL-safe or standard base64, padding optional, UTF-8). */
  decode?: 'base64url';
  /**
   * The wrapper's target cannot be read from the link (Baidu's `/link?url=<opaque token>`): the link is kept as a
   * seed marked `redirect`, to be resolved with one request (resolve-redirect.ts). `param`/`pathSegment` then name
   * where the token is, so that a link without one is not taken for a wrapper.
   */
  opaque?: true;
}

/** An attribute of a result link (or of an element around it, up to its result block) holding the real target. */
export interface TargetAttribute {
  /** Attribute name, e.g. 'data-mdurl' (360), 'data-url', 'mu'. */
  name: string;
  /** Only on links matching this selector (default: any result link). */
  on?: string;
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
     * results wins (a selector list such as '#a, #b' takes both regions, in page order). Containers inside another
     * matched container are ignored.
     */
    container: string[];
    /** Title elements inside a container (each title is one result); per container the first selector that matches is used. */
    title: string[];
    /** Elements inside a title that are not part of its text (a URL breadcrumb the engine draws above the title). */
    titleExclude?: string[];
    /** The result's link when the title is neither inside nor around one. */
    link: string[];
    /** The result's description (when none matches, the longest link-free text of the result is taken). */
    snippet: string[];
  };
  /** Blocks that are never organic results: ads, "people also ask", carousels, related searches. */
  exclude: string[];
  /**
   * Headings of modules that are not organic results although their items look like results (Google's
   * "Discussions and forums", "Top stories"): the block a heading opens (its nearest ancestor holding result titles,
   * none of them before the heading, at most three levels up) is left out.
   */
  sectionHeadings?: string[];
  /** Markers that, found inside a result, make it an ad (e.g. a "Sponsored" label). */
  adMarkers?: string[];
  /** How the engine wraps result links. */
  redirect?: RedirectRule[];
  /** Attributes holding a wrapped link's real target (read before the href is unwrapped). */
  targetAttributes?: TargetAttribute[];
  /**
   * Path prefixes that are the engine's own navigation on its results hosts (`hosts`): redirects, verticals,
   * settings. Links there are never seeds; nor are links to `paths` there, nor any known engine's results page
   * with a query. Elsewhere the engine's own sites are organic results like any other (a search for "google" finds
   * www.google.com/maps and support.google.com).
   */
  navigationPaths?: string[];
  /** Domains the engine serves its furniture from (images, caches, trackers; subdomains included): never seeds. */
  serviceDomains?: string[];
  /**
   * Pages that stand in for a results page and show none (a bot check, a consent wall), recognised by their markup
   * on the engine's results path: the answer says why nothing was read.
   */
  blocked?: { challenge?: string[]; consent?: string[]; noResults?: string[] };
  /** Bot-challenge pages ("unusual traffic"): they show no results; the query is in the URL they continue to. */
  challenge?: {
    /** Paths of the challenge page (matched like `paths`). */
    paths: string[];
    /** Query parameter holding the URL of the results page the challenge stands in for. */
    continueParam: string;
  };
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
  /**
   * True when `url` is the engine's own redirect link (its target is not readable from the page, e.g. Baidu's
   * `/link?url=<token>`): resolve it with `resolveRedirect` (resolve-redirect.ts) before crawling from it.
   */
  redirect?: true;
}

/**
 * Why a page gave no results: 'challenge' (a bot check), 'consent' (a cookie or consent wall in front of the results),
 * 'no-results' (the engine found nothing), 'unreadable' (neither engine data nor structure found results).
 */
export type SerpBlocked = 'challenge' | 'consent' | 'no-results' | 'unreadable';

/** A link the user can see on a page that gave no results: offered as seeds of their own ("crawl from here"). */
export interface VisibleLink {
  url: string;
  /** Its visible text ('' when it has none). */
  text: string;
}

/** What the extractor makes of a results page. */
export interface SerpExtraction {
  /** EngineSpec.id, or null when the page's engine is unknown. */
  engine: string | null;
  /** EngineSpec.name ('Google'), or null on an unknown engine's page (read by structure). */
  engineName: string | null;
  /** The search query, whitespace-collapsed ('' when none was found). */
  query: string;
  /** Organic results in page order, deduplicated by canonical URL, visible ones only, at most `maxResults`. */
  results: SerpResult[];
  /** Number of links (a[href]) on the page, for diagnostics ("10 results among 143 links"). */
  linkCount: number;
  /** 'engine': the engine's selectors found the results; 'fallback': the structural fallback did. */
  via: 'engine' | 'fallback';
  /** True on a bot-challenge page (no results; `query` is the one the challenge stands in for). */
  challenge: boolean;
  /** Result links left out because the user cannot see them (hidden, zero-size, off-screen, aria-hidden). */
  hidden: number;
  /** Results left out beyond the cap (a results page has tens of results, not hundreds). */
  overCap: number;
  /** How many results are redirect links kept for resolving (SerpResult.redirect). */
  redirects: number;
  /** Set when no result was read: why. */
  blocked?: SerpBlocked;
  /**
   * When no result was read: the page's visible http(s) links outside its own site and navigation, in page order,
   * deduplicated, at most 100: what the user may start from instead.
   */
  visibleLinks?: VisibleLink[];
}

/** How the extractor sees the page beyond its markup. */
export interface ExtractOptions {
  /**
   * Whether the user can see an element. The default tells what the markup alone says (`markupVisible`: the
   * `hidden` attribute or inline `display:none` on it or an ancestor, inline `visibility:hidden` or `opacity:0` on
   * it); the content script passes a check of the rendered page (`isRendered`: computed style, size, position).
   * `aria-hidden` on a result's own block is always checked.
   */
  isVisible?: (el: Element) => boolean;
  /** At most this many results (default: 100, the most results any engine serves on one page). */
  maxResults?: number;
  /** The engine data to read with (default: every known engine, ENGINES); tests leave engines out with it. */
  engines?: readonly EngineSpec[];
}
