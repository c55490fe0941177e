import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decodeHtml, evaluatePage, localEvaluator, prescanMetaCharset } from '../../lib/engine/html';
import { termVector, tokenize } from '../../lib/engine/text';
import type { EvaluationInput, Topic } from '../../lib/engine/types';

const enc = (s: string) => new TextEncoder().encode(s);
const COFFEE: Topic = { keywords: 'coffee brewing' };
const PAGE = 'https://example.com/dir/page.html';

function evaluate(html: string | Uint8Array, extra: Partial<EvaluationInput> = {}) {
  return evaluatePage({
    url: PAGE,
    body: typeof html === 'string' ? enc(html) : html,
    contentType: 'text/html; charset=utf-8',
    topic: COFFEE,
    ...extra,
  });
}

describe('decodeHtml', () => {
  it('decodes windows-1252 declared in the header', () => {
    const r = decodeHtml(new Uint8Array([0x63, 0x61, 0x66, 0xe9]), 'text/html; charset=windows-1252');
    expect(r.text).toBe('café');
    expect(r.charset).toBe('windows-1252');
  });

  it('maps iso-8859-1 to windows-1252 as browsers do, and accepts quoted labels', () => {
    const bytes = new Uint8Array([0x80, 0xe9]); // euro sign in windows-1252
    expect(decodeHtml(bytes, 'text/html; charset="ISO-8859-1"')).toEqual({ text: '€é', charset: 'windows-1252' });
  });

  it('decodes Shift_JIS', () => {
    const r = decodeHtml(new Uint8Array([0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea]), 'text/html; charset=Shift_JIS');
    expect(r.text).toBe('日本語');
    expect(r.charset).toBe('shift_jis');
  });

  it('finds <meta charset> and <meta http-equiv> in the first 1024 bytes', () => {
    const page = (head: string) => new Uint8Array([...enc(`<html><head>${head}</head><body>caf`), 0xe9]);
    expect(decodeHtml(page('<meta charset="windows-1252">')).text).toMatch(/café$/);
    expect(decodeHtml(page("<META HTTP-EQUIV='Content-Type' CONTENT='text/html; charset=iso-8859-1'>")).charset).toBe(
      'windows-1252',
    );
    expect(decodeHtml(page('<meta content="text/html; charset=windows-1252" http-equiv="content-type">')).text).toMatch(/café$/);
    // content= without http-equiv is not a declaration; a comment is not markup.
    expect(decodeHtml(page('<meta content="text/html; charset=windows-1252">')).charset).toBe('utf-8');
    expect(decodeHtml(page('<!-- <meta charset="windows-1252"> -->')).charset).toBe('utf-8');
    // Beyond the first 1024 bytes: not seen.
    expect(decodeHtml(page(`${' '.repeat(1100)}<meta charset="windows-1252">`)).charset).toBe('utf-8');
    expect(prescanMetaCharset(enc('<meta charset=utf-16le>'))).toBe('utf-8');
  });

  it('follows the sniffing order: BOM, then header, then meta, then UTF-8', () => {
    const meta1252 = enc('<meta charset="windows-1252">é');
    // BOM beats the header.
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...enc('é')]);
    expect(decodeHtml(bom, 'text/html; charset=windows-1252')).toEqual({ text: 'é', charset: 'utf-8' });
    // Header beats meta.
    expect(decodeHtml(meta1252, 'text/html; charset=utf-8').text).toBe('<meta charset="windows-1252">é');
    // Meta when the header has no charset.
    expect(decodeHtml(meta1252, 'text/html').charset).toBe('windows-1252');
    // UTF-16LE BOM.
    const le = new Uint8Array([0xff, 0xfe, 0x68, 0x00, 0x69, 0x00]);
    expect(decodeHtml(le)).toEqual({ text: 'hi', charset: 'utf-16le' });
    // Nothing at all: UTF-8.
    expect(decodeHtml(enc('plain é'))).toEqual({ text: 'plain é', charset: 'utf-8' });
  });

  it('falls back past unknown labels and never throws on bad bytes', () => {
    const r = decodeHtml(enc('<meta charset="windows-1252">x'), 'text/html; charset=klingon');
    expect(r.charset).toBe('windows-1252');
    expect(decodeHtml(enc('x'), 'text/html; charset=iso-2022-kr').charset).toBe('utf-8'); // "replacement" encoding
    const bad = decodeHtml(new Uint8Array([0xff, 0xc3, 0x28, 0x80]), 'text/html; charset=utf-8');
    expect(bad.text).toContain('\ufffd');
    expect(decodeHtml(new Uint8Array(0)).text).toBe('');
  });
});

describe('evaluatePage', () => {
  const article = `<!doctype html><html lang="en-GB"><head><title>Coffee &amp; brewing guide</title>
    <style>.coffee { color: brown }</style><script>var coffee = "brewing"; function zebra() {}</script></head>
    <body><nav><a href="/">Home</a></nav>
    <h1>Brewing coffee at home</h1>
    <p>Good coffee starts with fresh beans. Grind them just before brewing, and weigh the coffee and the water.</p>
    <p>Read our <a href="grinders.html?utm_source=feed#top">guide to coffee grinders</a> before you buy one.</p>
    <noscript>enable javascript zebra</noscript><template><p>zebra template</p></template>
    <svg><title>zebra icon</title><text>zebra</text></svg><div hidden>zebra hidden</div>
    </body></html>`;

  it('reads the title, lang, charset and base URL', () => {
    const r = evaluate(article);
    expect(r.title).toBe('Coffee & brewing guide');
    expect(r.lang).toBe('en-GB');
    expect(r.charset).toBe('utf-8');
    expect(r.baseUrl).toBe(PAGE);
    expect(r.robots).toEqual({ noindex: false, nofollow: false });
  });

  it('counts visible text only: script, style, noscript, template, svg and hidden content are skipped', () => {
    const r = evaluate(article);
    expect(r.terms.zebra).toBeUndefined();
    expect(r.terms.javascript).toBeUndefined();
    expect(r.terms.brown).toBeUndefined();
    expect(r.terms.bean).toBe(1);
    expect(r.terms.coffe).toBeGreaterThanOrEqual(5);
    const total = Object.values(r.terms).reduce((a, b) => a + b, 0);
    expect(r.length).toBe(total);
  });

  it('scores an on-topic page above an off-topic one, within [0, 1]', () => {
    const on = evaluate(article);
    const off = evaluate('<title>Tax forms</title><p>File your income tax return before the deadline to avoid penalties.</p>');
    expect(on.score).toBeGreaterThan(0.3);
    expect(on.score).toBeLessThanOrEqual(1);
    expect(off.score).toBe(0);
    expect(on.score).toBeGreaterThan(off.score);
  });

  it('extracts links: resolved, canonical, with anchor text, terms and context', () => {
    const r = evaluate(article);
    expect(r.links.map((l) => l.url)).toEqual(['https://example.com/', 'https://example.com/dir/grinders.html']);
    const g = r.links[1];
    expect(g.anchorText).toBe('guide to coffee grinders');
    expect(g.anchorTerms).toEqual(['guid', 'coffe', 'grinder']);
    expect(g.contextBefore.slice(-2)).toEqual(['water', 'read']); // nearest last
    expect(g.contextAfter).toEqual(['bui', 'on']); // nearest first ("before" and "you" are stop words)
    expect(g.contextBefore.length).toBeLessThanOrEqual(10);
    expect(g.nofollow).toBe(false);
  });

  it('honours the context window', () => {
    const words = Array.from({ length: 30 }, (_, i) => `word${i}x`).join(' ');
    const r = evaluate(`<p>${words} <a href="/x">link</a> ${words}</p>`, { contextWindow: 3 });
    expect(r.links[0].contextBefore).toEqual(['word27x', 'word28x', 'word29x']);
    expect(r.links[0].contextAfter).toEqual(['word0x', 'word1x', 'word2x']);
    expect(evaluate(`<p>${words} <a href="/x">link</a></p>`).links[0].contextBefore).toHaveLength(10);
  });

  it('drops javascript:, mailto:, data:, tel: and fragment-only links', () => {
    const r = evaluate(`<a href="javascript:void(0)">a</a><a href="mailto:x@example.com">b</a><a href="data:text/html,hi">c</a>
      <a href="tel:+1">d</a><a href="#section">e</a><a href=" JavaScript:alert(1)">f</a><a href="ftp://example.com/f">g</a>
      <a href="/ok">ok</a><a>no href</a>`);
    expect(r.links.map((l) => l.url)).toEqual(['https://example.com/ok']);
  });

  it('respects the first <base href>', () => {
    const r = evaluate(
      '<head><base href="https://cdn.example.org/root/"><base href="https://ignored.example/"></head><a href="a/b">x</a>',
    );
    expect(r.baseUrl).toBe('https://cdn.example.org/root/');
    expect(r.links[0].url).toBe('https://cdn.example.org/root/a/b');
    // A relative base is resolved against the page URL; a javascript: base is ignored.
    expect(evaluate('<base href="/sub/"><a href="x">x</a>').links[0].url).toBe('https://example.com/sub/x');
    expect(evaluate('<base href="javascript:alert(1)"><a href="x">x</a>').links[0].url).toBe('https://example.com/dir/x');
  });

  it('deduplicates links by URL, appending distinct later anchors', () => {
    const r = evaluate(`<p>first context <a href="/p?b=1&a=2">Coffee beans</a> after</p>
      <p><a href="/p?a=2&b=1#x">Coffee beans</a><a href="https://EXAMPLE.com/p?a=2&b=1">Arabica</a><a href="/p?a=2&b=1"></a></p>`);
    expect(r.links).toHaveLength(1);
    expect(r.links[0].url).toBe('https://example.com/p?a=2&b=1');
    expect(r.links[0].anchorText).toBe('Coffee beans | Arabica');
    expect(r.links[0].anchorTerms).toEqual(['coffe', 'bean', 'arabica']);
    expect(r.links[0].contextBefore).toEqual(['first', 'context']);
  });

  it("caps a link's anchor text at 300 characters, at a word boundary (one hostile link carried 60,671)", () => {
    const words = Array.from({ length: 9000 }, (_, i) => `coffee${i % 10}`).join(' ');
    const r = evaluate(
      `<a href="/long">${words}</a><a href="/long">second anchor</a><a href="/t" title="${'x '.repeat(5000)}"></a>`,
    );
    const long = r.links.find((l) => l.url.endsWith('/long'))!;
    expect(long.anchorText.length).toBeLessThanOrEqual(300);
    expect(long.anchorText.length).toBeGreaterThan(240);
    expect(words.startsWith(long.anchorText)).toBe(true);
    expect(words[long.anchorText.length]).toBe(' '); // cut between words
    expect(long.anchorTerms.length).toBeLessThan(50);
    const titled = r.links.find((l) => l.url.endsWith('/t'))!;
    expect(titled.anchorText.length).toBeLessThanOrEqual(300);
  });

  it('reads rel=nofollow (followable if any occurrence is) and img alt and area links', () => {
    const r = evaluate(`<a rel="nofollow noopener" href="/n">n</a><a href="/m" rel="NoFollow">m</a><a href="/m">m again</a>
      <a href="/img"><img src="x.png" alt="Espresso machine"></a>
      <map><area href="/area" alt="Map region"></map>`);
    const by = Object.fromEntries(r.links.map((l) => [new URL(l.url).pathname, l]));
    expect(by['/n'].nofollow).toBe(true);
    expect(by['/m'].nofollow).toBe(false);
    expect(by['/img'].anchorText).toBe('Espresso machine');
    expect(by['/img'].anchorTerms).toEqual(['espresso', 'machin']);
    expect(by['/area'].anchorText).toBe('Map region');
  });

  it('reads meta robots noindex / nofollow / none', () => {
    expect(evaluate('<meta name="robots" content="noindex, follow">').robots).toEqual({ noindex: true, nofollow: false });
    expect(evaluate('<meta name="ROBOTS" content="NOFOLLOW">').robots).toEqual({ noindex: false, nofollow: true });
    expect(evaluate('<meta name="robots" content="none">').robots).toEqual({ noindex: true, nofollow: true });
    expect(evaluate('<meta name="description" content="noindex">').robots).toEqual({ noindex: false, nofollow: false });
  });

  it('picks the passage with the most topic words as snippet, plain text and short', () => {
    const filler = `<p>${'Unrelated words about gardens and weather. '.repeat(20)}</p>`;
    const r = evaluate(
      `${filler}<p>Brewing <b>coffee</b> well takes <i>practice</i>: coffee brewing rewards patience.</p>${filler}`,
    );
    expect(r.snippet).toMatch(/^Brewing coffee well takes practice: coffee brewing rewards patience\./);
    expect(r.snippet.length).toBeLessThanOrEqual(310);
    expect(r.snippet).not.toMatch(/[<>]/);
    expect(r.snippet.endsWith('…')).toBe(true);
  });

  it('falls back to the start of the text for the snippet, with an ellipsis when cut', () => {
    const long = 'Alpha beta gamma. '.repeat(40);
    const r = evaluate(`<p>${long}</p>`);
    expect(r.snippet.startsWith('Alpha beta gamma.')).toBe(true);
    expect(r.snippet.endsWith('…')).toBe(true);
    expect(r.snippet.split(' ').length).toBeLessThanOrEqual(31);
    expect(evaluate('<p>Short text.</p>').snippet).toBe('Short text.');
    expect(evaluate('').snippet).toBe('');
  });

  it('shows a hit inside a very long sentence rather than the sentence start', () => {
    const r = evaluate(`<p>${'word '.repeat(200)}coffee brewing ${'word '.repeat(50)}</p>`);
    expect(r.snippet).toContain('coffee brewing');
    expect(r.snippet.startsWith('…')).toBe(true);
  });

  it('evaluates malformed HTML', () => {
    const r = evaluate(
      '<html><p>Coffee <b>brewing <i>unclosed <div>tags</p></b> <a href="/x">link <a href="/y">nested</a> </td></tr> coffee',
    );
    expect(r.terms.coffe).toBe(2);
    expect(r.links.map((l) => l.url)).toEqual(['https://example.com/x', 'https://example.com/y']);
    expect(r.links[0].anchorText).toBe('link');
  });

  it('evaluates HTML truncated in the middle of a tag or attribute', () => {
    const full = `<title>Coffee</title><p>Coffee brewing text.</p><a href="/a">A</a><a href="/b" class="x`;
    const r = evaluate(full);
    expect(r.title).toBe('Coffee');
    expect(r.score).toBeGreaterThan(0);
    expect(r.links[0].url).toBe('https://example.com/a');
    expect(() => evaluate('<p>coffee <scr')).not.toThrow();
    expect(() => evaluate('<!-- unterminated comment coffee')).not.toThrow();
    expect(() => evaluate('<script>never closed coffee')).not.toThrow();
    expect(evaluate('<script>never closed coffee').terms.coffe).toBeUndefined();
  });

  it('evaluates a 100 KB page cut mid-tag', () => {
    const para = '<p>Coffee brewing notes and <a href="/n">more notes</a> here.</p>\n';
    const html = enc(para.repeat(Math.ceil(110_000 / para.length))).slice(0, 100 * 1024 - 7);
    const r = evaluate(html);
    expect(r.terms.coffe).toBeGreaterThan(1000);
    expect(r.links).toHaveLength(1);
  });

  it('survives binary garbage served as text/html', () => {
    let seed = 42;
    const bytes = new Uint8Array(50_000).map(() => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) & 0xff);
    const r = evaluate(bytes, { contentType: 'text/html' });
    expect(r.score).toBeGreaterThanOrEqual(0);
    expect(r.score).toBeLessThanOrEqual(1);
    expect(Array.isArray(r.links)).toBe(true);
  });

  it('copes with a wrong or missing Content-Type', () => {
    const html = new Uint8Array([...enc('<meta charset="windows-1252"><title>Caf'), 0xe9, ...enc('</title>')]);
    expect(evaluate(html, { contentType: undefined }).title).toBe('Café');
    expect(evaluate(html, { contentType: 'application/octet-stream' }).title).toBe('Café');
    expect(evaluate(enc('<p>coffee</p>'), { contentType: 'image/png' }).terms.coffe).toBe(1);
  });

  it('decodes a windows-1252 page and a Shift_JIS page', () => {
    const latin = new Uint8Array([
      ...enc('<title>Caf'),
      0xe9,
      ...enc(' cr'),
      0xe8,
      ...enc('me</title><p>caf'),
      0xe9,
      ...enc('</p>'),
    ]);
    const r1 = evaluate(latin, { contentType: 'text/html; charset=windows-1252', topic: { keywords: 'café', language: 'fr' } });
    expect(r1.title).toBe('Café crème');
    expect(r1.terms.caf).toBe(2); // French Snowball: café -> caf
    expect(r1.score).toBeGreaterThan(0);

    const sjis = new Uint8Array([
      ...enc('<html lang="ja"><title>'),
      0x93,
      0xfa,
      0x96,
      0x7b,
      0x8c,
      0xea,
      ...enc('</title><p>'),
      0x93,
      0xfa,
      0x96,
      0x7b,
      0x8c,
      0xea,
      ...enc('</p>'),
    ]);
    const r2 = evaluate(sjis, { contentType: 'text/html; charset=shift_jis', topic: { keywords: '日本語', language: 'ja' } });
    expect(r2.charset).toBe('shift_jis');
    expect(r2.title).toBe('日本語');
    expect(r2.lang).toBe('ja');
    expect(r2.score).toBeCloseTo(1, 6);
    expect(r2.snippet).toBe('日本語');
  });

  it('handles a page with 20,000 links: capped at 5,000 (or the given cap), in document order', () => {
    const html = `<p>${Array.from({ length: 20_000 }, (_, i) => `<a href="/p${i}">page ${i}</a>`).join(' ')}</p>`;
    const r = evaluate(html);
    expect(r.links).toHaveLength(5000);
    expect(r.links[0].url).toBe('https://example.com/p0');
    expect(r.links[4999].url).toBe('https://example.com/p4999');
    const capped = evaluatePage({ url: PAGE, body: enc(html), topic: COFFEE }, { maxLinks: 100 });
    expect(capped.links).toHaveLength(100);
  });

  it('treats a missing topic or odd URL without throwing', () => {
    const r = evaluatePage({
      url: 'not a url',
      body: enc('<a href="/x">x</a><a href="https://ok.example/">y</a>'),
      topic: { keywords: '' },
    });
    expect(r.score).toBe(0);
    expect(r.links.map((l) => l.url)).toEqual(['https://ok.example/']);
  });

  it('is exposed as an async Evaluator', async () => {
    const r = await localEvaluator.evaluate({ url: PAGE, body: enc(article), topic: COFFEE });
    expect(r.title).toBe('Coffee & brewing guide');
  });

  it('tokenizes text split by inline tags, entities and links exactly as the joined text', () => {
    // Words run across parser chunks: inline tags, character references (decoded chunks), astral characters.
    const html =
      '<div>Caf&eacute; cr<b>è</b>me and br<span>ew</span>ing co<i>ff</i>ee&amp;tea, &#x1D400;&#x1D401; ' +
      'e&#x301;tude &lt;coffee&gt; na<em>ï</em>ve &#128512;x</div><p>Second block</p>';
    const visible = 'Café crème and brewing coffee&tea, 𝐀𝐁 e\u0301tude <coffee> naïve 😀x\vSecond block';
    const r = evaluate(html);
    expect(r.terms).toEqual(termVector(tokenize(visible)));
    expect(r.length).toBe(tokenize(visible).length);
    // A link's ends are word breaks: "pre<a>fix</a>ed" is three words, and the context counts them.
    const l = evaluate('<p>one two pre<a href="/x">fix</a>ed three</p>');
    expect(l.terms).toEqual(termVector(tokenize('one two pre fix ed three')));
    expect(l.links[0].contextBefore).toEqual(tokenize('one two pre'));
    expect(l.links[0].contextAfter).toEqual(tokenize('ed three'));
  });

  it('builds the snippet from text spread over many chunks', () => {
    const words = 'Coffee brewing at home needs good beans &amp; clean water, said the barista. Then some more.';
    const chunked = words
      .split(' ')
      .map((w, i) => (i % 3 === 0 ? `<b>${w}</b>` : i % 3 === 1 ? `<span>${w}</span>` : w))
      .join(' ');
    const r = evaluate(`<p>Intro text about nothing.</p><p>${chunked}</p>`);
    expect(r.snippet).toBe('Coffee brewing at home needs good beans & clean water, said the barista. Then some more.');
  });

  it('evaluates real search-result pages', () => {
    const dir = fileURLToPath(new URL('../../../shared/serp/', import.meta.url));
    expect(existsSync(dir)).toBe(true);
    const body = new Uint8Array(readFileSync(`${dir}bing-javascript-tutorial-2026-04.html`)).slice(0, 100 * 1024);
    const r = evaluatePage({
      url: 'https://www.bing.com/search?q=javascript+tutorial',
      body,
      contentType: 'text/html; charset=utf-8',
      topic: { keywords: 'javascript tutorial' },
    });
    expect(r.title).toBe('javascript tutorial - Search');
    expect(r.score).toBeGreaterThan(0.3);
    expect(r.snippet.toLowerCase()).toContain('javascript');
    expect(r.links.length).toBeGreaterThan(10);
    for (const l of r.links) expect(l.url).toMatch(/^https?:\/\//);
    expect(r.terms.addeventlisten).toBeUndefined(); // inline scripts are not text
  });
});
