import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import {
  ENGINES,
  applyRedirectRule,
  decodeBase64Url,
  detectEngine,
  domainMatches,
  extractSerp,
  hostMatches,
  unwrapRedirect,
  type EngineSpec,
  type QueryRoot,
} from '../../lib/app/serp/index';
import { bing, duckduckgo, google, yahoo } from '../../lib/app/serp/engines/index';
import { canonicalizeUrl } from '../../lib/engine/url/canonical';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const realDir = path.resolve(repoRoot, '../shared/serp');
const fixtureDir = path.resolve(repoRoot, 'test/fixtures/serp');

interface Expected {
  engine: string | null;
  query: string;
  results: { title: string; url: string }[];
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

// Real pages (/work/shared/serp), each with the URL it was served under.
const REAL_PAGES: { file: string; url: string }[] = [
  { file: 'google-desktop-coffee-2023', url: 'https://www.google.com/search?q=coffee&num=100&gl=US' },
  { file: 'google-desktop-matrix-2023', url: 'https://www.google.com/search?q=The+Matrix' },
  { file: 'bing-javascript-tutorial-2026-04', url: 'https://www.bing.com/search?q=javascript+tutorial' },
  { file: 'brave-javascript-tutorial-2026-04', url: 'https://search.brave.com/search?q=javascript+tutorial&source=web' },
  { file: 'ecosia-javascript-tutorial-2026-04', url: 'https://www.ecosia.org/search?method=index&q=javascript%20tutorial' },
  // Startpage searches are POSTed: the URL has no query, the search box has it.
  { file: 'startpage-javascript-tutorial-2026-04', url: 'https://www.startpage.com/sp/search' },
];

const realDocs = new Map<string, QueryRoot>();
function realDoc(file: string): QueryRoot {
  let doc = realDocs.get(file);
  if (!doc) {
    doc = parse(readFileSync(path.join(realDir, `${file}.html`), 'utf8'));
    realDocs.set(file, doc);
  }
  return doc;
}

describe('real results pages', () => {
  for (const { file, url } of REAL_PAGES) {
    it(`${file}: the hand-listed organic results, in order, with the query`, () => {
      const got = extractSerp(realDoc(file), url);
      expectMatches(got, expectedFor(file));
      expect(got.via).toBe('engine');
      expect(got.linkCount).toBeGreaterThan(got.results.length);
      // Titles are text; every result has a snippet on these pages.
      for (const r of got.results) expect(r.snippet.length).toBeGreaterThan(0);
    });
  }

  it('google: reads the query from the search box when the URL has none', () => {
    const got = extractSerp(realDoc('google-desktop-matrix-2023'), 'https://www.google.com/search');
    expect(got.query).toBe('The Matrix');
  });

  it('google: the snippet belongs to its own result', () => {
    const got = extractSerp(realDoc('google-desktop-matrix-2023'), 'https://www.google.com/search?q=The+Matrix');
    const wiki = got.results.find((r) => r.url === 'https://en.wikipedia.org/wiki/The_Matrix');
    expect(wiki?.snippet).toMatch(/1999 science fiction action film/);
  });

  it('the structural fallback alone finds the same results on pages with headed result links', () => {
    // engine null: as if the engine were unknown (or all its selectors had broken).
    for (const file of [
      'google-desktop-coffee-2023',
      'google-desktop-matrix-2023',
      'bing-javascript-tutorial-2026-04',
      'ecosia-javascript-tutorial-2026-04',
      'startpage-javascript-tutorial-2026-04',
    ]) {
      const page = REAL_PAGES.find((p) => p.file === file)!;
      const got = extractSerp(realDoc(file), page.url, null);
      expect(got.via, file).toBe('fallback');
      expect(got.engine).toBeNull();
      expect(
        got.results.map((r) => r.url),
        file,
      ).toEqual(expectedFor(file).results.map((r) => canonicalizeUrl(r.url)));
    }
  });

  it('an engine whose selectors no longer match falls back to structure (Bing with stale classes)', () => {
    const stale: EngineSpec = {
      ...bing,
      results: { container: ['li.b_algo_2099'], title: ['h2'], link: ['a'], snippet: ['p'] },
    };
    const got = extractSerp(
      realDoc('bing-javascript-tutorial-2026-04'),
      'https://www.bing.com/search?q=javascript+tutorial',
      stale,
    );
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

  it('Yahoo with stale selectors: the fallback still keeps the ads out through the exclusions, and only through them', () => {
    const stale: EngineSpec = { ...yahoo, results: { ...yahoo.results, container: ['div.algo-2099'] } };
    const url = 'https://search.yahoo.com/search?p=rust+ownership';
    const got = extractSerp(load('yahoo'), url, stale);
    expect(got.via).toBe('fallback');
    expect(got.results.map((r) => r.url)).toEqual(expectedFor('yahoo').results.map((r) => canonicalizeUrl(r.url)));
    // The same page without the exclusion data lets both ads in: the exclusions are doing the work.
    const unguarded = extractSerp(load('yahoo'), url, { ...stale, exclude: [] });
    expect(unguarded.results.filter((r) => /ferris-merch|bootcamp/.test(r.url))).toHaveLength(2);
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
    expect(got).toEqual({ engine: 'bing', query: 'nothing', results: [], linkCount: 0, via: 'fallback' });
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

  it('every selector of every engine parses', () => {
    const doc = parse('<html><body><div><a href="/">x</a></div></body></html>');
    for (const e of ENGINES) {
      const selectors = [
        ...e.results.container,
        ...e.results.title,
        ...e.results.link,
        ...e.results.snippet,
        ...e.exclude,
        ...(e.adMarkers ?? []),
        ...(e.queryInput ?? []),
      ];
      for (const s of selectors) expect(() => doc.querySelectorAll(s), `${e.id}: ${s}`).not.toThrow();
    }
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
