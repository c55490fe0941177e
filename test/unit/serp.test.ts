import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import {
  ENGINES,
  applyRedirectRule,
  assertEngines,
  decodeBase64Url,
  detectEngine,
  domainMatches,
  engineProblems,
  extractSerp,
  hostMatches,
  selectorProblem,
  siteOf,
  unwrapRedirect,
  type EngineSpec,
  type QueryRoot,
} from '../../lib/app/serp/index';
import { bing, duckduckgo, google, mojeek, yahoo } from '../../lib/app/serp/engines/index';
import { canonicalizeUrl } from '../../lib/engine/url/canonical';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const fixtureDir = path.resolve(repoRoot, 'test/fixtures/serp');

interface Expected {
  engine: string | null;
  query: string;
  results: { title: string; url: string; snippet?: false }[];
}

/** A real results page kept under test/fixtures/serp (pages.json; sources and licenses in the README there). */
interface RealPage {
  name: string;
  /** The URL the page was served under. */
  url: string;
  engine: string | null;
  layout: string;
  source: { repository: string; path: string; license: string };
}

function parse(html: string): QueryRoot {
  return parseHTML(html).document as unknown as QueryRoot;
}

function expectedFor(basename: string): Expected {
  return JSON.parse(readFileSync(path.join(fixtureDir, `${basename}.expected.json`), 'utf8')) as Expected;
}

const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Holds an extraction to the hand-written truth: same engine, query, and ordered URLs and titles. */
function expectMatches(got: ReturnType<typeof extractSerp>, want: Expected): void {
  expect(got.engine).toBe(want.engine);
  expect(got.query).toBe(want.query);
  expect(got.results.map((r) => r.url)).toEqual(want.results.map((r) => canonicalizeUrl(r.url)));
  expect(got.results.map((r) => norm(r.title))).toEqual(want.results.map((r) => norm(r.title)));
  expect(got.results.map((r) => r.rank)).toEqual(want.results.map((_, i) => i + 1));
}

const REAL_PAGES = JSON.parse(readFileSync(path.join(fixtureDir, 'pages.json'), 'utf8')) as RealPage[];

const realDocs = new Map<string, QueryRoot>();
function realDoc(name: string): QueryRoot {
  let doc = realDocs.get(name);
  if (!doc) {
    doc = parse(gunzipSync(readFileSync(path.join(fixtureDir, `${name}.html.gz`))).toString('utf8'));
    realDocs.set(name, doc);
  }
  return doc;
}

function page(name: string): RealPage {
  const p = REAL_PAGES.find((x) => x.name === name);
  if (!p) throw new Error(`no real page named ${name} in pages.json`);
  return p;
}

const extractPage = (name: string) => extractSerp(realDoc(name), page(name).url);

/** Pages whose organic results are exactly the links with a heading outside page furniture (checked by running the fallback). */
const FALLBACK_EQUAL = [
  'google-desktop-coffee-2023',
  'google-desktop-matrix-2023',
  'bing-javascript-tutorial-2026-04',
  'ecosia-javascript-tutorial-2026-04',
  'startpage-javascript-tutorial-2026-04',
];

describe('real results pages (test/fixtures/serp, read by hand into <name>.expected.json)', () => {
  for (const p of REAL_PAGES) {
    it(`${p.name} (${p.layout}): the hand-listed organic results in order, the query, a snippet wherever the page shows one`, () => {
      const want = expectedFor(p.name);
      const got = extractPage(p.name);
      expectMatches(got, want);
      got.results.forEach((r, i) => {
        if (want.results[i].snippet !== false) expect(r.snippet, `${p.name} #${i + 1} ${r.url}`).not.toBe('');
      });
    });
  }

  it('precision and recall are 1.00 on every page, over all pages too', () => {
    let found = 0;
    let relevant = 0;
    let correct = 0;
    for (const p of REAL_PAGES) {
      const want = new Set(expectedFor(p.name).results.map((r) => canonicalizeUrl(r.url)));
      const got = extractPage(p.name).results.map((r) => r.url);
      const hits = got.filter((u) => want.has(u)).length;
      expect({ page: p.name, precision: got.length ? hits / got.length : 1, recall: want.size ? hits / want.size : 1 }).toEqual({
        page: p.name,
        precision: 1,
        recall: 1,
      });
      found += got.length;
      relevant += want.size;
      correct += hits;
    }
    expect(correct).toBe(found);
    expect(correct).toBe(relevant);
    expect(relevant).toBeGreaterThan(400);
  });

  it('every page in the folder is listed with its source, and every listed page has its expected results', () => {
    const readme = readFileSync(path.join(fixtureDir, 'README.md'), 'utf8');
    const files = readdirSync(fixtureDir).filter((f) => f.endsWith('.html.gz'));
    // The pages of engines added from the Webis annotations are listed apart (serp-unseen-engines.test.ts).
    const unseen = JSON.parse(readFileSync(path.join(fixtureDir, 'unseen-engines.json'), 'utf8')) as RealPage[];
    expect(files.sort()).toEqual([...REAL_PAGES, ...unseen].map((p) => `${p.name}.html.gz`).sort());
    for (const p of unseen) expect(readme, p.name).toContain(p.name);
    for (const p of REAL_PAGES) {
      expect(readme, p.name).toContain(p.name);
      expect(readme, p.name).toContain(p.source.repository);
      expect(existsSync(path.join(fixtureDir, `${p.name}.expected.json`)), p.name).toBe(true);
    }
  });
});

describe('the results-page patterns, each on a real page', () => {
  it('Google: nested same-site sub-results are not results (2023 desktop, "dell xps 13 buy": the 4th site is 4th)', () => {
    const got = extractPage('google-desktop-dell-2023');
    expect(got.results.map((r) => new URL(r.url).hostname)).toEqual([
      'www.dell.com',
      'www.bestbuy.com',
      'www.amazon.com',
      'www.walmart.com',
    ]);
    // The same on the 2021 layout and on mobile, where sub-results share their parent's card.
    expect(extractPage('google-desktop-dell-2021').results.map((r) => new URL(r.url).hostname)).toEqual([
      'www.dell.com',
      'www.bestbuy.com',
      'www.amazon.com',
      'www.amazon.com',
      'www.amazon.com',
      'www.amazon.com',
    ]);
    expect(extractPage('google-mobile-dell-2023').results).toHaveLength(3);
  });

  it('Google: consecutive results of one site that are not nested stay results (.com domains: five GoDaddy pages)', () => {
    const got = extractPage('google-desktop-com-domains-2023');
    expect(got.results.filter((r) => r.url.startsWith('https://www.godaddy.com/'))).toHaveLength(5);
  });

  it('Google mobile: a "Discussions and forums" block is not results', () => {
    const got = extractPage('google-mobile-paris-2023');
    expect(got.results.some((r) => r.url.includes('quora.com'))).toBe(false);
    expect(got.results).toHaveLength(9);
  });

  it('Google 2023: the featured snippet above the results container (#Odp5De) is the first result, with its text', () => {
    const got = extractPage('google-desktop-featured-snippet-2023');
    expect(got.results[0].url).toBe('https://developers.google.com/search/docs/appearance/featured-snippets');
    expect(got.results[0].snippet).toMatch(/special boxes where the format of a regular search result is reversed/);
  });

  it('Google: a search for "google" yields its organic results on Google\'s own sites; Google\'s navigation stays out', () => {
    for (const name of [
      'google-desktop-google-2023',
      'google-mobile-google-2023',
      'google-nojs-google-2023',
      'google-desktop-google-2021',
    ]) {
      const got = extractPage(name);
      expect(got.results.length, name).toBeGreaterThanOrEqual(4);
      expect(got.results[0].url, name).toMatch(/^https:\/\/(www\.)?google\.com\/$/);
      for (const r of got.results) expect(r.url, name).not.toMatch(/google\.com\/(search|url)\b/);
    }
    const hosts = extractPage('google-desktop-google-2023').results.map((r) => new URL(r.url).hostname);
    expect(hosts).toContain('maps.google.com');
    expect(extractPage('google-mobile-google-2023').results.map((r) => new URL(r.url).hostname)).toContain('play.google.com');
    expect(extractPage('google-desktop-featured-snippet-2023').results.map((r) => new URL(r.url).hostname)).toContain(
      'support.google.com',
    );
  });

  it('snippets are read on Google pages without JavaScript and on the 2019 DuckDuckGo page', () => {
    for (const name of [
      'google-nojs-coffee-2023',
      'google-nojs-google-2023',
      'google-nojs-google-2020',
      'duckduckgo-cloud-service-2019',
    ]) {
      const got = extractPage(name);
      expect(got.results.length, name).toBeGreaterThan(0);
      for (const r of got.results) expect(r.snippet.length, `${name} ${r.url}`).toBeGreaterThan(20);
    }
    const wiki = extractPage('google-nojs-coffee-2023').results[0];
    expect(wiki.snippet).toMatch(/^Coffee is a beverage prepared from roasted coffee beans/);
  });

  it('Bing /ck/a and Yahoo RU= wrappers are unwrapped on real pages', () => {
    const bingPage = gunzipSync(readFileSync(path.join(fixtureDir, 'bing-javascript-tutorial-2026-04.html.gz'))).toString('utf8');
    expect(bingPage).toContain('bing.com/ck/a?');
    for (const r of extractPage('bing-javascript-tutorial-2026-04').results)
      expect(new URL(r.url).hostname).not.toMatch(/bing\.com$/);
    // Yahoo 2021: every organic title link is an r.search.yahoo.com/.../RU=<target>/RK=... wrapper in the page as served.
    const yahoo2021 = realDoc('yahoo-wheatstone-bridge-2021');
    const wrapped = Array.from(yahoo2021.querySelectorAll('a.ac-algo')).map((a) => a.getAttribute('href') ?? '');
    expect(wrapped.length).toBe(8);
    for (const href of wrapped) expect(href).toMatch(/^https:\/\/r\.search\.yahoo\.com\/.*\/RU=/);
    const got = extractPage('yahoo-wheatstone-bridge-2021').results.map((r) => r.url);
    expect(got[0]).toBe('https://en.wikipedia.org/wiki/Wheatstone_bridge');
    for (const url of got) expect(new URL(url).hostname).not.toMatch(/yahoo\.com$/);
  });

  it("a bot-challenge page gives no results: Google's names its engine and the query it stands in for", () => {
    const got = extractPage('google-challenge-2020');
    expect(got).toMatchObject({ engine: 'google', query: '.com domains', results: [], challenge: true });
    for (const name of ['bing-challenge-2026', 'qwant-unavailable-2026', 'searx-challenge-2026']) {
      expect(extractPage(name).results, name).toEqual([]);
    }
  });

  it('Qwant: the web results of two real pages (2021 and 2022 markup)', () => {
    expect(extractPage('qwant-rosa-linux-2022').results).toHaveLength(10);
    expect(extractPage('qwant-great-falls-gun-club-2021').results).toHaveLength(10);
  });
});

describe("the engines' selectors and the structural fallback", () => {
  it('google: reads the query from the search box when the URL has none', () => {
    const got = extractSerp(realDoc('google-desktop-matrix-2023'), 'https://www.google.com/search');
    expect(got.query).toBe('The Matrix');
  });

  it('google: the snippet belongs to its own result', () => {
    const got = extractPage('google-desktop-matrix-2023');
    const wiki = got.results.find((r) => r.url === 'https://en.wikipedia.org/wiki/The_Matrix');
    expect(wiki?.snippet).toMatch(/1999 science fiction action film/);
  });

  it('the structural fallback alone finds the same results on pages with headed result links', () => {
    // engine null: as if the engine were unknown (or all its selectors had broken).
    for (const name of FALLBACK_EQUAL) {
      // The cap for unknown engines (50) is lifted: the 100-result Google page is in the list.
      const got = extractSerp(realDoc(name), page(name).url, null, { maxResults: 100 });
      expect(got.via, name).toBe('fallback');
      expect(got.engine).toBeNull();
      expect(
        got.results.map((r) => r.url),
        name,
      ).toEqual(expectedFor(name).results.map((r) => canonicalizeUrl(r.url)));
    }
  });

  it('an engine whose selectors no longer match falls back to structure (Bing with stale classes)', () => {
    const stale: EngineSpec = {
      ...bing,
      results: { container: ['li.b_algo_2099'], title: ['h2'], link: ['a'], snippet: ['p'] },
    };
    const got = extractSerp(realDoc('bing-javascript-tutorial-2026-04'), page('bing-javascript-tutorial-2026-04').url, stale);
    expect(got.via).toBe('fallback');
    expect(got.engine).toBe('bing');
    expectMatches(got, expectedFor('bing-javascript-tutorial-2026-04'));
  });
});

describe('synthetic pages', () => {
  const load = (name: string) => parse(readFileSync(path.join(fixtureDir, `${name}.html`), 'utf8'));

  it('DuckDuckGo HTML version: uddg links unwrapped, ad and duplicate dropped, query from the POST form', () => {
    const got = extractSerp(load('duckduckgo-html'), 'https://html.duckduckgo.com/html/');
    expectMatches(got, expectedFor('duckduckgo-html'));
    expect(got.via).toBe('engine');
    expect(got.results[0].snippet).toBe('Ownership is a set of rules that govern how a Rust program manages memory.');
    expect(got.results.some((r) => r.url.includes('learn-rust-fast'))).toBe(false);
  });

  it('Yahoo: RU= links unwrapped, top and bottom ads and "also try" dropped', () => {
    const got = extractSerp(load('yahoo'), 'https://search.yahoo.com/search;_ylt=AwrFDkp?p=rust+ownership&fr=yfp-t');
    expectMatches(got, expectedFor('yahoo'));
    expect(got.results.some((r) => /ferris-merch|bootcamp/.test(r.url))).toBe(false);
    expect(got.results[1].snippet).toBe('Feb 3, 2021 · Rust uses an ownership model to manage memory.');
  });

  it('Yahoo with stale selectors: the fallback keeps the ads out through the exclusions and the "Ad" label', () => {
    const stale: EngineSpec = { ...yahoo, results: { ...yahoo.results, container: ['div.algo-2099'] } };
    const url = 'https://search.yahoo.com/search?p=rust+ownership';
    const got = extractSerp(load('yahoo'), url, stale);
    expect(got.via).toBe('fallback');
    expect(got.results.map((r) => r.url)).toEqual(expectedFor('yahoo').results.map((r) => canonicalizeUrl(r.url)));
    // Without the exclusion data, the ad labelled "Ad" stays out by its label; the unlabelled one gets in: the
    // exclusions and the label each do their part.
    const unguarded = extractSerp(load('yahoo'), url, { ...stale, exclude: [] });
    expect(unguarded.results.filter((r) => /ferris-merch/.test(r.url))).toHaveLength(0);
    expect(unguarded.results.filter((r) => /bootcamp/.test(r.url))).toHaveLength(1);
  });

  it('unknown engine: structural fallback keeps headed external links, drops furniture, ads, own and non-http links', () => {
    const got = extractSerp(load('unknown-engine'), 'https://search.example.net/find?query=tidal+energy');
    expectMatches(got, expectedFor('unknown-engine'));
    expect(got.via).toBe('fallback');
  });

  it('unknown engine: query from the search box when the URL has none', () => {
    const got = extractSerp(load('unknown-engine'), 'https://search.example.net/find');
    expect(got.query).toBe('tidal energy');
  });
  it('Mojeek (inline page in its markup): results-standard list, a.title links, p.s snippets', () => {
    const doc = parse(`<html><body><form action="/search"><input name="q" value="tide tables"></form>
      <ul class="results-standard">
        <li class="r1"><a class="ob" href="https://tidesandcurrents.example.gov/"><span class="url">tidesandcurrents.example.gov</span></a>
          <h2><a class="title" href="https://tidesandcurrents.example.gov/">Tides &amp; Currents</a></h2><p class="s">Water levels and predictions.</p></li>
        <li class="r2"><a class="ob" href="https://www.tide-forecast.example/"><span class="url">tide-forecast.example</span></a>
          <h2><a class="title" href="https://www.tide-forecast.example/">Tide Times and Tide Charts</a></h2><p class="s">Tide tables for 10,000 locations.</p></li>
      </ul>
      <div class="pagination"><a href="/search?q=tide+tables&amp;s=11">Next</a></div></body></html>`);
    const got = extractSerp(doc, 'https://www.mojeek.com/search?q=tide+tables');
    expect(got.engine).toBe('mojeek');
    expect(got.via).toBe('engine');
    expect(got.results.map((r) => [r.title, r.url, r.snippet])).toEqual([
      ['Tides & Currents', 'https://tidesandcurrents.example.gov/', 'Water levels and predictions.'],
      ['Tide Times and Tide Charts', 'https://www.tide-forecast.example/', 'Tide tables for 10,000 locations.'],
    ]);
  });
});

describe('hostile and odd input', () => {
  it('a title holding markup stays text: escaped tags are literal, script elements are not read', () => {
    const doc = parse(`<html><body><div id="links">
      <div class="result web-result"><h2 class="result__title"><a class="result__a"
        href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fevil.example%2F">&lt;script&gt;alert(1)&lt;/script&gt; Free &lt;b&gt;stuff&lt;/b&gt;</a></h2></div>
      <div class="result web-result"><h2 class="result__title"><a class="result__a"
        href="https://other.example/">Safe<script>document.title='pwned'</script> <img src=x onerror="alert(2)">title<style>a{}</style></a></h2></div>
    </div></body></html>`);
    const got = extractSerp(doc, 'https://html.duckduckgo.com/html/?q=x');
    expect(got.results.map((r) => r.title)).toEqual(['<script>alert(1)</script> Free <b>stuff</b>', 'Safe title']);
    expect(got.results.map((r) => r.url)).toEqual(['https://evil.example/', 'https://other.example/']);
  });

  it('huge titles are capped; broken wrappers and odd schemes are dropped without throwing', () => {
    const long = 'word '.repeat(500);
    const doc = parse(`<html><body>
      <h3><a href="https://long.example/">${long}</a></h3>
      <a href="https://www.bing.com/ck/a?!&&p=1&u=a1%%%notbase64"><h3>Broken Bing wrapper</h3></a>
      <a href="https://r.search.yahoo.com/_ylt=A/RU=%E0%A4%A/RK=2/RS=x"><h3>Broken Yahoo wrapper</h3></a>
      <a href="/url?q=javascript:alert(1)"><h3>Script through Google</h3></a>
      <a href="data:text/html,hi"><h3>Data URL</h3></a>
      <a href="mailto:a@b.example"><h3>Mail</h3></a>
      <a href="http://[::1"><h3>Unparseable</h3></a>
    </body></html>`);
    const got = extractSerp(doc, 'https://www.google.com/search?q=x', null);
    expect(got.results.map((r) => r.url)).toEqual(['https://long.example/']);
    expect(got.results[0].title.length).toBeLessThanOrEqual(300);
  });

  it('invalid selectors in engine data match nothing instead of throwing', () => {
    const broken: EngineSpec = {
      ...duckduckgo,
      results: { container: ['div[[['], title: ['::nope('], link: ['a['], snippet: ['p)'] },
      exclude: ['div[[[', '.result--ad'],
    };
    const doc = parse(readFileSync(path.join(fixtureDir, 'duckduckgo-html.html'), 'utf8'));
    const got = extractSerp(doc, 'https://html.duckduckgo.com/html/', broken);
    expect(got.via).toBe('fallback');
    // The valid exclusion still applies: the ad is not among the results.
    expect(got.results.map((r) => r.url)).toEqual(expectedFor('duckduckgo-html').results.map((r) => canonicalizeUrl(r.url)));
  });

  it('an invalid page URL is a clear error; an empty page gives no results', () => {
    expect(() => extractSerp(parse('<html></html>'), 'not a url')).toThrow(TypeError);
    const got = extractSerp(parse('<html><body></body></html>'), 'https://www.bing.com/search?q=nothing');
    expect(got).toEqual({
      engine: 'bing',
      engineName: 'Bing',
      query: 'nothing',
      results: [],
      linkCount: 0,
      via: 'fallback',
      challenge: false,
      hidden: 0,
      overCap: 0,
      redirects: 0,
      blocked: 'unreadable',
      visibleLinks: [],
    });
  });

  it('relative result links resolve against <base href>', () => {
    const doc = parse(`<html><head><base href="https://mirror.example.org/docs/"></head><body>
      <h3><a href="guide.html">Guide</a></h3></body></html>`);
    const got = extractSerp(doc, 'https://search.example.net/find?query=guide');
    expect(got.results.map((r) => r.url)).toEqual(['https://mirror.example.org/docs/guide.html']);
  });

  it('on an unknown engine a numeric p= is a page number, not a query', () => {
    const got = extractSerp(parse('<html><body></body></html>'), 'https://search.example.net/find?p=2&q=tides');
    expect(got.query).toBe('tides');
  });
});

describe('only results the user can see become seeds, and only so many', () => {
  /** An unknown engine's page: visible headed links, and the same kind of links hidden in each way the markup can say. */
  const hidingPage = `<html><body><form><input name="q" value="router admin"></form><main>
    <div class="r"><h3><a href="https://visible-one.example/">Visible one</a></h3><p>Shown to the reader, a description long enough.</p></div>
    <div class="r" hidden><h3><a href="http://192.168.1.1/">Hidden attribute</a></h3></div>
    <div class="r" style="display: none"><h3><a href="http://10.0.0.1/">Inline display none</a></h3></div>
    <div class="r"><h3><a style="visibility:hidden" href="http://10.0.0.2/">Invisible link</a></h3></div>
    <div class="r"><h3><a style="opacity: 0" href="http://10.0.0.3/">Transparent link</a></h3></div>
    <div class="r" aria-hidden="true"><h3><a href="http://169.254.169.254/latest/meta-data/">Hidden from assistive technology</a></h3></div>
    <div class="r"><h3><a aria-hidden="true" href="http://10.0.0.4/">Link hidden from assistive technology</a></h3></div>
    <div class="r"><h3><a href="https://visible-two.example/">Visible two</a></h3></div>
  </main></body></html>`;

  it('hidden, display:none, an invisible or transparent link, aria-hidden: left out and counted', () => {
    const got = extractSerp(parse(hidingPage), 'https://search.example.net/find?q=router+admin');
    expect(got.results.map((r) => r.url)).toEqual(['https://visible-one.example/', 'https://visible-two.example/']);
    expect(got.hidden).toBe(6);
  });

  it('the same page before the check would have given every link (the check is what keeps them out)', () => {
    const got = extractSerp(parse(hidingPage), 'https://search.example.net/find?q=router+admin', undefined, {
      isVisible: () => true,
    });
    // aria-hidden is part of the extractor itself; the rest is the visibility check's.
    expect(got.results).toHaveLength(6);
  });

  it('an ancestor with inline visibility:hidden or opacity:0 hides nothing by itself (Google mobile 2021 shows results inside one)', () => {
    const got = extractSerp(
      parse(`<html><body><div style="visibility:hidden;opacity:0"><div style="visibility:visible">
        <h3><a href="https://shown.example/">Shown again</a></h3></div></div></body></html>`),
      'https://search.example.net/find?q=x',
    );
    expect(got.results.map((r) => r.url)).toEqual(['https://shown.example/']);
  });

  it('the visibility check the content script passes decides: what it hides is left out', () => {
    const doc = parse(hidingPage);
    const got = extractSerp(doc, 'https://search.example.net/find?q=router+admin', undefined, {
      isVisible: (el) => (el.textContent ?? '').includes('Visible one'),
    });
    expect(got.results.map((r) => r.url)).toEqual(['https://visible-one.example/']);
  });

  it('a page of 500 headed links to private hosts gives at most 100 seeds (the most any engine serves on a page)', () => {
    const links = Array.from(
      { length: 500 },
      (_, i) => `<div><h3><a href="http://10.0.${i >> 8}.${i & 255}/">Router ${i}</a></h3></div>`,
    ).join('');
    const html = `<html><body>${links}</body></html>`;
    const unknown = extractSerp(parse(html), 'https://evil.example/search?q=routers');
    expect(unknown.results).toHaveLength(100);
    expect(unknown.overCap).toBe(400);
    expect(unknown.results[99].url).toBe('http://10.0.0.99/');
    const known = extractSerp(parse(html), 'https://www.bing.com/search?q=routers');
    expect(known.results).toHaveLength(100);
    expect(known.overCap).toBe(400);
    expect(extractSerp(parse(html), 'https://evil.example/search?q=routers', undefined, { maxResults: 5 }).results).toHaveLength(
      5,
    );
  });

  it("siteOf: the registrable name, near enough to group one site's results", () => {
    expect(siteOf('www.dell.com')).toBe('dell.com');
    expect(siteOf('deals.dell.com')).toBe('dell.com');
    expect(siteOf('www.bbc.co.uk')).toBe('bbc.co.uk');
    expect(siteOf('en.m.wikipedia.org')).toBe('wikipedia.org');
    expect(siteOf('localhost')).toBe('localhost');
    expect(siteOf('192.168.1.1')).toBe('192.168.1.1');
    expect(siteOf('127.0.0.1:8081')).not.toBe(siteOf('127.0.0.1:8082'));
  });
});

describe('redirect unwrapping rules', () => {
  const engines = ENGINES;

  it('Google /url?q= and /url?url= (percent-encoded), on country domains too', () => {
    expect(
      unwrapRedirect(
        '/url?q=https://example.com/a%3Fb%3D1%26c%3D%25C3%25BC&sa=U&ved=2ah',
        'https://www.google.com/search?q=x',
        engines,
      ),
    ).toBe('https://example.com/a?b=1&c=%C3%BC');
    expect(
      unwrapRedirect(
        'https://www.google.co.uk/url?sa=t&url=https%3A%2F%2Fexample.org%2Fpage&usg=AOv',
        'https://www.google.co.uk/',
        engines,
      ),
    ).toBe('https://example.org/page');
    // The rule only applies under /url on Google hosts.
    expect(unwrapRedirect('https://example.net/url?q=https://example.com/', 'https://example.net/', engines)).toBe(
      'https://example.net/url?q=https://example.com/',
    );
  });

  it('Bing /ck/a?u=a1<base64url>: prefix stripped, URL-safe alphabet, padding restored, UTF-8 decoded', () => {
    const target = 'https://example.com/wiki/Ümlaut?q=a~b>c&d=ü??';
    const b64 = Buffer.from(target, 'utf8').toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    // The case is only meaningful if the encoding needs the URL-safe characters and padding.
    expect(/[-_]/.test(b64)).toBe(true);
    expect(Buffer.from(target).length % 3).not.toBe(0);
    const href = `https://www.bing.com/ck/a?!&&p=abc&ptn=3&ver=2&hsh=4&u=a1${b64}&ntb=1`;
    expect(unwrapRedirect(href, 'https://www.bing.com/search?q=x', engines)).toBe(new URL(target).href);
    // Without the a1 prefix the rule does not apply: the link stays on bing.com (and is later dropped as the engine's own).
    const noPrefix = `https://www.bing.com/ck/a?u=${b64}`;
    expect(unwrapRedirect(noPrefix, 'https://www.bing.com/', engines)).toBe(noPrefix);
  });

  it('decodeBase64Url rejects what is not base64url UTF-8', () => {
    expect(decodeBase64Url('aHR0cHM6Ly9leGFtcGxlLmNvbS8')).toBe('https://example.com/');
    expect(decodeBase64Url('%%%')).toBeNull();
    expect(decodeBase64Url('a')).toBeNull();
    expect(decodeBase64Url('_w')).toBeNull(); // 0xFF: not UTF-8
  });

  it('DuckDuckGo //duckduckgo.com/l/?uddg= (protocol-relative, percent-encoded)', () => {
    expect(
      unwrapRedirect(
        '//duckduckgo.com/l/?uddg=https%3A%2F%2Fexample.com%2Fx%3Fa%3D1%26b%3D2&rut=abc',
        'https://html.duckduckgo.com/html/',
        engines,
      ),
    ).toBe('https://example.com/x?a=1&b=2');
  });

  it('Yahoo /RU=<encoded>/RK=: the path segment, percent-decoded', () => {
    const href =
      'https://r.search.yahoo.com/_ylt=Awr;_ylu=Y29s/RV=2/RE=1706117712/RO=10/RU=https%3a%2f%2fexample.com%2fa%3fb%3d1/RK=2/RS=lzz-';
    expect(unwrapRedirect(href, 'https://search.yahoo.com/search?p=x', engines)).toBe('https://example.com/a?b=1');
    const rule = yahoo.redirect![0];
    expect(applyRedirectRule(new URL('https://r.search.yahoo.com/_ylt=A/RU=notaurl/RK=2'), rule, yahoo.hosts)).toBeNull();
  });

  it('wrappers inside wrappers are peeled; non-http targets are not unwrapped', () => {
    const inner = `//duckduckgo.com/l/?uddg=${encodeURIComponent('https://example.com/deep')}`;
    expect(unwrapRedirect(`/url?q=${encodeURIComponent(`https:${inner}`)}`, 'https://www.google.com/', engines)).toBe(
      'https://example.com/deep',
    );
    expect(unwrapRedirect('/url?q=javascript:alert(1)', 'https://www.google.com/', engines)).toBe(
      'https://www.google.com/url?q=javascript:alert(1)',
    );
    expect(
      applyRedirectRule(new URL('https://www.google.com/url?q=javascript:alert(1)'), google.redirect![0], google.hosts),
    ).toBeNull();
  });
});

describe('engines as data', () => {
  it('ids are unique and every spec is complete', () => {
    expect(new Set(ENGINES.map((e) => e.id)).size).toBe(ENGINES.length);
    for (const e of ENGINES) {
      expect(e.hosts.length, e.id).toBeGreaterThan(0);
      expect(e.paths.length, e.id).toBeGreaterThan(0);
      expect(e.queryParam.length, e.id).toBeGreaterThan(0);
      expect(e.results.container.length * e.results.title.length * e.results.link.length, e.id).toBeGreaterThan(0);
    }
  });

  it('the engine data passes its schema (valibot), every CSS selector included (css-what, standard pseudo-classes only)', () => {
    expect(engineProblems(ENGINES)).toEqual([]);
    expect(() => assertEngines(ENGINES)).not.toThrow();
    // And every selector also works in the unit tests' DOM.
    const doc = parse('<html><body><div><a href="/">x</a></div></body></html>');
    for (const e of ENGINES) {
      const selectors = [
        ...e.results.container,
        ...e.results.title,
        ...(e.results.titleExclude ?? []),
        ...e.results.link,
        ...e.results.snippet,
        ...e.exclude,
        ...(e.sectionHeadings ?? []),
        ...(e.adMarkers ?? []),
        ...(e.queryInput ?? []),
      ];
      for (const sel of selectors) expect(() => doc.querySelectorAll(sel), `${e.id}: ${sel}`).not.toThrow();
    }
  });

  it('bad engine data is refused with a message naming the engine, the field and the fault', () => {
    const broken = [
      { ...google, results: { ...google.results, title: ['a[href'] } },
      { ...bing, exclude: ['li:contains(Ad)'], sectionHeadings: ['h2::before'] },
      { ...yahoo, redirect: [{ pathSegment: 'RU=', param: 'u' }] },
      { ...duckduckgo, hosts: ['Duck Duck Go'], paths: ['html'] },
      { ...mojeek, id: 'bing' },
      { ...mojeek, id: 'mojeek2', typo: true },
    ];
    const problems = engineProblems(broken);
    const expected = [
      /^google: results\.title\.0: invalid CSS selector "a\[href": does not parse/,
      /^bing: exclude\.0: .*:contains is not a standard pseudo-class/,
      /^bing: sectionHeadings\.0: .*pseudo-element ::before never matches/,
      /^yahoo: redirect\.0: a redirect rule has exactly one of param \/ pathSegment/,
      /^duckduckgo: hosts\.0: host pattern/,
      /^duckduckgo: paths\.0: paths start with "\/"/,
      /^mojeek2: typo: /,
      /^bing: the id is used by 2 engines/,
    ];
    for (const re of expected)
      expect(
        problems.some((p) => re.test(p)),
        `${re} in\n${problems.join('\n')}`,
      ).toBe(true);
    expect(() => assertEngines(broken)).toThrow(/Engine data \(lib\/app\/serp\/engines\) is invalid/);
    expect(selectorProblem('div:has(> [role="heading"]:not(h2))')).toBeNull();
  });

  it('host patterns: country TLDs and subdomain wildcards', () => {
    expect(hostMatches('www.google.co.uk', 'www.google.*')).toBe(true);
    expect(hostMatches('www.google.com.au', 'www.google.*')).toBe(true);
    expect(hostMatches('www.google.cat', 'www.google.*')).toBe(true);
    expect(hostMatches('www.google.evil.com', 'www.google.*')).toBe(false);
    expect(hostMatches('www.google.example', 'www.google.*')).toBe(false);
    expect(hostMatches('uk.search.yahoo.com', '*.search.yahoo.com')).toBe(true);
    expect(hostMatches('search.yahoo.com', '*.search.yahoo.com')).toBe(true);
    expect(hostMatches('notsearch.yahoo.com', '*.search.yahoo.com')).toBe(false);
    expect(domainMatches('maps.google.de', 'google.*')).toBe(true);
    expect(domainMatches('google.com.evil.net', 'google.*')).toBe(false);
  });

  it('detectEngine: results pages of each engine, nothing else', () => {
    const cases: [string, string | undefined][] = [
      ['https://www.google.com/search?q=x', 'google'],
      ['https://www.google.de/search?q=x&hl=de', 'google'],
      ['https://www.google.co.jp/search?q=x', 'google'],
      ['https://www.google.com/maps?q=x', undefined],
      ['https://www.bing.com/search?q=x&form=QBLH', 'bing'],
      ['https://duckduckgo.com/?q=x&ia=web', 'duckduckgo'],
      ['https://html.duckduckgo.com/html/', 'duckduckgo'],
      ['https://duckduckgo.com/about', undefined],
      ['https://search.brave.com/search?q=x', 'brave'],
      ['https://www.startpage.com/sp/search', 'startpage'],
      ['https://www.startpage.com/do/dsearch?query=x', 'startpage'],
      ['https://www.ecosia.org/search?q=x', 'ecosia'],
      ['https://search.yahoo.com/search?p=x', 'yahoo'],
      ['https://uk.search.yahoo.com/search;_ylt=AwrFDkp?p=x', 'yahoo'],
      ['https://www.qwant.com/?q=x&t=web', 'qwant'],
      ['https://www.mojeek.com/search?q=x', 'mojeek'],
      ['https://www.searchingforever.example/search?q=x', undefined],
      ['ftp://www.google.com/search?q=x', undefined],
      ['not a url', undefined],
    ];
    for (const [url, id] of cases) expect(detectEngine(url)?.id, url).toBe(id);
  });
});
