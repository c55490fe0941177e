/**
 * The topic generator: writes `docweb-topics/1` topics from a corpus's structure and page headings, deterministically
 * (the same corpus gives the same file, byte for byte) and without any crawler's scoring (no cosine, no BM25, no
 * engine term weights). The rules are stated in lab/README.md ("Generated topics"); in short:
 *
 * - **chapter** topics: a manual's chapter, found by structure: a folder with a title page (index.html,
 *   package-summary.html), a family of pages named after a title page (PostgreSQL `libpq.html` + `libpq-*.html`,
 *   Python `email.html` + `email.*.html`), or a chapter of a DocBook table of contents (the handbooks, in each of their
 *   languages). Keywords are the content words of the title page's heading.
 * - **cross-site** topics: a subject phrase (1-3 words) that headings on at least three sites contain; targets are the
 *   pages whose heading contains the phrase.
 * - **query** topics: 2-4 words as a person would type them (a phrase found in at least two headings); targets are the
 *   pages whose heading contains every word.
 *
 * Headings are a page's first `<h1>` (else its title without the site's common suffix); words are matched after
 * lowercasing and, in English, Harman's S-stemmer (plural -s/-es/-ies only). Hub pages (indexes, tables of contents)
 * are never targets. Every topic has 5 to 2% of the corpus targets, at most 10 examples (Task 1 seeds, spread over the
 * targets) and 3 to 10 neighbors (Task 2 seeds: non-hub pages exactly 3 links from the nearest target, on paths through
 * no hub, chosen by a hash). Candidates are taken in the order of a hash of their id, round-robin over sites, skipping
 * any whose targets overlap a chosen topic's by more than a third.
 */
import { createHash } from 'node:crypto';
import { Parser } from 'htmlparser2';
import * as stopword from 'stopword';
import type { CorpusIndex } from './corpus';
import type { LocalWeb } from './docweb/server';
import type { SiteConfig } from './sites';
import type { LabTopic, TopicKind } from './topics';

/** What the generator makes, and how many of each. */
export interface GeneratorOptions {
  chapters: number;
  /** Chapter topics per non-English site. */
  chaptersPerLanguage: number;
  crossSite: number;
  queries: number;
  /** Most targets, as a share of the corpus. */
  maxTargetShare: number;
  minTargets: number;
  maxExamples: number;
  maxNeighbors: number;
  minNeighbors: number;
  /** Chosen topics may share at most this share of the smaller target set. */
  maxOverlap: number;
}

export const DEFAULT_GENERATOR_OPTIONS: GeneratorOptions = {
  chapters: 60,
  chaptersPerLanguage: 5,
  crossSite: 40,
  queries: 50,
  maxTargetShare: 0.02,
  minTargets: 5,
  maxExamples: 10,
  maxNeighbors: 10,
  minNeighbors: 3,
  maxOverlap: 1 / 3,
};

const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');

/** Words that name a documentation page's kind rather than its subject ("Class", "Tutorial", "Reference"...). */
export const GENERIC_WORDS = new Set(
  (
    'class classes interface interfaces package packages module modules function functions method methods enum ' +
    'struct trait traits macro macros type types constant constants field fields attribute attributes property ' +
    'properties annotation record crate keyword primitive union member members namespace header library object ' +
    'index contents table overview introduction intro guide guides tutorial tutorials reference manual documentation ' +
    'docs doc api apis example examples gallery howto howtos faq appendix chapter section part release releases notes ' +
    'changelog changes news version versions new summary list using use usage detail details general misc ' +
    'miscellaneous other about see also getting started more advanced basic basics topic topics glossary page pages ' +
    'welcome home main introduction first second quick quickstart start step steps tips notes note support ' +
    'features feature user users developer developers internal internals ' +
    // "chapter" and "appendix" in the handbooks' other languages (their chapter headings start with them)
    'kapitel anhang chapitre annexe capítulo apéndice глава приложение 付録 章'
  ).split(' '),
);

/**
 * Single words too vague to be a subject on their own, though whole headings on several sites are just that word
 * ("Users", "History", "Not Found"): never a cross-site topic alone (stems, as sStem leaves them).
 */
export const VAGUE_WORDS = new Set(
  (
    'user internal system developer comment name move drop history experimental development deprecated data copy ' +
    'contributing contributor concept book application program programming found window value view level text source ' +
    'target tool tree file result range label location description definition declaration static short built building ' +
    'project time future community style option path node event document image card control item format resource ' +
    'character number list miscellaneou utility transform pattern parameter'
  ).split(' '),
);

const STOP = new Map<string, Set<string>>();
function stopWords(language: string): Set<string> {
  let s = STOP.get(language);
  if (!s) {
    const lists = stopword as unknown as Record<string, string[] | undefined>;
    const code: Record<string, string> = { en: 'eng', fr: 'fra', de: 'deu', es: 'spa', ru: 'rus', ja: 'jpn' };
    s = new Set(lists[code[language] ?? 'eng'] ?? lists.eng ?? []);
    STOP.set(language, s);
  }
  return s;
}

/** Harman's S-stemmer (1991): -ies -> -y, -es -> -e (not after -aes/-ees/-oes), -s -> '' (not after -us/-ss). */
export function sStem(word: string): string {
  if (word.length > 4 && word.endsWith('ies') && !/[ae]ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('es') && !/[aeo]es$/.test(word)) return word.slice(0, -1);
  if (word.length > 3 && word.endsWith('s') && !/[us]s$/.test(word)) return word.slice(0, -1);
  return word;
}

/** One word of a heading. */
export interface HeadingWord {
  /** Lowercased. */
  word: string;
  /** Part of an identifier (`java.util`, `os.path`, `getValue`, `std::vec`, `x_y`, `f()`): never a query word. */
  code: boolean;
  stop: boolean;
}

const CODE_TOKEN = /[._:()<>[\]/=@#$%*&|\\{}]|[a-z][A-Z]|\d/;
const IDENT_PUNCT = /[._:()<>[\]]/;

/** Splits a heading into words, marking identifier parts and stop words of `language`. */
export function headingWords(text: string, language = 'en'): HeadingWord[] {
  const out: HeadingWord[] = [];
  const stops = stopWords(language);
  for (const raw of text.normalize('NFKC').split(/\s+/)) {
    // Trailing punctuation of prose (a comma, a colon, a full stop at the end) is not code.
    const trimmed = raw.replace(/^[("'«“]+|[)"'»”,;:.!?]+$/gu, '');
    const code = CODE_TOKEN.test(trimmed);
    // An identifier's words (scipy.interpolate.SmoothBivariateSpline -> ... smooth bivariate spline), split only
    // before a capital that starts a lowercase run, so acronyms stay whole (GiST, PL/pgSQL), and only in tokens with
    // identifier punctuation or two humps, so product names stay whole (SciPy, NumPy).
    const split = code && (IDENT_PUNCT.test(trimmed) || (trimmed.match(/\p{Ll}\p{Lu}/gu)?.length ?? 0) >= 2);
    const spaced = split
      ? trimmed.replace(/(\p{Ll})(\p{Lu}\p{Ll})/gu, '$1 $2').replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
      : trimmed;
    for (const w of spaced.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
      if (!w || /^\d+$/.test(w)) continue;
      out.push({ word: w, code, stop: stops.has(w) || w.length < 2 });
    }
  }
  return out;
}

/**
 * A heading's content words as keywords (no stop words, no numbers, no generic words), in order, at most `max`; when
 * every one is part of an identifier (`scipy.interpolate.SmoothBivariateSpline`), the last `max - 1`: an identifier
 * is most specific at its end.
 */
export function keywordsOf(text: string, language: string, max = 4): string[] {
  const words: HeadingWord[] = [];
  for (const w of headingWords(text, language)) {
    if (w.stop || GENERIC_WORDS.has(w.word) || words.some((x) => x.word === w.word)) continue;
    words.push(w);
  }
  // An identifier split into words next to itself (dask.dataframe.DataFrame: dataframe, data, frame) keeps one form.
  const joined = new Set(words.map((w) => w.word));
  for (let k = words.length - 2; k >= 0; k--)
    if (k + 1 < words.length && words[k].code && joined.has(words[k].word + words[k + 1].word)) words.splice(k, 2);
  const picked = words.length && words.every((w) => w.code) ? words.slice(-(max - 1)) : words.slice(0, max);
  return picked.map((w) => w.word);
}

/** A candidate topic before selection. */
interface Candidate {
  id: string;
  kind: TopicKind;
  keywords: string;
  description: string;
  targets: number[];
  language: string;
  /** Site that gets the round-robin turn (the chapter's site, or the site with most targets). */
  site: string;
  /** Key of the tuning/test split (translations of one chapter share it). */
  splitKey?: string;
  /** Within a site, lower ranks are taken first: a table of contents (0), a folder (1), a family of pages (2). */
  rank: number;
}

/** The topics and what was considered. */
export interface GeneratedTopics {
  topics: LabTopic[];
  candidates: Record<TopicKind, number>;
}

/** Generates the topics of a corpus; see the module comment. */
export function generateTopics(
  corpus: CorpusIndex,
  sites: SiteConfig[],
  web: Pick<LocalWeb, 'render'>,
  options: Partial<GeneratorOptions> = {},
): GeneratedTopics {
  const o = { ...DEFAULT_GENERATOR_OPTIONS, ...options };
  const n = corpus.size;
  const maxTargets = Math.floor(o.maxTargetShare * n);
  const siteOf = (i: number) => corpus.ids[i].slice(0, corpus.ids[i].indexOf('/'));
  const pathOf = (i: number) => corpus.ids[i].slice(corpus.ids[i].indexOf('/') + 1);
  const siteConfig = new Map(sites.map((s) => [s.name, s]));
  const languageOf = (site: string) => siteConfig.get(site)?.language ?? 'en';
  const siteNames = new Set(sites.flatMap((s) => [s.name, ...s.name.split(/[-_]/)]));
  const labels = pageLabels(corpus, siteOf);
  const usable = (i: number) => !corpus.hub[i];

  // ------------------------------------------------------------------ chapters
  const chapterCandidates: Candidate[] = [];
  const chapterKeys = new Set<string>();
  const addChapter = (
    site: string,
    key: string,
    titlePage: number,
    members: number[],
    splitKey?: string,
    tocTitle?: string,
    minWords = 1,
    rank = 0,
  ) => {
    if (chapterKeys.has(`${site}:${key}`)) return;
    const targets = [...new Set(members)].filter(usable).sort((a, b) => a - b);
    if (targets.length < o.minTargets || targets.length > maxTargets) return;
    const language = languageOf(site);
    const title = tocTitle || labels[titlePage];
    let words = keywordsOf(title, language, 4);
    if (words.length < minWords || words.every((w) => siteNames.has(w))) return;
    // One English word says little ("middleware", "extensions"): a person would add the product's name (the site's
    // name; Debian for the handbook).
    if (words.length === 1 && language === 'en' && !siteNames.has(words[0]))
      words = [site === 'handbook' ? 'debian' : site, words[0]];
    chapterKeys.add(`${site}:${key}`);
    chapterCandidates.push({
      id: `${site}:${key}`,
      kind: 'chapter',
      keywords: words.join(' '),
      description: describe(`${site} chapter: ${title}`, targets, labels),
      targets,
      language,
      site,
      ...(splitKey ? { splitKey } : {}),
      rank,
    });
  };
  const bySite = new Map<string, number[]>();
  for (let i = 0; i < n; i++) {
    const s = siteOf(i);
    if (!bySite.has(s)) bySite.set(s, []);
    bySite.get(s)!.push(i);
  }
  for (const [site, pages] of bySite) {
    // Folders with a title page.
    const folders = new Map<string, number[]>();
    for (const i of pages) {
      const parts = pathOf(i).split('/');
      for (let d = 1; d < parts.length; d++) {
        const f = parts.slice(0, d).join('/');
        if (!folders.has(f)) folders.set(f, []);
        folders.get(f)!.push(i);
      }
    }
    for (const [folder, members] of folders) {
      const title = ['index.html', 'package-summary.html', 'index.htm']
        .map((f) => corpus.position.get(`${site}/${folder}/${f}`))
        .find((x) => x !== undefined);
      if (title !== undefined) addChapter(site, `${folder}/`, title, members, undefined, undefined, 1, 1);
    }
    // Families named after a title page: X.html with X-*.html, X.*.html or X_*.html beside it.
    const byFolder = new Map<string, Map<string, number>>();
    for (const i of pages) {
      const p = pathOf(i);
      const slash = p.lastIndexOf('/');
      const dir = p.slice(0, slash + 1);
      if (!byFolder.has(dir)) byFolder.set(dir, new Map());
      byFolder.get(dir)!.set(p.slice(slash + 1), i);
    }
    for (const [dir, files] of byFolder) {
      for (const [file, i] of files) {
        const stem = file.replace(/\.html?$/i, '');
        if (stem === file || stem === 'index') continue;
        const family = [i];
        for (const [other, j] of files)
          if (other !== file && /^[-._]/.test(other.slice(stem.length)) && other.startsWith(stem)) family.push(j);
        // A family's title page must name a subject in at least two words (not an operand name such as "sdst").
        if (family.length >= o.minTargets) addChapter(site, `${dir}${stem}*`, i, family, undefined, undefined, 2, 2);
      }
    }
  }
  // Tables of contents: the front page, contents.html and first-level folders' index pages (DocBook, Sphinx, mdBook).
  for (const s of sites) {
    const tocPages = (bySite.get(s.name) ?? [])
      .map(pathOf)
      .filter((p) => p === 'index.html' || p === 'contents.html' || /^[^/]+\/index\.html$/.test(p));
    for (const tocPath of tocPages) {
      const served = web.render(s.name, `/${tocPath}`);
      if (served.status !== 200) continue;
      const base = tocPath.slice(0, tocPath.lastIndexOf('/') + 1);
      for (const chapter of tocChapters(served.body.toString('utf8'))) {
        const pages = chapter.pages.map((h) => resolvePath(base, h)).filter((p): p is string => p !== undefined);
        const members = pages.map((p) => corpus.position.get(`${s.name}/${p}`)).filter((x): x is number => x !== undefined);
        const title = corpus.position.get(`${s.name}/${pages[0]}`);
        if (title === undefined) continue;
        // Translations share file names, so a handbook chapter and its translations share a split.
        const splitKey = /^handbook(-|$)/.test(s.name) ? `handbook:${pages[0]}` : undefined;
        addChapter(s.name, `toc:${pages[0]}`, title, members, splitKey, chapter.title);
      }
    }
  }

  // ------------------------------------------------------------------ phrases (cross-site and query topics)
  const english = Array.from({ length: n }, (_, i) => i).filter((i) => usable(i) && languageOf(siteOf(i)) === 'en');
  const wordsOf = new Map<number, string[]>();
  const pagesWith = new Map<string, number[]>();
  const phraseCount = new Map<string, number>();
  /** Stemmed phrase -> sites where a heading says exactly that (its content words, generic words aside). */
  const subjectSites = new Map<string, Set<string>>();
  for (const i of english) {
    const ws = headingWords(labels[i], 'en');
    const subject = ws
      .filter((w) => !w.stop && !w.code && !GENERIC_WORDS.has(w.word))
      .map((w) => sStem(w.word))
      .join(' ');
    if (subject && !ws.some((w) => w.code)) {
      if (!subjectSites.has(subject)) subjectSites.set(subject, new Set());
      subjectSites.get(subject)!.add(siteOf(i));
    }
    const stems = [...new Set(ws.filter((w) => !w.stop && !w.code).map((w) => sStem(w.word)))];
    wordsOf.set(
      i,
      ws.map((w) => (w.stop || w.code ? '' : sStem(w.word))),
    );
    for (const s of stems) {
      if (!pagesWith.has(s)) pagesWith.set(s, []);
      pagesWith.get(s)!.push(i);
    }
    // Runs of content words (no stop or code word inside), as phrases of 1-4 words.
    const seq = ws.map((w) => (w.stop || w.code ? '' : sStem(w.word)));
    const seen = new Set<string>();
    for (let a = 0; a < seq.length; a++)
      for (let len = 1; len <= 4 && a + len <= seq.length; len++) {
        const part = seq.slice(a, a + len);
        if (part.some((x) => x === '')) break;
        const key = part.join(' ');
        if (!seen.has(key)) {
          seen.add(key);
          phraseCount.set(key, (phraseCount.get(key) ?? 0) + 1);
        }
      }
  }
  const containsRun = (i: number, phrase: string[]): boolean => {
    const seq = wordsOf.get(i)!;
    outer: for (let a = 0; a + phrase.length <= seq.length; a++) {
      for (let k = 0; k < phrase.length; k++) if (seq[a + k] !== phrase[k]) continue outer;
      return true;
    }
    return false;
  };
  const allWords = (words: string[]): number[] => {
    const lists = words.map((w) => pagesWith.get(w) ?? []).sort((a, b) => a.length - b.length);
    let acc = lists[0] ?? [];
    for (const l of lists.slice(1)) {
      const set = new Set(l);
      acc = acc.filter((x) => set.has(x));
    }
    return acc;
  };
  const surface = surfaceForms(english, labels);
  const crossCandidates: Candidate[] = [];
  const queryCandidates: Candidate[] = [];
  for (const [phrase, count] of phraseCount) {
    const words = phrase.split(' ');
    if (words.some((w) => siteNames.has(w) || /^\p{N}/u.test(w) || w.length < 3)) continue;
    if (GENERIC_WORDS.has(words[0]) || GENERIC_WORDS.has(words[words.length - 1])) continue;
    const shown = surface.get(phrase) ?? phrase;
    // A cross-site subject is what whole headings on two sites or more are about ("Logging", "Transactions").
    // Three sites, or two for a phrase of several words; a single word must not be too vague to be a subject.
    const titled = subjectSites.get(phrase)?.size ?? 0;
    const subject = words.length === 1 ? titled >= 3 && !VAGUE_WORDS.has(words[0]) : titled >= 2;
    if (words.length <= 3 && count >= o.minTargets && subject) {
      const targets = allWords(words).filter((i) => containsRun(i, words));
      const perSite = countBy(targets, siteOf);
      if (
        targets.length >= o.minTargets &&
        targets.length <= maxTargets &&
        perSite.size >= 3 &&
        Math.max(...perSite.values()) <= 0.6 * targets.length
      ) {
        crossCandidates.push({
          id: `cross:${shown.replace(/ /g, '-')}`,
          kind: 'cross-site',
          keywords: shown,
          description: describe(`${shown}, on ${[...perSite.keys()].sort().join(', ')}`, targets, labels),
          targets: targets.sort((a, b) => a - b),
          language: 'en',
          site: mostCommon(perSite),
          rank: 0,
        });
      }
    }
    if (words.length >= 2 && count >= 2) {
      const targets = allWords(words);
      if (targets.length >= o.minTargets && targets.length <= maxTargets) {
        queryCandidates.push({
          id: `query:${shown.replace(/ /g, '-')}`,
          kind: 'query',
          keywords: shown,
          description: describe(shown, targets, labels),
          targets: targets.sort((a, b) => a - b),
          language: 'en',
          site: mostCommon(countBy(targets, siteOf)),
          rank: 0,
        });
      }
    }
  }

  // ------------------------------------------------------------------ selection
  const inlinks = corpus.inlinks();
  const chosen: LabTopic[] = [];
  const chosenTargets: Set<number>[] = [];
  const keywordsTaken = new Set<string>();
  const take = (pool: Candidate[], count: number, eligible: (c: Candidate) => boolean = () => true) => {
    // Round-robin over sites in hash order; within a site, candidates in hash order.
    const perSite = new Map<string, Candidate[]>();
    for (const c of [...pool].sort((a, b) => a.rank - b.rank || (sha1(a.id) < sha1(b.id) ? -1 : 1))) {
      if (!eligible(c)) continue;
      if (!perSite.has(c.site)) perSite.set(c.site, []);
      perSite.get(c.site)!.push(c);
    }
    const order = [...perSite.keys()].sort((a, b) => (sha1(`site:${a}`) < sha1(`site:${b}`) ? -1 : 1));
    let got = 0;
    while (got < count && order.some((s) => perSite.get(s)!.length)) {
      for (const s of order) {
        if (got >= count) break;
        const list = perSite.get(s)!;
        while (list.length) {
          const c = list.shift()!;
          const topic = finish(c);
          if (topic) {
            got++;
            break;
          }
        }
      }
    }
  };
  const finish = (c: Candidate): LabTopic | undefined => {
    if (keywordsTaken.has(`${c.language}\0${c.keywords}`)) return undefined;
    const set = new Set(c.targets);
    for (const other of chosenTargets) {
      let shared = 0;
      for (const t of set) if (other.has(t)) shared++;
      if (shared > o.maxOverlap * Math.min(set.size, other.size)) return undefined;
    }
    const neighbors = neighborsOf(c, corpus, inlinks, o.maxNeighbors);
    if (neighbors.length < o.minNeighbors) return undefined;
    const targets = c.targets.map((i) => corpus.ids[i]).sort();
    const exampleCount = Math.min(o.maxExamples, Math.ceil(targets.length / 2));
    const examples = Array.from({ length: exampleCount }, (_, k) => targets[Math.floor((k * targets.length) / exampleCount)]);
    const topic: LabTopic = {
      id: c.id,
      keywords: c.keywords,
      description: c.description,
      targets,
      examples,
      neighbors,
      kind: c.kind,
      ...(c.language !== 'en' ? { language: c.language } : {}),
      ...(c.splitKey ? { splitKey: c.splitKey } : {}),
    };
    chosen.push(topic);
    chosenTargets.push(set);
    keywordsTaken.add(`${c.language}\0${c.keywords}`);
    return topic;
  };
  // Translated chapters first (few candidates, each language's own quota), then the English kinds.
  for (const s of sites.filter((x) => (x.language ?? 'en') !== 'en'))
    take(
      chapterCandidates.filter((c) => c.site === s.name),
      o.chaptersPerLanguage,
    );
  take(
    chapterCandidates.filter((c) => c.language === 'en'),
    o.chapters,
  );
  take(crossCandidates, o.crossSite);
  take(queryCandidates, o.queries);
  return {
    topics: chosen,
    candidates: { chapter: chapterCandidates.length, 'cross-site': crossCandidates.length, query: queryCandidates.length },
  };
}

/** Page labels: the first heading, else the title without the suffix most of its site's titles share. */
function pageLabels(corpus: CorpusIndex, siteOf: (i: number) => string): string[] {
  const suffixes = new Map<string, Map<string, number>>();
  const suffixOf = (title: string) => /\s[—–|:-]\s[^—–|]*$/.exec(title)?.[0];
  corpus.titles.forEach((t, i) => {
    const sfx = suffixOf(t);
    if (!sfx) return;
    const site = siteOf(i);
    if (!suffixes.has(site)) suffixes.set(site, new Map());
    const m = suffixes.get(site)!;
    m.set(sfx, (m.get(sfx) ?? 0) + 1);
  });
  const siteSize = countBy(
    corpus.ids.map((_, i) => i),
    siteOf,
  );
  const common = new Map<string, string>();
  for (const [site, m] of suffixes) {
    const [best, count] = [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];
    if (count >= 0.5 * (siteSize.get(site) ?? 0)) common.set(site, best);
  }
  return corpus.ids.map((_, i) => {
    if (corpus.headings[i]) return corpus.headings[i];
    const t = corpus.titles[i];
    const sfx = common.get(siteOf(i));
    return sfx && t.endsWith(sfx) ? t.slice(0, -sfx.length).trim() : t;
  });
}

/** For each stemmed phrase, the most frequent lowercased surface form among the headings (what a person types). */
function surfaceForms(pages: number[], labels: string[]): Map<string, string> {
  const counts = new Map<string, Map<string, number>>();
  for (const i of pages) {
    const ws = headingWords(labels[i], 'en');
    for (let a = 0; a < ws.length; a++)
      for (let len = 1; len <= 4 && a + len <= ws.length; len++) {
        const part = ws.slice(a, a + len);
        if (part.some((w) => w.stop || w.code)) break;
        const key = part.map((w) => sStem(w.word)).join(' ');
        const form = part.map((w) => w.word).join(' ');
        if (!counts.has(key)) counts.set(key, new Map());
        const m = counts.get(key)!;
        m.set(form, (m.get(form) ?? 0) + 1);
      }
  }
  const out = new Map<string, string>();
  for (const [key, m] of counts) out.set(key, [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0][0]);
  return out;
}

/** A description for the lexical measures: a lead line, then the headings of up to 12 targets (spread over them). */
function describe(lead: string, targets: number[], labels: string[]): string {
  const pick = Math.min(12, targets.length);
  const heads = Array.from({ length: pick }, (_, k) => labels[targets[Math.floor((k * targets.length) / pick)]]);
  return `${lead}. ${[...new Set(heads)].join('; ')}`.slice(0, 1500);
}

/** A relative href resolved against a folder (`a/b/`), or undefined when it leaves the site or is absolute. */
function resolvePath(base: string, href: string): string | undefined {
  if (href === '' || /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('/')) return undefined;
  const parts = base.split('/').filter(Boolean);
  for (const seg of href.split('/')) {
    if (seg === '..') {
      if (!parts.length) return undefined;
      parts.pop();
    } else if (seg !== '.' && seg !== '') parts.push(seg);
  }
  let path = parts.join('/');
  if (href.endsWith('/')) path += '/index.html';
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}

/** Non-hub pages exactly 3 links from the nearest target, on paths through no hub; up to `max`, chosen by a hash. */
function neighborsOf(c: Candidate, corpus: CorpusIndex, inlinks: Int32Array[], max: number): string[] {
  const n = corpus.size;
  const dist = new Int8Array(n).fill(-1);
  let frontier = [...c.targets];
  for (const i of frontier) dist[i] = 0;
  for (let d = 1; d <= 3; d++) {
    const next: number[] = [];
    for (const j of frontier) {
      if (d > 1 && corpus.hub[j]) continue; // paths do not pass through hubs
      for (const i of inlinks[j]) {
        if (dist[i] >= 0) continue;
        dist[i] = d;
        next.push(i);
      }
    }
    frontier = next;
  }
  return frontier
    .filter((i) => !corpus.hub[i])
    .map((i) => corpus.ids[i])
    .sort((a, b) => (sha1(c.id + a) < sha1(c.id + b) ? -1 : 1))
    .slice(0, max)
    .sort();
}

/** A chapter of a table of contents: its title as the table names it, and its pages (the chapter page first). */
export interface TocChapter {
  title: string;
  pages: string[];
}

interface TocNode {
  tag: string;
  cls: string;
  href?: string;
  text: string;
  children: TocNode[];
  parent?: TocNode;
}

/**
 * The chapters of a table-of-contents page, in the three shapes the corpus's manuals use: DocBook (`span.chapter` /
 * `span.appendix` entries followed by `span.section` ones: the handbooks), Sphinx (`li.toctree-l1` and `li.toctree-l2`
 * items with the items nested in them) and mdBook (`ol.chapter` > `li.chapter-item`, sections in the next item's
 * `ol.section`: the Rust books). Hrefs are returned as written, fragments dropped.
 */
export function tocChapters(html: string): TocChapter[] {
  const root: TocNode = { tag: 'root', cls: '', text: '', children: [] };
  let node = root;
  let span: string | undefined;
  let link: TocNode | undefined;
  const docbook: TocChapter[] = [];
  let current: TocChapter | undefined;
  const clean = (t: string) =>
    t
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/^[\dIVXA-H]+(\.\d+)*\.?\s+/, '');
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'ul' || name === 'ol' || name === 'li') {
          const child: TocNode = { tag: name, cls: attrs.class ?? '', text: '', children: [], parent: node };
          node.children.push(child);
          node = child;
        } else if (name === 'span' && attrs.class) span = attrs.class;
        else if (name === 'a' && attrs.href !== undefined && !link) {
          link = { tag: 'a', cls: span ?? '', href: attrs.href.split('#')[0], text: '', children: [], parent: node };
          node.children.push(link);
        }
      },
      ontext(text) {
        if (link) link.text += text;
      },
      onclosetag(name) {
        if ((name === 'ul' || name === 'ol' || name === 'li') && node.tag === name && node.parent) node = node.parent;
        else if (name === 'span') span = undefined;
        else if (name === 'a' && link) {
          const kind = link.cls;
          if ((kind === 'chapter' || kind === 'appendix') && link.href) {
            current = { title: clean(link.text), pages: [link.href] };
            docbook.push(current);
          } else if (kind === 'part' || kind === 'preface' || kind === 'glossary' || kind === 'index') current = undefined;
          else if (kind === 'section' && current && link.href && !current.pages.includes(link.href))
            current.pages.push(link.href);
          link = undefined;
        }
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();

  const links = (n: TocNode, out: string[] = []): string[] => {
    for (const c of n.children) {
      if (c.tag === 'a' && c.href && !out.includes(c.href)) out.push(c.href);
      links(c, out);
    }
    return out;
  };
  const firstLink = (n: TocNode) => n.children.find((c) => c.tag === 'a' && c.href);
  const chapters: TocChapter[] = [...docbook];
  const walk = (n: TocNode) => {
    for (const c of n.children) {
      const classes = c.cls.split(/\s+/);
      if (c.tag === 'li' && (classes.includes('toctree-l1') || classes.includes('toctree-l2'))) {
        const a = firstLink(c);
        if (a) chapters.push({ title: clean(a.text), pages: links(c) });
      }
      if ((c.tag === 'ol' || c.tag === 'ul') && classes.includes('chapter')) {
        let last: TocChapter | undefined;
        for (const item of c.children) {
          const a = firstLink(item);
          if (a) {
            last = { title: clean(a.text), pages: links(item) };
            chapters.push(last);
          } else if (last) for (const h of links(item)) if (!last.pages.includes(h)) last.pages.push(h);
        }
      }
      walk(c);
    }
  };
  walk(root);
  return chapters.filter(
    (c) => c.title !== '' && c.pages.length > 0 && c.pages[0] !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(c.pages[0]),
  );
}

function countBy<T>(items: T[], key: (x: T) => string): Map<string, number> {
  const m = new Map<string, number>();
  for (const x of items) m.set(key(x), (m.get(key(x)) ?? 0) + 1);
  return m;
}

function mostCommon(counts: Map<string, number>): string {
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0][0];
}

/** The split of a topic: a third of topics (by a hash of the topic id, or of its splitKey) are for tuning. */
export function splitOf(topic: { id: string; splitKey?: string }): 'tune' | 'test' {
  const h = Number.parseInt(sha1(`split:${topic.splitKey ?? topic.id}`).slice(0, 8), 16);
  return h % 3 === 0 ? 'tune' : 'test';
}
