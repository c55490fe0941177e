import { describe, expect, it } from 'vitest';
import { DEFAULT_BOILERPLATE_WEIGHT, evaluatePage, MAIN_TEXT_CHARS } from '../../lib/engine/html/evaluate';
import { cosine, topicVector } from '../../lib/engine/text/vector';
import type { Topic } from '../../lib/engine/types';

const enc = (s: string) => new TextEncoder().encode(s);
const PAGE = 'https://example.com/doc/page.html';

function evaluate(html: string, topic: Topic) {
  return evaluatePage({ url: PAGE, body: enc(html), contentType: 'text/html; charset=utf-8', topic });
}

const COFFEE: Topic = { keywords: 'coffee brewing' };
const PLAIN: Topic = { ...COFFEE, weights: { boilerplate: 1 } };
const GARDEN = '<p>Tomatoes need sun, water and patience; prune the lower leaves and stake the stems in June.</p>';

describe('main content over boilerplate', () => {
  it('with boilerplate weight 1, the score is the plain cosine of the whole text', () => {
    const html = `<nav><a href="/">Coffee home</a></nav><main>${GARDEN}<p>Brewing coffee daily.</p></main>
      <footer>Coffee brewing club, all rights reserved</footer>`;
    const r = evaluate(html, PLAIN);
    expect(r.score).toBe(cosine(r.terms, topicVector(PLAIN)));
  });

  it('topic words in nav, header, footer, aside and a cookie banner count less than in the main text', () => {
    const chrome = [
      '<nav><p>coffee brewing coffee brewing</p></nav>',
      '<header><p>coffee brewing coffee brewing</p></header>',
      '<footer><p>coffee brewing coffee brewing</p></footer>',
      '<aside><p>coffee brewing coffee brewing</p></aside>',
      '<div id="cookie-banner"><p>coffee brewing coffee brewing</p></div>',
      '<div class="consent-dialog"><p>coffee brewing coffee brewing</p></div>',
      '<div role="navigation"><p>coffee brewing coffee brewing</p></div>',
    ];
    const inMain = evaluate(`${GARDEN}<p>coffee brewing coffee brewing</p>`, COFFEE);
    for (const c of chrome) {
      const inChrome = evaluate(`${GARDEN}${c}`, COFFEE);
      expect(inChrome.score, c).toBeLessThan(inMain.score * 0.5);
      expect(inChrome.score, c).toBeGreaterThan(0);
      // The words are still in the page's plain counts.
      expect(inChrome.terms.coffe, c).toBe(2);
      expect(evaluate(`${GARDEN}${c}`, PLAIN).score, c).toBeCloseTo(inMain.score, 10);
    }
  });

  it('a header or footer inside an article is the article’s own text', () => {
    const own = evaluate(`<article><header><h1>Coffee brewing</h1></header>${GARDEN}</article>`, COFFEE);
    const plain = evaluate(`<article><header><h1>Coffee brewing</h1></header>${GARDEN}</article>`, PLAIN);
    expect(own.score).toBeCloseTo(plain.score, 10);
  });

  it('Sphinx and DocBook navigation (sphinxsidebar, related, navheader, navfooter) is boilerplate', () => {
    const body = `<div class="body" role="main">${GARDEN}</div>`;
    for (const nav of [
      '<div class="sphinxsidebar" role="navigation"><ul><li>Coffee brewing guide</li></ul></div>',
      '<div class="related"><ul><li>Coffee brewing index</li></ul></div>',
      '<div class="navheader"><table><tr><th>Coffee brewing</th></tr></table></div>',
      '<div class="navfooter"><table><tr><td>Coffee brewing</td></tr></table></div>',
    ]) {
      const weighted = evaluate(body + nav, COFFEE);
      const plain = evaluate(body + nav, PLAIN);
      expect(weighted.score, nav).toBeLessThan(plain.score * 0.5);
    }
  });

  it('a block that is mostly links is a link list, even without a navigation mark', () => {
    const list = '<ul><li><a href="/a">Coffee brewing</a></li><li><a href="/b">Coffee beans</a></li></ul>';
    const sentence = '<p>Read the <a href="/a">guide</a> on coffee brewing with fresh beans.</p>';
    expect(evaluate(GARDEN + list, COFFEE).score).toBeLessThan(evaluate(GARDEN + list, PLAIN).score * 0.5);
    // A sentence with one link in it is text.
    expect(evaluate(GARDEN + sentence, COFFEE).score).toBeCloseTo(evaluate(GARDEN + sentence, PLAIN).score, 10);
  });

  it('text beside a marked main region weighs halfway', () => {
    const html = `<div>Coffee brewing notes</div><main>${GARDEN}${GARDEN}</main>`;
    const weighted = evaluate(html, COFFEE);
    const plain = evaluate(html, PLAIN);
    expect(weighted.score).toBeLessThan(plain.score);
    expect(weighted.score).toBeGreaterThan(
      evaluate(`<nav>Coffee brewing notes</nav><main>${GARDEN}${GARDEN}</main>`, COFFEE).score,
    );
  });

  it('the boilerplate weight is a topic setting, clamped to [0, 1]', () => {
    const html = `${GARDEN}<nav><p>coffee brewing</p></nav>`;
    const scores = [0, 0.2, 0.6, 1].map((b) => evaluate(html, { ...COFFEE, weights: { boilerplate: b } }).score);
    expect(scores[0]).toBe(0);
    expect(scores[1]).toBeLessThan(scores[2]);
    expect(scores[2]).toBeLessThan(scores[3]);
    expect(evaluate(html, COFFEE).score).toBe(scores[1]);
    expect(DEFAULT_BOILERPLATE_WEIGHT).toBe(0.2);
    expect(evaluate(html, { ...COFFEE, weights: { boilerplate: 7 } }).score).toBe(scores[3]);
  });

  it('the snippet is never banner text, and prefers the main text', () => {
    const banner = '<div class="cookie-consent"><p>We use cookies for coffee brewing statistics. Accept all?</p></div>';
    const main = '<main><p>Coffee brewing starts with fresh beans and clean water.</p></main>';
    expect(evaluate(banner + main, COFFEE).snippet).toBe('Coffee brewing starts with fresh beans and clean water.');
    // No topic word in the main text: its start, not the banner that has them.
    const noHit = evaluate(`${banner}<main>${GARDEN}</main>`, COFFEE).snippet;
    expect(noHit.startsWith('Tomatoes need sun')).toBe(true);
    // Nothing but boilerplate: no snippet rather than banner text.
    expect(evaluate(banner, COFFEE).snippet).toBe('');
  });

  it('a snippet stops where the footer begins', () => {
    const r = evaluate('<main><p>Brewing coffee at home.</p></main><footer>Coffee brewing club newsletter</footer>', COFFEE);
    expect(r.snippet).toBe('Brewing coffee at home.');
  });

  it('prefers a hit in the main text to one in a link list, and uses the list when nothing else has one', () => {
    const list = '<ul><li><a href="/a">Coffee brewing</a></li><li><a href="/b">Coffee beans</a></li></ul>';
    expect(evaluate(`${list}<p>Coffee roasting at home.</p>`, COFFEE).snippet).toBe('Coffee roasting at home.');
    expect(evaluate(`${list}${GARDEN}`, COFFEE).snippet).toMatch(/^Coffee brewing/);
  });

  it('the main text (kept for the library search) is the main region, whitespace collapsed, without navigation or cookie banners', () => {
    const html = `<nav><a href="/">Home</a> <a href="/menu">Menu</a></nav><div id="cookie-banner">We use cookies</div>
      <main><h1>Brewing   coffee</h1>\n<p>Grind the beans fresh.</p><p>Water at 93 degrees.</p></main><footer>Copyright</footer>`;
    const r = evaluate(html, COFFEE);
    expect(r.mainText).toBe('Brewing coffee Grind the beans fresh. Water at 93 degrees.');
  });

  it('form controls are not the text (a category picker, a sign-in form), but a form wrapping the page is read', () => {
    const article = '<p>Brewing coffee at home starts with fresh beans, a burr grinder and water just off the boil.</p>';
    const controls = `<form action="/login"><label>E-mail</label><input name="m"><button>Sign in to the coffee club</button></form>
      <select><option>Coffee news</option><option>Coffee gear reviews</option></select>`;
    const page = evaluate(`<main>${article}${controls}</main>`, COFFEE);
    expect(page.mainText).toContain('burr grinder');
    expect(page.mainText).not.toMatch(/Sign in|Coffee news|gear reviews/);
    // ASP.NET wraps every page in one <form>: that form is the page, not a control.
    const wrapped = evaluate(`<form id="aspnetForm" method="post"><main>${article.repeat(4)}</main></form>`, COFFEE);
    expect(wrapped.mainText).toContain('burr grinder');
  });

  it('the main text is cut at a word within its limit', () => {
    const long = Array.from({ length: 2000 }, (_, i) => `word${i}`).join(' ');
    const r = evaluate(`<main><p>${long}</p></main>`, COFFEE);
    const text = r.mainText ?? '';
    expect(text.length).toBeLessThanOrEqual(MAIN_TEXT_CHARS);
    expect(text.length).toBeGreaterThan(MAIN_TEXT_CHARS - 12);
    expect(long.startsWith(text)).toBe(true);
    expect(long[text.length]).toBe(' ');
  });

  describe('what is boilerplate on real pages', () => {
    const ARTICLE = `<h1>Brewing coffee at home</h1>${GARDEN}<p>Grind the beans just before brewing, and weigh them.</p>`;

    it('a class name on <body> does not make the page boilerplate', () => {
      const r = evaluate(
        `<body class="single-post wp-custom-logo cookies-not-set nav-below-header"><div>${ARTICLE}</div></body>`,
        COFFEE,
      );
      expect(r.mainText).toContain('Grind the beans');
      expect(r.score).toBeCloseTo(evaluate(`<body>${ARTICLE}</body>`, COFFEE).score, 10);
    });

    it('a boilerplate zone that holds most of the page is its wrapper, not boilerplate; a real menu inside stays one', () => {
      const menu = '<ul class="menu"><li>Coffee shop</li><li>Coffee tours</li></ul>';
      const r = evaluate(`<div class="navigation-border-thin site-wrap">${menu}<div>${ARTICLE}</div></div>`, COFFEE);
      expect(r.mainText).toContain('Grind the beans');
      expect(r.mainText).not.toContain('Coffee tours');
      // A small navigation zone is still boilerplate.
      const small = evaluate(`<div class="navigation-bar"><p>Coffee shop tours</p></div><div>${ARTICLE}</div>`, COFFEE);
      expect(small.mainText).not.toContain('Coffee shop tours');
    });

    it('comment threads are boilerplate (li.comment, article.comment-body, #comments)', () => {
      for (const thread of [
        '<ol class="commentlist"><li class="comment"><p>Great post about coffee brewing, thanks!</p></li></ol>',
        '<article class="comment-body"><p>Great post about coffee brewing, thanks!</p></article>',
        '<div id="comments"><p>Great post about coffee brewing, thanks!</p></div>',
        '<li class="comment even thread-even"><p>Great post about coffee brewing, thanks!</p></li>',
      ]) {
        const r = evaluate(`<main><article>${ARTICLE}${GARDEN}${GARDEN}</article>${thread}</main>`, COFFEE);
        expect(r.mainText, thread).toContain('Grind the beans');
        expect(r.mainText, thread).not.toContain('Great post');
      }
    });

    it('a teaser list whose items are one link each over several blocks is a link list', () => {
      const item = (i: number) =>
        `<div><a href="/news/${i}"><span>Coffee story number ${i}</span><ul><li>By Staff Reporter</li><li>11/20/2019 01:14 PM</li></ul></a></div>`;
      const r = evaluate(`<div>${ARTICLE}</div><div>${[1, 2, 3, 4].map(item).join('')}</div>`, COFFEE);
      expect(r.mainText).toContain('Grind the beans');
      expect(r.mainText).not.toContain('Coffee story');
      expect(r.mainText).not.toContain('Staff Reporter');
    });

    it('hidden text (inline display:none, visibility:hidden, aria-hidden) is not main text, its links are kept', () => {
      for (const hidden of [
        '<div style="display:none;"><p>Hidden copy of the coffee story</p><a href="/copy">copy</a></div>',
        '<div style="color: red; visibility: hidden"><p>Hidden copy of the coffee story</p><a href="/copy">copy</a></div>',
        '<section aria-hidden="true"><p>Hidden copy of the coffee story</p><a href="/copy">copy</a></section>',
      ]) {
        const r = evaluate(`<div>${ARTICLE}${GARDEN}</div>${hidden}`, COFFEE);
        expect(r.mainText, hidden).toContain('Grind the beans');
        expect(r.mainText, hidden).not.toContain('Hidden copy');
        expect(
          r.links.map((l) => l.url),
          hidden,
        ).toContain('https://example.com/copy');
      }
      // A page hidden as a whole until a script shows it is still read (its wrapper is not boilerplate).
      const wrapped = evaluate(`<div style="display: none">${ARTICLE}${GARDEN}${GARDEN}</div>`, COFFEE);
      expect(wrapped.mainText).toContain('Grind the beans');
    });

    it('sharing, newsletter, byline, tag, caption and advertising boxes are not main text', () => {
      for (const box of [
        '<div class="share-buttons"><p>Share this coffee story</p></div>',
        '<div class="newsletter-signup"><p>Get our coffee newsletter</p></div>',
        '<div class="byline"><p>By Jane Roaster, coffee editor</p></div>',
        '<ul class="post-tags"><li>coffee</li><li>brewing</li></ul>',
        '<p class="image-caption">A coffee cup on a table</p>',
        '<div class="ad ad--in-article"><p>Advertisement</p></div>',
        '<section class="most-popular"><p>The coffee story everyone reads</p></section>',
        // camelCase names read as dashed ones
        '<div class="topAd"><p>Advertisement</p></div>',
        '<div id="shareBar"><p>Share this coffee story</p></div>',
      ]) {
        const r = evaluate(`<article>${ARTICLE}${box}${GARDEN}</article>`, COFFEE);
        expect(r.mainText, box).toContain('Grind the beans');
        expect(r.mainText, box).not.toMatch(/Share this|newsletter|Jane Roaster|coffee cup|Advertisement|everyone reads/);
      }
    });

    it('sidebar widgets and modal windows are not main text; a widget holding most of the prose is the wrapper', () => {
      for (const box of [
        '<div class="widget widget_text"><p>Follow our coffee blog for more</p></div>',
        '<div class="modal-window window-comments-rules"><p>Comments must stay on the coffee topic</p></div>',
      ]) {
        const r = evaluate(`<div>${ARTICLE}${GARDEN}</div>${box}`, COFFEE);
        expect(r.mainText, box).toContain('Grind the beans');
        expect(r.mainText, box).not.toMatch(/Follow our|must stay/);
      }
      // Blogger puts the post in "widget Blog": a minority of the page's tokens beside long link lists, but its prose.
      const links = Array.from({ length: 40 }, (_, i) => `<li><a href="/t/${i}">Coffee tag ${i}</a></li>`).join('');
      const blogger = evaluate(`<ul>${links}</ul><div class="widget Blog"><div>${ARTICLE}${GARDEN}</div></div>`, COFFEE);
      expect(blogger.mainText).toContain('Grind the beans');
    });

    it('a block named as a header in a dashed name is not main text; one named "header" alone is', () => {
      for (const box of [
        '<div id="full-header"><p>Coffee News, a Roasters company</p></div>',
        '<div class="article-header"><p>By Jane Roaster, 5 minutes ago</p></div>',
      ]) {
        const r = evaluate(`<div>${box}${ARTICLE}${GARDEN}</div>`, COFFEE);
        expect(r.mainText, box).toContain('Grind the beans');
        expect(r.mainText, box).not.toMatch(/Roasters company|Jane Roaster/);
      }
      // A header of menus that outweighs a short article (a paywall's teaser) is not the page's wrapper.
      const menus = Array.from({ length: 40 }, (_, i) => `<li><a href="/s/${i}">Coffee site ${i}</a></li>`).join('');
      const teaser = evaluate(
        `<div id="full-header"><div>Coffee Corp is a network of roasters</div><ul>${menus}</ul></div><article>${ARTICLE}</article>`,
        COFFEE,
      );
      expect(teaser.mainText).toContain('Grind the beans');
      expect(teaser.mainText).not.toContain('network of roasters');
      // asciidoc's #header holds the page's name and summary.
      const asciidoc = evaluate(`<div id="header"><p>coffee-grind: grind coffee beans</p></div><div>${ARTICLE}</div>`, COFFEE);
      expect(asciidoc.mainText).toContain('coffee-grind: grind coffee beans');
    });

    it('a figure caption is not main text', () => {
      const r = evaluate(
        `<article>${ARTICLE}<figure><img src="/c.jpg"><figcaption>A coffee cup, photo by Jo</figcaption></figure></article>`,
        COFFEE,
      );
      expect(r.mainText).toContain('Grind the beans');
      expect(r.mainText).not.toContain('photo by Jo');
    });

    it('the headline (the first <h1>, when it repeats the title) is not main text; another <h1> is', () => {
      const titled = evaluate(`<title>Brewing coffee at home | The Coffee Site</title><article>${ARTICLE}</article>`, COFFEE);
      expect(titled.mainText).toContain('Grind the beans');
      expect(titled.mainText).not.toContain('Brewing coffee at home');
      expect(titled.h1).toBe('Brewing coffee at home');
      const other = evaluate(`<title>The Coffee Site</title><article>${ARTICLE}</article>`, COFFEE);
      expect(other.mainText).toContain('Brewing coffee at home');
      // A page that is nothing but its headline keeps it.
      const only = evaluate('<title>Brewing coffee</title><h1>Brewing coffee</h1>', COFFEE);
      expect(only.mainText).toBe('Brewing coffee');
    });

    it('a list of teasers (items that open with a link, short summaries that are not links) is not main text', () => {
      const card = (i: number) =>
        `<li><a href="/story/${i}">Coffee story ${i}</a><span>A short summary of coffee story ${i}, told in a few words.</span></li>`;
      const r = evaluate(`<article>${ARTICLE}${GARDEN}${GARDEN}<ul>${[1, 2, 3, 4].map(card).join('')}</ul></article>`, COFFEE);
      expect(r.mainText).toContain('Grind the beans');
      expect(r.mainText).not.toContain('Coffee story');
      expect(r.mainText).not.toContain('short summary');
      // Paragraphs of an article whose sentences hold links are not teasers.
      const prose = [1, 2, 3, 4].map(
        (i) => `<p>Roast ${i} is <a href="/r/${i}">described here</a> at some length by our coffee editor.</p>`,
      );
      const own = evaluate(`<article><div>${prose.join('')}</div></article>`, COFFEE);
      expect(own.mainText).toContain('described here at some length');
      // A list that holds most of the page's text is what the page says (a news round-up).
      const roundUp = evaluate(`<article><p>Good morning.</p><ol>${[1, 2, 3, 4].map(card).join('')}</ol></article>`, COFFEE);
      expect(roundUp.mainText).toContain('short summary of coffee story 3');
      // Related stories below an article are teasers even when they hold more text than the article (up to twice).
      const related = evaluate(
        `<div>${ARTICLE}${GARDEN}</div><section><ul>${[1, 2, 3, 4, 5, 6].map(card).join('')}</ul></section>`,
        COFFEE,
      );
      expect(related.mainText).toContain('Grind the beans');
      expect(related.mainText).not.toContain('short summary');
    });

    it('an element matching both word lists is decided by its content: text is content, links are navigation', () => {
      const text = evaluate(
        `<div class="main-content has-section-nav"><p>${'Coffee brewing notes. '.repeat(3)}</p></div><div>${ARTICLE}${GARDEN}${GARDEN}</div>`,
        COFFEE,
      );
      expect(text.mainText).toContain('Coffee brewing notes');
      const links = evaluate(
        `<div class="content-nav"><a href="/a">Coffee brewing notes</a> <a href="/b">Coffee tours</a></div><div>${ARTICLE}${GARDEN}</div>`,
        COFFEE,
      );
      expect(links.mainText).not.toContain('Coffee tours');
    });
  });
});
