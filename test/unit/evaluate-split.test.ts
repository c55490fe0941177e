/**
 * The evaluator's split: readPage (the topic-independent pass over a page) scored per topic with evaluateReading
 * gives evaluatePage's evaluation exactly, whatever topics the reading was scored for before and in whatever order.
 */
import { describe, expect, it } from 'vitest';
import { evaluatePage, evaluateReading, prepareTopic, readPage } from '../../lib/engine/html';
import { PackedLinks } from '../../lib/engine/html/packed';
import { urlTerms } from '../../lib/engine/text/url-terms';
import type { LinkFeature, PageEvaluation, Topic } from '../../lib/engine/types';

const enc = (s: string) => new TextEncoder().encode(s);

const NAV = '<nav><a href="/">Home</a> <a href="/coffee/">Coffee</a> <a href="/tea/">Tea</a> <a href="/about">About</a></nav>';
const PAGES: Record<string, string> = {
  english: `<!DOCTYPE html><html lang="en"><head><title>Brewing coffee at home | Example</title>
    <meta property="article:published_time" content="2024-03-01"><meta property="og:title" content="Brewing coffee">
    <base href="https://example.com/base/"></head><body>${NAV}
    <main><h1>Brewing coffee</h1><p>Good coffee needs fresh beans, clean water and the right grind. A French press
    brews a full cup; a pour-over brews a clean one. <a href="grind.html">How fine to grind</a> for each method.</p>
    <p>Tea drinkers brew at lower temperatures; see <a href="/tea/brewing">brewing tea</a>.</p></main>
    <footer><a href="/privacy">Privacy</a> Copyright coffee company</footer></body></html>`,
  // No lang attribute: read in the topic's language, then (French text) again in French.
  undeclaredFrench: `<html><head><title>La préparation du café</title></head><body><div class="content"><p>Le café
    se prépare avec de l'eau chaude et des grains moulus. La cafetière à piston donne une tasse corsée, le filtre une
    tasse plus claire. Les grains doivent être frais et la mouture adaptée à la méthode.</p><p>Pour le thé, l'eau est
    moins chaude. <a href="/the">Le thé</a> et <a href="/cafe">le café</a> ont chacun leurs règles.</p></div></body></html>`,
  declaredGerman: `<html lang="de"><head><title>Kaffee kochen</title><meta name="robots" content="nofollow"></head>
    <body><article><h1>Kaffee</h1><p>Kaffee wird mit heißem Wasser aus gemahlenen Bohnen gebrüht. Die French Press
    ergibt eine kräftige Tasse.</p><script type="application/ld+json">{"dateModified":"2023-05-06"}</script>
    <a href="https://example.org/tee" rel="nofollow">Tee</a></article></body></html>`,
  linkList: `<html><body><ul class="menu">${Array.from({ length: 40 }, (_, i) => `<li><a href="/p${i}">coffee page ${i}</a></li>`).join('')}</ul>
    <p>coffee brewing grind water</p></body></html>`,
  empty: '',
};

const TOPICS: Topic[] = [
  { keywords: 'coffee brewing' },
  { keywords: 'coffee brewing', weights: { boilerplate: 1 } },
  { keywords: 'coffee brewing', weights: { boilerplate: 0 } },
  {
    keywords: 'grind water',
    weights: { boilerplate: 0.5, expansion: 0.2 },
    context: ['Grinding coffee beans', 'Water for coffee'],
  },
  { keywords: 'café grains', language: 'fr' },
  { keywords: 'café grains', language: 'fr', allLanguages: true },
  { keywords: 'Kaffee Bohnen', language: 'de' },
  { keywords: 'tea', language: 'en-GB', context: ['Brewing tea | Example', 'Tea at home | Example', 'Green tea'] },
  { keywords: '' },
];

/** Every field, the score bit for bit, in the same key order. */
function exact(ev: PageEvaluation): string {
  return JSON.stringify(ev, (_k, v) => (typeof v === 'number' ? `n:${Object.is(v, -0) ? '-0' : String(v)}` : v));
}

const input = (name: string) => ({
  url: `https://example.com/dir/${name}.html`,
  body: enc(PAGES[name]),
  contentType: 'text/html; charset=utf-8',
});

describe('readPage + evaluateReading', () => {
  it('equal evaluatePage bit for bit, for every topic, whatever the reading was scored for before and in any order', () => {
    for (const name of Object.keys(PAGES)) {
      const whole = TOPICS.map((topic) => exact(evaluatePage({ ...input(name), topic })));
      const forward = readPage(input(name));
      for (const [i, topic] of TOPICS.entries()) {
        expect(exact(evaluateReading(forward, topic)), `${name} topic ${i}`).toBe(whole[i]);
      }
      // Backwards, with prepared topics, each scored twice.
      const backward = readPage(input(name));
      for (let i = TOPICS.length - 1; i >= 0; i--) {
        const prepared = prepareTopic(TOPICS[i]);
        expect(exact(evaluateReading(backward, prepared)), `${name} topic ${i} (backwards)`).toBe(whole[i]);
        expect(exact(evaluateReading(backward, prepared)), `${name} topic ${i} (again)`).toBe(whole[i]);
      }
    }
  });

  it('read the text once per language it is analysed in', () => {
    const declared = readPage(input('declaredGerman'));
    for (const topic of TOPICS) evaluateReading(declared, topic);
    expect(declared.passCount).toBe(1); // its own language, whatever the topic's
    const undeclared = readPage(input('undeclaredFrench'));
    evaluateReading(undeclared, TOPICS[4]); // French topic: read in French, no detection needed
    expect(undeclared.passCount).toBe(1);
    const fr = evaluateReading(undeclared, TOPICS[0]); // English topic: read in English, detected French, read again
    expect(fr.language).toBe('fr');
    expect(undeclared.passCount).toBe(2);
    evaluateReading(undeclared, TOPICS[7]); // en-GB: its own pass (the tokenizer's language as given)
    expect(undeclared.passCount).toBe(3);
  });

  it('give each evaluation its own links and robots object', () => {
    const reading = readPage(input('english'));
    const a = evaluateReading(reading, TOPICS[0]);
    const b = evaluateReading(reading, TOPICS[1]);
    expect(a.links.length).toBeGreaterThan(3);
    const first = JSON.stringify(b.links[0]);
    a.links[0].anchorTerms.push('changed');
    a.links[0].contextBefore.length = 0;
    a.links[0].url = 'https://changed.example/';
    expect(JSON.stringify(b.links[0])).toBe(first);
    a.links.length = 0;
    a.robots.nofollow = true;
    expect(b.links.length).toBeGreaterThan(3);
    expect(b.robots.nofollow).toBe(false);
    expect(evaluateReading(reading, TOPICS[0]).links.length).toBe(b.links.length);
  });

  it("find the query's words for the snippet on the first page ever read in another language than the topic's", () => {
    // A word no earlier test has tokenized: the German pass meets it first here.
    const word = 'zyxquorblat';
    const html = `<html lang="de"><body><p>${'Ein langer Absatz ohne das gesuchte Wort, der nur den Anfang füllt. '.repeat(4)}</p>
      <p>Zweiter Absatz: hier steht ${word} mitten im Satz.</p></body></html>`;
    const ev = evaluatePage({ url: 'https://example.com/x', body: enc(html), topic: { keywords: word, language: 'en' } });
    expect(ev.snippet).toContain(word);
    expect(ev.snippet.startsWith('Ein langer')).toBe(false);
  });
});

describe('PackedLinks', () => {
  const link = (url: string, anchorText: string, anchorTerms: string[], before: string[], after: string[], nofollow = false) =>
    ({ url, anchorText, anchorTerms, contextBefore: before, contextAfter: after, nofollow }) as LinkFeature;
  const links: LinkFeature[] = [
    link('https://example.com/a', 'Brewing coffee', ['brew', 'coffe'], [], ['grind', 'water', 'coffe']),
    link('https://example.com/b?q=1#x', '', [], ['coffe', 'brew'], [], true),
    link('https://example.com/é/日本', 'Kaffee | Café', ['kaffe', 'caf'], ['brew'], ['brew']),
    link(`https://example.com/${'long/'.repeat(40)}`, 'x'.repeat(300), ['x'.repeat(300)], ['a', 'a', 'a'], ['a']),
    link('https://example.com/a2', '', [], [], []),
  ];

  it('unpack to the links packed: every field, in the same key order', () => {
    const packed = new PackedLinks(links);
    expect(packed.length).toBe(links.length);
    const withUrlTerms = links.map((l) => ({ ...l, urlTerms: urlTerms(l.url, 'en') }));
    expect(JSON.stringify(packed.unpack('en'))).toBe(JSON.stringify(withUrlTerms));
    expect(JSON.stringify(new PackedLinks([]).unpack('en'))).toBe('[]');
  });

  it('unpack new objects each time, which the packed ones do not see changed', () => {
    const packed = new PackedLinks(links);
    const a = packed.unpack('en');
    const b = packed.unpack('en');
    expect(a[0]).not.toBe(b[0]);
    expect(a[0].anchorTerms).not.toBe(b[0].anchorTerms);
    a[0].anchorTerms.push('x');
    a[2].contextAfter.length = 0;
    expect(JSON.stringify(packed.unpack('en'))).toBe(JSON.stringify(b));
  });
});
