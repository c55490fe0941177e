/**
 * The structural fallback: how a results page is read without engine data (an engine Forager has never seen, or
 * one whose markup changed). Results are links holding (or held by) a heading, outside page furniture; the engine's
 * own modules are left out by their labels in the page's language (labels.ts: a heading "People also ask",
 * "相关搜索" or "Реклама" opens a block that holds no organic results, up to the next section heading of its level),
 * ads by an ad label inside the result, and links back to the engine by their host (results.ts).
 */
import { closest, Exclusions, type QueryRoot, queryAll, queryOne, TEXT_NODE, visibleText } from './dom';
import { isAdLabel, isModuleLabel } from './labels';
import { accept, type Candidate, type Context, candidatesOf, longestText, sectionBlocks } from './results';

/** Page furniture that never holds organic results. */
const GENERIC_EXCLUDE = [
  'header',
  'footer',
  'nav',
  'aside',
  '[role="navigation"]',
  '[role="banner"]',
  '[role="contentinfo"]',
  '[role="complementary"]',
  '[role="dialog"]',
  // Right-hand columns (knowledge panels, advertisers' offers): Google's #rhs, Baidu's #content_right, 360's #side.
  '[id="rhs"]',
  '[id="side"]',
  '[id="sidebar"]',
  '[id="right"]',
  '[id="content_right"]',
  '[class~="sidebar"]',
  '[aria-label="Ads"]',
  '[aria-label="Sponsored"]',
  '[data-text-ad]',
];

/** Elements a label can be written in (a heading, or the small inline element an ad badge is). */
const HEADING = 'h1, h2, h3, h4, h5, h6, [role="heading"]';
const BADGE = 'span, div, b, strong, small, em, i, p, label, mark, sup, li, td';
/** Elements examined for an ad badge in one result block. */
const MAX_BADGE_CANDIDATES = 200;
/**
 * A tier of title cues is taken when it yields at least this many results; otherwise the tier that yields the most.
 * A results page lists several results: one or two headed links (a help link in a section heading, a promoted
 * title) are page furniture when a weaker cue finds the list.
 */
const MIN_TIER_RESULTS = 3;

/**
 * Heading-like elements of a result link, strongest cue first: real headings (<h2>/<h3>, which nearly every engine
 * uses for result titles), then ARIA headings and elements classed as titles inside the link, then links classed as
 * titles themselves (Naver's `a.link_tit`, DuckDuckGo Lite's `a.result-link`). The fallback takes the first tier
 * that yields MIN_TIER_RESULTS results, else the one that yields the most.
 */
const FALLBACK_TIERS: readonly { inside: string | null; around: string | null; self: string | null }[] = [
  { inside: 'h2, h3', around: 'h2, h3', self: null },
  { inside: '[role="heading"], [class*="title"]', around: null, self: null },
  {
    inside: null,
    around: null,
    self: '[class*="title"], [class*="_tit"], [class~="tit"], [class*="result-link"], [class*="result__a"]',
  },
];

/** A heading's own text: without the links in it (a section's "why am I seeing this" or "more" link). */
function ownText(heading: Element): string {
  return visibleText(heading, new Set(queryAll(heading, 'a[href]')));
}

/**
 * The headings of the page's sections: outside links, with text of their own (a heading whose text is all a link's
 * is a result's title).
 */
function sectionHeadings(root: Element): Element[] {
  return queryAll(root, HEADING).filter((h) => !closest(h, 'a[href]') && ownText(h) !== '');
}

/**
 * The words a heading names its section with: the text directly in it (Naver's "네이버 책" before a help layer held
 * in the same <h2>), or its own text when it has none outside child elements.
 */
function headingName(heading: Element): string {
  let direct = '';
  for (const node of Array.from(heading.childNodes)) if (node.nodeType === TEXT_NODE) direct += node.textContent ?? '';
  return direct.replace(/\s+/g, ' ').trim() || ownText(heading);
}

/** The section headings that name one of the engine's modules, or ads. */
function moduleHeadings(sections: readonly Element[]): Element[] {
  return sections.filter((h) => {
    const text = headingName(h);
    return isModuleLabel(text) || isAdLabel(text);
  });
}

/** Whether a result's block carries an ad label (a badge reading "Ad", "Anzeige", "广告"), outside its title. */
function hasAdBadge(block: Element, title: Element): boolean {
  if (isAdLabel(block.getAttribute('aria-label') ?? '')) return true;
  let examined = 0;
  for (const el of queryAll(block, BADGE)) {
    if (++examined > MAX_BADGE_CANDIDATES) break;
    if (el === title || title.contains(el) || el.contains(title)) continue;
    const raw = el.textContent ?? '';
    if (raw.length > 60) continue;
    if (isAdLabel(visibleText(el)) || isAdLabel(el.getAttribute('aria-label') ?? '')) return true;
  }
  return false;
}

/** Structural fallback: links holding (or held by) a heading, outside page furniture, modules and excluded blocks. */
export function byStructure(doc: QueryRoot, ctx: Context, root: Element): void {
  const furniture = new Exclusions(doc, GENERIC_EXCLUDE);
  const anchors = queryAll(doc, 'a[href]').filter((a) => !ctx.exclude.has(a) && !furniture.has(a));
  const sections = sectionHeadings(root);
  const headings = moduleHeadings(sections);
  let best: { found: Candidate[]; count: number; hidden: number } | null = null;
  for (const tier of FALLBACK_TIERS) {
    const linkOfTitle = new Map<Element, Element>();
    const titles: Element[] = [];
    for (const a of anchors) {
      const heading = tier.self
        ? a.matches(tier.self)
          ? a
          : null
        : ((tier.inside ? queryOne(a, tier.inside) : null) ?? (tier.around ? closest(a, tier.around) : null));
      if (!heading || linkOfTitle.has(heading)) continue;
      linkOfTitle.set(heading, a);
      titles.push(heading);
    }
    for (const block of sectionBlocks(root, headings, titles, sections)) ctx.exclude.add(block);
    const rules = { linkOf: (title: Element) => linkOfTitle.get(title) ?? null, isAd: hasAdBadge };
    const hiddenBefore = ctx.hidden;
    const found = candidatesOf(ctx, root, titles, rules).filter((c) => c.text && !ctx.seen.has(c.url));
    const tierHidden = ctx.hidden - hiddenBefore;
    ctx.hidden = hiddenBefore;
    const count = new Set(found.map((c) => c.url)).size;
    if (!best || count > best.count) best = { found, count, hidden: tierHidden };
    if (count >= MIN_TIER_RESULTS) break;
  }
  if (!best) return;
  ctx.hidden += best.hidden;
  for (const c of best.found) accept(ctx, c, longestText(c));
}
