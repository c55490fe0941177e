/**
 * Main content over boilerplate: where an element puts its text (zoneOf: navigation, site chrome, asides, comments
 * and banners by tag, landmark role and class / id names; the page's main region), which boilerplate zones are
 * really the page's wrapper or content (settleZones, from the OpenZones the pass keeps), which lists are teasers
 * rather than a round-up (TeaserFrames, markTeasers), and each run's weight for a boilerplate weight (weighRuns).
 */

export const F_BOILER = 8;
export const F_MAIN = 16;
/** A boilerplate zone whose names match both word lists: boilerplate only if its content is mostly links. */
export const F_MIXED = 256;

/** A block whose share of tokens inside links exceeds this is a link list (navigation), weighted as boilerplate. */
const LINK_DENSITY = 0.5;
/** A main region counts once it holds this share of the page's tokens (a lone <main> heading does not). */
const MAIN_SHARE = 0.2;

/** Landmark roles that are not the page's own content. */
const BOILER_ROLES = new Set([
  'navigation',
  'banner',
  'contentinfo',
  'complementary',
  'search',
  'menu',
  'menubar',
  'dialog',
  'alertdialog',
]);
/**
 * class / id words of navigation, site chrome and consent banners, as whole words or as a part of a dashed name
 * ("site-footer", "cookie-banner"). Sphinx: sphinxsidebar, related; DocBook: navheader, navfooter, docnav, #banner; SQLite:
 * menu, tagline and nosearch (its own mark for text its search skips). Sidebar widgets (WordPress, Blogger) and modal
 * windows (sign-in, comment rules).
 * Not "header" (see HEADER_NAMES) or "sidebar": DocBook's .sidebar boxes are content.
 */
const BOILER_NAMES =
  /(?:^|[\s_-])(?:nav|navbar|navheader|navfooter|docnav|navigation|menu|submenu|searchmenu|sphinxsidebar|sphinxsidebarwrapper|related|breadcrumbs?|footer|masthead|banner|tagline|logo|nosearch|skip|cookies?|consent|gdpr|widget|modal)(?=$|[\s_-])/i;
/**
 * class / id names of a page's or an article's header block as a part of a dashed name ("site-header", "full-header",
 * "article-header", "header-wrapper"): the site's banner, the byline, the date and the standfirst, which a reader's
 * article body leaves out. Not the bare word: asciidoc's #header holds the page's name and summary, Javadoc's .header
 * the class's name.
 */
const HEADER_NAMES = /(?:^|\s)(?:[\w-]+[-_]header|header[-_][\w-]+)(?=$|\s)/i;
/**
 * class / id words of what stands beside an article without being it: sharing and follow buttons, newsletter and
 * subscription boxes, bylines and author boxes, tag lists, captions, advertising and sponsored widgets, lists of
 * popular, trending or recommended stories.
 */
const ASIDE_NAMES =
  /(?:^|[\s_-])(?:share|sharing|social|newsletter|subscribe|subscription|signup|byline|author|tags|caption|ad|ads|advert|advertisement|sponsored|promo|outbrain|taboola|popular|trending|recommended|recommendations)(?=$|[\s_-])/i;
/** class / id names of comment threads and their reply forms (WordPress, Disqus and the like): not the page's own text. */
const COMMENT_NAMES = /(?:^|[\s_-])(?:comments?|commentlist|comment-?body|comment-?list|disqus_thread|respond)(?=$|[\s_])/i;
/** class / id names of a page's main region. */
const MAIN_NAMES = /(?:^|\s)(?:main|content|main-?content|doc-?content|article-?body|entry-content|post-content)(?=$|\s)/i;
const CAMEL_HUMP = /[a-z][A-Z]/;
const CAMEL_HUMPS = /([a-z])([A-Z])/g;
/** An inline style that hides the element. */
const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important\s*)?(?:;|$)/i;
/** Elements whose class and id are read for the names above (text-level elements are not). */
const CONTAINER_TAGS = new Set(['div', 'section', 'ul', 'ol', 'table', 'form', 'span', 'p', 'dl', 'li', 'article']);
/**
 * A boilerplate zone holding more than this share of the page's prose (text outside links, in blocks that are not
 * mostly links) is the page's wrapper, not boilerplate: a wrapper named "nav-below-header" or "cookies-not-set" says
 * how the page is laid out, and an article inside "widget Blog" (Blogger), "article-header" or "modal-enabled" is
 * still the article. Prose, not all text: a site's header of menus can outweigh a short article (a paywall's teaser)
 * without holding it. A page without prose goes by its tokens.
 */
const WRAPPER_SHARE = 0.5;
/**
 * A list of teasers (related stories, cards, "you may like"): an element of TEASER_TAGS with at least TEASER_ITEMS
 * children that hold text, at least TEASER_LED of them opening with a link (a headline or a picture that links to the
 * story), at least TEASER_LINK_SHARE of its tokens in links, and no child of more than TEASER_ITEM_TOKENS tokens
 * (summaries, not the parts of an article).
 */
const TEASER_TAGS = new Set(['ul', 'ol', 'div', 'section']);
const TEASER_ITEMS = 3;
const TEASER_LED = 0.75;
const TEASER_LINK_SHARE = 0.15;
const TEASER_ITEM_TOKENS = 80;
/**
 * A list of teasers holding this share of the page's text outside boilerplate is what the page says (a front page, a
 * news round-up), not teasers: twice as much text as the rest of the page. An article with its related stories below
 * keeps more than a third of the text outside the list.
 */
const ROUNDUP_SHARE = 2 / 3;
/** Blocks a wrapper holds at least. */
const WRAPPER_BLOCKS = 4;

/**
 * Where an element puts its content: F_BOILER (navigation, header and footer outside a sectioning element, asides,
 * landmark roles of site chrome, dialogs, names such as "sphinxsidebar" or "cookie-banner"), F_MAIN (<main>,
 * <article>, role=main, names such as "content"), or neither. `inSection`: inside main/article/section, where a
 * <header> or <footer> is the section's own.
 */
export function zoneOf(name: string, attribs: Record<string, string>, inSection: boolean): number {
  // Hidden until a script shows it (a dropdown, a copy of the article for structured data): its links are kept, its
  // text is not what a reader sees. A hidden wrapper of the whole page is settled as a wrapper (settleZones).
  if (attribs['aria-hidden'] === 'true' || (attribs.style !== undefined && HIDDEN_STYLE.test(attribs.style))) return F_BOILER;
  if (
    (name === 'article' || name === 'li' || name === 'div' || name === 'section' || name === 'ol' || name === 'ul') &&
    (attribs.class !== undefined || attribs.id !== undefined)
  ) {
    if (COMMENT_NAMES.test(`${attribs.class ?? ''} ${attribs.id ?? ''}`)) return F_BOILER;
  }
  switch (name) {
    case 'nav':
    case 'aside':
    case 'figcaption':
    // Form controls and their forms (a category picker, a sign-in box): a form wrapping the page is settled as a
    // wrapper (settleZones).
    case 'select':
    case 'button':
    case 'form':
      return F_BOILER;
    case 'header':
    case 'footer':
      return inSection ? 0 : F_BOILER;
    case 'main':
    case 'article':
      return F_MAIN;
  }
  const role = attribs.role;
  if (role !== undefined) {
    const r = role.trim().toLowerCase();
    if (r === 'main') return F_MAIN;
    if (BOILER_ROLES.has(r)) return F_BOILER;
  }
  if (!CONTAINER_TAGS.has(name)) return 0;
  const cls = attribs.class;
  const id = attribs.id;
  if (cls === undefined && id === undefined) return 0;
  const joined = cls === undefined ? id! : id === undefined ? cls : `${cls} ${id}`;
  // camelCase humps read as dashes: "topAd", "shareBar", "leadMediaCaption" name what "top-ad" and "share-bar" do.
  const names = CAMEL_HUMP.test(joined) ? joined.replace(CAMEL_HUMPS, '$1-$2') : joined;
  if (BOILER_NAMES.test(names) || ASIDE_NAMES.test(names) || HEADER_NAMES.test(names))
    return MAIN_NAMES.test(names) ? F_BOILER | F_MIXED : F_BOILER;
  if (MAIN_NAMES.test(names)) return F_MAIN;
  return 0;
}

/** What a run of text is part of: the page's main region, boilerplate, or neither. */
export const KIND_NEUTRAL = 0;
export const KIND_MAIN = 1;
export const KIND_BOILER = 2;

/**
 * Block elements open during a pass (frames), followed as possible lists of teasers: per frame its first token, the
 * link tokens before it, its children with text, how many of those open with a link, its largest child, whether it
 * opens with a link itself, and whether its tag may hold a list. The lists found, as token ranges.
 */
export class TeaserFrames {
  private readonly start: number[] = [];
  private readonly linkStart: number[] = [];
  private readonly children: number[] = [];
  private readonly led: number[] = [];
  private readonly largest: number[] = [];
  private readonly isLed: boolean[] = [];
  private readonly list: boolean[] = [];
  readonly listStart: number[] = [];
  readonly listEnd: number[] = [];

  /** A block element opens at token `tokenCount`, after `linkTokens` tokens in links. */
  open(name: string, tokenCount: number, linkTokens: number): void {
    this.start.push(tokenCount);
    this.linkStart.push(linkTokens);
    this.children.push(0);
    this.led.push(0);
    this.largest.push(0);
    this.isLed.push(false);
    this.list.push(TEASER_TAGS.has(name));
  }

  /** A link opens at token `tokenCount`: every block that has no text yet opens with it. */
  link(tokenCount: number): void {
    const { start, isLed } = this;
    for (let i = start.length - 1; i >= 0 && start[i] === tokenCount && !isLed[i]; i--) {
      isLed[i] = true;
    }
  }

  /** The innermost block element closes: a list of teasers if it is one, and a child of the block around it. */
  close(tokenCount: number, linkTokens: number): void {
    const start = this.start.pop()!;
    const links = linkTokens - this.linkStart.pop()!;
    const children = this.children.pop()!;
    const led = this.led.pop()!;
    const largest = this.largest.pop()!;
    const isLed = this.isLed.pop()!;
    const list = this.list.pop()!;
    const inside = tokenCount - start;
    if (
      list &&
      children >= TEASER_ITEMS &&
      led >= TEASER_LED * children &&
      links >= TEASER_LINK_SHARE * inside &&
      largest <= TEASER_ITEM_TOKENS
    ) {
      this.listStart.push(start);
      this.listEnd.push(tokenCount);
    }
    const parent = this.start.length - 1;
    if (parent >= 0 && inside > 0) {
      this.children[parent]++;
      if (inside > this.largest[parent]) this.largest[parent] = inside;
      if (isLed) this.led[parent]++;
    }
  }
}

/** Boilerplate zones found in a pass (see readText). */
interface Zones {
  start: number[];
  parent: number[];
  mixed: boolean[];
  /** Tokens inside (-1: never closed, runs to the end). */
  tokens: number[];
  links: number[];
  /** Blocks inside (a wrapper holds several: a lone banner paragraph is no wrapper, however much of the page it is). */
  blocks: number[];
}

/**
 * Boilerplate zones as a pass opens and closes them: per zone its first token, the tokens in links before it, the zone
 * around it, whether it is mixed; once closed, its tokens, link tokens and blocks.
 */
export class OpenZones implements Zones {
  readonly start: number[] = [];
  private readonly linkStart: number[] = [];
  readonly parent: number[] = [];
  readonly mixed: boolean[] = [];
  readonly tokens: number[] = [];
  readonly links: number[] = [];
  private readonly blockStart: number[] = [];
  readonly blocks: number[] = [];
  private readonly open: number[] = [];

  /** The innermost zone open now, -1 outside any. */
  innermost(): number {
    return this.open.length ? this.open[this.open.length - 1] : -1;
  }

  /** A zone opens at token `tokenCount`, after `linkTokens` tokens in links, in block `block`. */
  enter(mixed: boolean, tokenCount: number, linkTokens: number, block: number): void {
    const id = this.start.length;
    this.start.push(tokenCount);
    this.linkStart.push(linkTokens);
    this.parent.push(this.innermost());
    this.mixed.push(mixed);
    this.tokens.push(-1);
    this.links.push(0);
    this.blockStart.push(block);
    this.blocks.push(0);
    this.open.push(id);
  }

  /** The innermost zone closes. */
  leave(tokenCount: number, linkTokens: number, block: number): void {
    const id = this.open.pop()!;
    this.tokens[id] = tokenCount - this.start[id];
    this.links[id] = linkTokens - this.linkStart[id];
    this.blocks[id] = block - this.blockStart[id];
  }
}

/**
 * Decides, after the pass, which boilerplate zones are boilerplate: not one that holds most of the page's prose (the
 * page's wrapper, whatever its names say), nor one whose names match both word lists when its text is
 * not mostly links
 * (decided by its content, not by which list is read first). Runs in no zone left standing become main text (in a
 * main region) or neutral text.
 */
export function settleZones(
  tokenCount: number,
  zones: Zones,
  prose: Float64Array,
  blockToken: number[],
  runZone: number[],
  runInMain: boolean[],
  runKind: number[],
): void {
  const n = zones.start.length;
  if (n === 0) return;
  const standing = new Uint8Array(n);
  const allProse = prose[prose.length - 1];
  const proseIn = (from: number, to: number) => prose[lowerBound(blockToken, to)] - prose[lowerBound(blockToken, from)];
  for (let z = 0; z < n; z++) {
    const inside = zones.tokens[z] < 0 ? tokenCount - zones.start[z] : zones.tokens[z];
    const links = zones.tokens[z] < 0 ? 0 : zones.links[z];
    const wrapper =
      (zones.tokens[z] < 0 || zones.blocks[z] >= WRAPPER_BLOCKS) &&
      (allProse > 0
        ? proseIn(zones.start[z], zones.start[z] + inside) > WRAPPER_SHARE * allProse
        : inside > WRAPPER_SHARE * tokenCount);
    const content = zones.mixed[z] && links <= LINK_DENSITY * inside;
    const own = !wrapper && !content;
    // Parents come first (a zone opens after the zones around it), so a parent's answer is known.
    standing[z] = own || (zones.parent[z] >= 0 && standing[zones.parent[z]] === 1) ? 1 : 0;
  }
  for (let r = 0; r < runKind.length; r++) {
    const z = runZone[r];
    if (runKind[r] === KIND_BOILER && z >= 0 && standing[z] === 0) runKind[r] = runInMain[r] ? KIND_MAIN : KIND_NEUTRAL;
  }
}

/**
 * Prose per block, summed: before[b] is the text outside links of the blocks before block b that are not mostly
 * links (the last entry: the whole page's).
 */
export function proseBefore(tokenCount: number, blockToken: number[], blockLinkTokens: number[]): Float64Array {
  const n = blockToken.length;
  const before = new Float64Array(n + 1);
  for (let b = 0; b < n; b++) {
    const inside = (b + 1 < n ? blockToken[b + 1] : tokenCount) - blockToken[b];
    const links = blockLinkTokens[b];
    before[b + 1] = before[b] + (links <= LINK_DENSITY * inside ? inside - links : 0);
  }
  return before;
}

/**
 * Makes the runs inside lists of teasers boilerplate, except in a list that holds two thirds of the page's text
 * outside boilerplate (a front page of stories, a news round-up: the list is what the page says). Lists are found as
 * they close, inner ones first: sorted by start here.
 */
export function markTeasers(tokenCount: number, start: number[], end: number[], runToken: number[], runKind: number[]): void {
  if (start.length === 0) return;
  // Tokens outside boilerplate, before and up to each run (prefix sums over runs).
  const n = runToken.length;
  const before = new Float64Array(n + 1);
  for (let r = 0; r < n; r++) {
    const len = (r + 1 < n ? runToken[r + 1] : tokenCount) - runToken[r];
    before[r + 1] = before[r] + (runKind[r] === KIND_BOILER ? 0 : len);
  }
  // Tokens outside boilerplate in [from, to): whole runs that start there (a list starts and ends at a block).
  const textIn = (from: number, to: number) => before[lowerBound(runToken, to)] - before[lowerBound(runToken, from)];
  const order: number[] = [];
  for (let i = 0; i < start.length; i++) if (textIn(start[i], end[i]) < ROUNDUP_SHARE * before[n]) order.push(i);
  if (order.length === 0) return;
  order.sort((a, b) => start[a] - start[b]);
  let k = 0;
  let reach = -1;
  for (let r = 0; r < runToken.length; r++) {
    const t = runToken[r];
    while (k < order.length && start[order[k]] <= t) reach = Math.max(reach, end[order[k++]]);
    if (t < reach) runKind[r] = KIND_BOILER;
  }
}

/** The first index of the sorted `xs` whose value is at least `x`. */
function lowerBound(xs: number[], x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The weight of each run of text (see evaluatePage), and the token where each run ends. */
export interface RunWeights {
  weight: Float64Array;
  end: Int32Array;
  start: Int32Array;
}

export function weighRuns(
  runToken: Int32Array,
  runKind: Uint8Array,
  runBlock: Int32Array,
  blockToken: Int32Array,
  blockLinkTokens: Int32Array,
  tokenCount: number,
  boilerWeight: number,
): RunWeights {
  const n = runToken.length;
  const end = new Int32Array(n);
  for (let i = 0; i < n; i++) end[i] = i + 1 < n ? runToken[i + 1] : tokenCount;
  let mainTokens = 0;
  for (let i = 0; i < n; i++) if (runKind[i] === KIND_MAIN) mainTokens += end[i] - runToken[i];
  const hasMain = mainTokens > 0 && mainTokens >= MAIN_SHARE * tokenCount;
  const weight = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const b = runBlock[i];
    const blockTokens = (b + 1 < blockToken.length ? blockToken[b + 1] : tokenCount) - blockToken[b];
    if (runKind[i] === KIND_BOILER || (blockTokens > 0 && blockLinkTokens[b] > LINK_DENSITY * blockTokens)) {
      weight[i] = boilerWeight;
    } else if (hasMain && runKind[i] === KIND_NEUTRAL) {
      // Halfway: text beside a marked main region is often the page's own (a title block), often not.
      weight[i] = (1 + boilerWeight) / 2;
    } else {
      weight[i] = 1;
    }
  }
  return { weight, end, start: runToken };
}
