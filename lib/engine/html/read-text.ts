/**
 * One pass over a page's HTML with htmlparser2's streaming Parser (no DOM), its text analysed in one language: tokens
 * and term counts, the visible text and its runs and blocks, boilerplate zones and teaser lists, raw links, title,
 * <h1>, robots, <base>, lang and metadata, gathered into a TextPass. All of it is the page's side, before any topic.
 */
import { Parser } from 'htmlparser2';
import type { TermVector } from '../types';
import { TermCounter, TermStream, tokenizeInto } from '../text/tokenize';
import { PackedLinks, TokenList } from './packed';
import {
  addAnchorText,
  buildLinks,
  DEFAULT_CONTEXT_WINDOW,
  DEFAULT_MAX_LINKS,
  hasToken,
  type RawLink,
  resolveHttp,
} from './links';
import { isHeadline, MAX_LD_CHARS, MAX_META_CHARS, MAX_TITLE_CHARS, type PageMeta, readJsonLd, readMeta } from './page-meta';
import { TextPass } from './text-pass';
import { BLOCK, collapse, INLINE_TAGS, own, SKIP_TAGS, TextView } from './visible-text';
import {
  F_BOILER,
  F_MAIN,
  F_MIXED,
  KIND_BOILER,
  KIND_MAIN,
  KIND_NEUTRAL,
  markTeasers,
  OpenZones,
  proseBefore,
  settleZones,
  TeaserFrames,
  zoneOf,
} from './zones';

/**
 * htmlparser2's Parser, noting where the text chunk being reported lies in the source: [rawStart, rawEnd) for raw
 * text, rawStart -1 for a decoded character reference. Tokenizing that range of the page's one flat string is
 * cheaper than reading the chunk, a sliced string, character by character.
 */
class RangeParser extends Parser {
  rawStart = -1;
  rawEnd = -1;

  override ontext(start: number, endIndex: number): void {
    this.rawStart = start;
    this.rawEnd = endIndex;
    super.ontext(start, endIndex);
    this.rawStart = -1;
  }
}

/** Options beyond the shared EvaluationInput. */
export interface EvaluateOptions {
  /** Most distinct outlinks kept (default {@link DEFAULT_MAX_LINKS}). */
  maxLinks?: number;
}

/** Flags of an open element; zoneOf's F_BOILER (8), F_MAIN (16) and F_MIXED (256) share the word. */
const F_SKIP = 1;
const F_TITLE = 2;
const F_LINK = 4;
const F_SECTION = 32;
const F_H1 = 64;
const F_LD = 128;
/** A block element, followed as a possible item or list of items (see readText's frames). */
const F_FRAME = 512;

/**
 * One pass over the page, its text analysed in `language`: everything of an evaluation that does not depend on the
 * topic (see {@link TextPass}).
 */
export function readText(
  url: string,
  contextWindow: number | undefined,
  options: EvaluateOptions,
  html: string,
  language: string,
): TextPass {
  const window = Math.max(0, contextWindow ?? DEFAULT_CONTEXT_WINDOW);
  const maxLinks = Math.max(0, options.maxLinks ?? DEFAULT_MAX_LINKS);
  // Raw links kept for resolution after parsing (the <base> may come later); bounded against link floods.
  const rawCap = Math.max(maxLinks * 4, 100);

  const tokens: string[] = [];
  const tokenOffsets: number[] = [];
  const counter = new TermCounter();
  // Text is tokenized as the parser hands it over, chunk by chunk, never joined into one string (joining thousands of
  // chunks, twice, was about a tenth of an evaluation on text-heavy pages); a link's start and end are word breaks,
  // as its context counts tokens.
  const stream = new TermStream(language, tokens, tokenOffsets, counter);
  // Visible text, raw (whitespace as in the source), with BLOCK between blocks, kept as the parser's chunks for the
  // snippet (see TextView). Collapsing whitespace is left to the snippet, which needs ~300 characters of it.
  const textParts: string[] = [];
  const partStarts: number[] = [];
  let textLen = 0;
  let lastIsBlock = true;

  // Where text stands: runs of one kind within one block (first token, text offset, kind, block), and per block its
  // first token and how many of its tokens are inside links. Weights are decided after the pass.
  const runToken: number[] = [];
  const runText: number[] = [];
  const runKind: number[] = [];
  const runBlock: number[] = [];
  const blockToken: number[] = [0];
  const blockLinkTokens: number[] = [0];
  let block = 0;
  let runOpen = false;
  let boilerDepth = 0;
  let mainDepth = 0;
  // Boilerplate zones (elements zoneOf marks F_BOILER). Per run, its innermost zone and whether it is in a main region:
  // after the pass, a zone that is the page's wrapper (or mixed and not mostly links) stops making its runs boilerplate.
  const zones = new OpenZones();
  let linkTokens = 0;
  const runZone: number[] = [];
  const runInMain: boolean[] = [];
  let sectionDepth = 0;
  // Block elements open now, followed as possible lists of teasers.
  const frames = new TeaserFrames();

  const flags: number[] = [];
  let skipDepth = 0;
  let titleDepth = 0;
  let titleDone = false;
  const titleParts: string[] = [];
  const rawLinks: RawLink[] = [];
  let current: RawLink | null = null;
  let baseHref: string | undefined;
  let lang: string | undefined;
  let sawHtml = false;
  const robots = { noindex: false, nofollow: false };
  // Page metadata for the result list: dates and title fallbacks (first of each wins).
  const meta: PageMeta = {};
  let timeInMain: string | undefined;
  let h1Depth = 0;
  let h1Done = false;
  const h1Parts: string[] = [];
  // The runs of the first <h1> with text: [h1FirstRun, h1EndRun).
  let h1FirstRun = -1;
  let h1EndRun = -1;
  let ldDepth = 0;
  const ldParts: string[] = [];
  let ldChars = 0;

  /** Tokens of the open link up to here are counted in their blocks already. */
  let linkCredited = 0;
  const boundary = () => {
    if (!lastIsBlock) {
      stream.end(); // BLOCK ends any word
      if (current) {
        // A link spanning blocks (a whole teaser in one <a>): each block counts the link's tokens it holds.
        blockLinkTokens[block] += tokens.length - linkCredited;
        linkCredited = tokens.length;
      }
      textParts.push(BLOCK);
      partStarts.push(textLen);
      textLen += BLOCK.length;
      lastIsBlock = true;
      block++;
      blockToken.push(tokens.length);
      blockLinkTokens.push(0);
      runOpen = false;
    }
  };
  const endLink = () => {
    if (!current) return;
    stream.end();
    current.tokEnd = tokens.length;
    blockLinkTokens[block] += current.tokEnd - Math.max(current.tokStart, linkCredited);
    linkTokens += current.tokEnd - current.tokStart;
    current = null;
  };

  const parser: RangeParser = new RangeParser(
    {
      onopentag(name, attribs) {
        let f = 0;
        if (SKIP_TAGS.has(name) || attribs.hidden !== undefined) {
          f |= F_SKIP;
          skipDepth++;
        }
        const zone = zoneOf(name, attribs, sectionDepth > 0);
        if (zone & F_BOILER) {
          boilerDepth++;
          zones.enter((zone & F_MIXED) !== 0, tokens.length, linkTokens, block);
        } else if (zone === F_MAIN) mainDepth++;
        f |= zone;
        if (name === 'main' || name === 'article' || name === 'section' || name === 'aside' || name === 'nav') {
          f |= F_SECTION;
          sectionDepth++;
        }
        switch (name) {
          case 'html':
            if (!sawHtml) {
              sawHtml = true;
              const l = attribs.lang?.trim();
              if (l) lang = l;
            }
            break;
          case 'title':
            if (!titleDone && skipDepth === 0) {
              f |= F_TITLE;
              titleDepth++;
            }
            break;
          case 'base':
            if (baseHref === undefined && attribs.href !== undefined) {
              baseHref = resolveHttp(attribs.href, url) ?? undefined;
            }
            break;
          case 'meta':
            if (attribs.name?.trim().toLowerCase() === 'robots' && attribs.content) {
              const c = attribs.content;
              if (hasToken(c, 'noindex') || hasToken(c, 'none')) robots.noindex = true;
              if (hasToken(c, 'nofollow') || hasToken(c, 'none')) robots.nofollow = true;
            }
            readMeta(meta, attribs);
            break;
          case 'time':
            if (timeInMain === undefined && mainDepth > 0 && boilerDepth === 0 && skipDepth === 0 && attribs.datetime) {
              timeInMain = attribs.datetime.trim().slice(0, MAX_META_CHARS);
            }
            break;
          case 'h1':
            if (!h1Done && skipDepth === 0) {
              f |= F_H1;
              h1Depth++;
            }
            break;
          case 'script':
            if (attribs.type?.trim().toLowerCase() === 'application/ld+json') {
              f |= F_LD;
              ldDepth++;
            }
            break;
          case 'a':
          case 'area':
            if (attribs.href !== undefined) {
              endLink(); // an unclosed <a> ends where the next begins, as in browsers
              stream.end();
              const link: RawLink = {
                href: attribs.href,
                anchor: [],
                anchorChars: 0,
                fallback: attribs['aria-label'] || attribs.title || '',
                tokStart: tokens.length,
                tokEnd: tokens.length,
                nofollow: hasToken(attribs.rel, 'nofollow'),
                depth: flags.length + 1,
              };
              if (name === 'area' && attribs.alt) addAnchorText(link, attribs.alt);
              if (rawLinks.length < rawCap && skipDepth === 0) rawLinks.push(link);
              frames.link(tokens.length);
              if (name === 'a') {
                current = link;
                linkCredited = link.tokStart;
                f |= F_LINK;
              }
            }
            break;
          case 'img':
            if (current && skipDepth === 0 && attribs.alt) addAnchorText(current, ` ${attribs.alt} `);
            break;
        }
        if (!INLINE_TAGS.has(name)) {
          boundary();
          f |= F_FRAME;
          frames.open(name, tokens.length, linkTokens);
        } else if (zone !== 0) runOpen = false;
        flags.push(f);
      },
      ontext(text) {
        if (ldDepth > 0 && ldChars < MAX_LD_CHARS) {
          ldParts.push(text);
          ldChars += text.length;
        }
        if (skipDepth > 0) return;
        if (h1Depth > 0) h1Parts.push(text);
        if (titleDepth > 0) {
          titleParts.push(text);
          return;
        }
        if (!runOpen) {
          // A new run: its kind is the innermost zone's (boilerplate inside a main region stays boilerplate).
          runOpen = true;
          runToken.push(tokens.length);
          runText.push(textLen);
          runKind.push(boilerDepth > 0 ? KIND_BOILER : mainDepth > 0 ? KIND_MAIN : KIND_NEUTRAL);
          runZone.push(zones.innermost());
          runInMain.push(mainDepth > 0);
          runBlock.push(block);
          if (h1Depth > 0) {
            if (h1FirstRun < 0) h1FirstRun = runKind.length - 1;
            h1EndRun = runKind.length;
          }
        }
        // The whole page is written at once, so raw text sits at [rawStart, rawEnd) of `html` (checked by length).
        if (parser.rawStart >= 0 && parser.rawEnd - parser.rawStart === text.length) {
          stream.push(html, textLen, parser.rawStart, parser.rawEnd);
        } else {
          stream.push(text, textLen);
        }
        textParts.push(text);
        partStarts.push(textLen);
        textLen += text.length;
        lastIsBlock = false;
        if (current) addAnchorText(current, text);
      },
      onclosetag(name) {
        const f = flags.pop() ?? 0;
        if (f & F_SKIP) skipDepth--;
        if (f & F_TITLE) {
          titleDepth--;
          titleDone = true;
        }
        if (f & F_H1) {
          h1Depth--;
          h1Done = h1Parts.join('').trim() !== '';
          if (!h1Done) h1FirstRun = h1EndRun = -1;
        }
        if (f & F_LD) {
          ldDepth--;
          // Each block on its own: pages often hold several.
          if (ldParts.length) readJsonLd(meta, ldParts.join(''));
          ldParts.length = 0;
        }
        if (f & F_BOILER) {
          boilerDepth--;
          zones.leave(tokens.length, linkTokens, block);
        } else if (f & F_MAIN) mainDepth--;
        if (f & F_SECTION) sectionDepth--;
        if (f & F_LINK && current && current.depth === flags.length + 1) endLink();
        if (!INLINE_TAGS.has(name)) boundary();
        else if (f & (F_BOILER | F_MAIN)) runOpen = false;
        if (f & F_FRAME) frames.close(tokens.length, linkTokens);
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  endLink();
  stream.end();
  settleZones(
    tokens.length,
    zones,
    proseBefore(tokens.length, blockToken, blockLinkTokens),
    blockToken,
    runZone,
    runInMain,
    runKind,
  );
  markTeasers(tokens.length, frames.listStart, frames.listEnd, runToken, runKind);

  // One string: kept with the reading, the parser's chunks (substrings of the page) would hold the whole page and an
  // object per chunk.
  const visibleText = new TextView([textParts.join('')], [0], textLen);
  for (let i = 0; i < tokens.length; i++) if (tokens[i].length >= 13) tokens[i] = own(tokens[i]);
  const title = own(collapse(titleParts.join('')).slice(0, MAX_TITLE_CHARS));
  const titleTerms: string[] = [];
  if (title) tokenizeInto(title, language, titleTerms, undefined, 0, counter);
  // The counter's slots are shared with the next pass: read them now.
  const terms: TermVector = counter.vector();
  const sumOfSquares = counter.sumOfSquares();
  const baseUrl = baseHref ?? url;
  const links = buildLinks(rawLinks, baseUrl, tokens, window, maxLinks, language);
  const pass = new TextPass(
    TokenList.of(tokens),
    Int32Array.from(tokenOffsets),
    visibleText,
    {
      token: Int32Array.from(runToken),
      text: Int32Array.from(runText),
      kind: Uint8Array.from(runKind),
      block: Int32Array.from(runBlock),
    },
    { token: Int32Array.from(blockToken), linkTokens: Int32Array.from(blockLinkTokens) },
    terms,
    sumOfSquares,
    counter.stopWords / Math.max(1, counter.stopWords + tokens.length),
  );
  pass.title = title;
  pass.length = tokens.length + titleTerms.length;
  pass.links = new PackedLinks(links);
  pass.baseUrl = baseUrl;
  pass.robots = robots;
  if (lang !== undefined) pass.lang = own(lang);
  const published = meta.published ?? timeInMain;
  if (published) pass.published = own(published);
  if (meta.modified) pass.modified = own(meta.modified);
  if (meta.ogTitle) pass.ogTitle = own(meta.ogTitle);
  const h1 = collapse(h1Parts.join('')).slice(0, MAX_TITLE_CHARS);
  if (h1) pass.h1 = own(h1);
  if (h1 && h1FirstRun >= 0 && isHeadline(h1, title, meta.ogTitle)) pass.headline = [h1FirstRun, h1EndRun];
  return pass;
}
