import { describe, expect, it } from 'vitest';
import { evaluatePage } from '../../lib/engine/html';

const URL_ = 'https://example.org/articles/closures.html';
const evaluate = (html: string) =>
  evaluatePage({
    url: URL_,
    body: new TextEncoder().encode(html),
    contentType: 'text/html; charset=utf-8',
    topic: { keywords: 'javascript closures' },
  });

describe('page metadata: dates and title fallbacks', () => {
  it('reads article:published_time, article:modified_time and og:title from meta tags', () => {
    const e = evaluate(
      `<html><head><title>Closures</title>
       <meta property="article:published_time" content=" 2024-03-03T10:00:00Z ">
       <meta property="article:modified_time" content="2024-05-01">
       <meta property="og:title" content="Closures   in JavaScript"></head><body><p>text</p></body></html>`,
    );
    expect(e.published).toBe('2024-03-03T10:00:00Z');
    expect(e.modified).toBe('2024-05-01');
    expect(e.ogTitle).toBe('Closures in JavaScript');
  });

  it('takes og:updated_time and itemprop dates too; the first of each kind wins', () => {
    const e = evaluate(
      `<head><meta property="og:updated_time" content="2023-01-02"><meta itemprop="dateModified" content="2020-01-01">
       <meta itemprop="datePublished" content="2022-12-31"></head><p>x</p>`,
    );
    expect(e.published).toBe('2022-12-31');
    expect(e.modified).toBe('2023-01-02');
  });

  it('reads JSON-LD datePublished / dateModified, nested in @graph, each script block on its own', () => {
    const e = evaluate(
      `<script type="application/ld+json">{"@type":"BreadcrumbList","itemListElement":[]}</script>
       <script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebSite"},
         {"@type":"Article","datePublished":"2021-06-07T08:00:00+02:00","dateModified":"2021-07-01"}]}</script>
       <script type="application/ld+json">{ broken json</script>
       <p>body text</p>`,
    );
    expect(e.published).toBe('2021-06-07T08:00:00+02:00');
    expect(e.modified).toBe('2021-07-01');
    // Script text is never page text.
    expect(e.snippet).not.toContain('datePublished');
  });

  it('falls back to the first <time datetime> in the main content, not one in the navigation', () => {
    const e = evaluate(
      `<nav><time datetime="2010-01-01">old</time></nav>
       <main><article><h1>Closures</h1><time datetime="2019-09-09">9 Sep</time><p>closures text</p></article></main>`,
    );
    expect(e.published).toBe('2019-09-09');
    expect(evaluate('<p><time datetime="2019-09-09">x</time></p>').published).toBeUndefined();
  });

  it('meta published beats <time> and JSON-LD that come later', () => {
    const e = evaluate(
      `<head><meta name="article:published_time" content="2024-01-01"></head>
       <script type="application/ld+json">{"datePublished":"2000-01-01"}</script>
       <main><time datetime="1999-01-01">x</time></main>`,
    );
    expect(e.published).toBe('2024-01-01');
  });

  it('keeps the first non-empty <h1> as text; none when the page has none', () => {
    const e = evaluate('<body><h1> </h1><h1>Closures <b>explained</b></h1><h1>Second</h1><p>t</p></body>');
    expect(e.h1).toBe('Closures explained');
    expect(e.title).toBe('');
    const none = evaluate('<title>T</title><p>no heading</p>');
    expect(none.h1).toBeUndefined();
    expect(none.published).toBeUndefined();
    expect(none.modified).toBeUndefined();
    expect(none.ogTitle).toBeUndefined();
  });
});
