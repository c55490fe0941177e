import { Parser } from 'htmlparser2';
import { stemmer } from 'stemmer';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { escapeHtml } from '../../lib/app/rules/text-safety';
import {
  generateWeb,
  HOSTILE_PATHS,
  onTopicUrls,
  pageText,
  renderPage,
  seedsFor,
  splitKey,
  type TestPage,
  type TestWeb,
} from '../../harness/testweb/generate';
import { BIG_BYTES, CP1252_PHRASE, LINKS20K, SJIS_PHRASE, startTestWeb, type RunningTestWeb } from '../../harness/testweb/server';
import { GENERAL_WORDS, TOPIC_CATALOG } from '../../harness/testweb/vocab';

const fakeOrigin = (site: string) => `http://${site}.test`;

/** hrefs of <a> elements and the <base href>, in document order. */
function parseLinks(html: string): { base?: string; hrefs: string[] } {
  const hrefs: string[] = [];
  let base: string | undefined;
  const parser = new Parser({
    onopentag(name, attrs) {
      if (name === 'a' && attrs.href !== undefined) hrefs.push(attrs.href);
      if (name === 'base' && attrs.href !== undefined && base === undefined) base = attrs.href;
    },
  });
  parser.write(html);
  parser.end();
  return { base, hrefs };
}

/** Clicks from `roots` to every page, following only links to servable pages accepted by `follow`. */
function bfsDepths(web: TestWeb, roots: string[], follow: (p: TestPage) => boolean = () => true): Map<string, number> {
  const depth = new Map<string, number>(roots.map((r) => [r, 0]));
  const queue = [...roots];
  while (queue.length > 0) {
    const key = queue.shift()!;
    for (const to of web.pages.get(key)!.links) {
      const target = web.pages.get(to);
      if (target && !depth.has(to) && follow(target)) {
        depth.set(to, depth.get(key)! + 1);
        queue.push(to);
      }
    }
  }
  return depth;
}

/** Simple cosine of a page's words with the topic keywords, as a stand-in for the engine's evaluator. */
function keywordScore(page: TestPage, keywords: string[]): number {
  const tf = new Map<string, number>();
  for (const t of pageText(page)
    .toLowerCase()
    .match(/[a-z]+/g) ?? [])
    tf.set(t, (tf.get(t) ?? 0) + 1);
  let norm = 0;
  for (const v of tf.values()) norm += v * v;
  let dot = 0;
  for (const k of keywords) dot += tf.get(k) ?? 0;
  return norm === 0 ? 0 : dot / Math.sqrt(norm * keywords.length);
}

/** On-topic pages among the first `budget` fetched: FIFO (breadth-first) or best-first by the parent's score. */
function simulate(web: TestWeb, topicId: string, seeds: string[], budget: number, greedy: boolean): number {
  const keywords = web.topics.find((t) => t.id === topicId)!.keywords.split(' ');
  const seen = new Set(seeds);
  const frontier = seeds.map((key, order) => ({ key, priority: 1, order }));
  let order = frontier.length;
  let fetched = 0;
  let onTopic = 0;
  while (frontier.length > 0 && fetched < budget) {
    let best = 0;
    if (greedy) {
      for (let i = 1; i < frontier.length; i++) if (frontier[i].priority > frontier[best].priority) best = i;
    }
    const { key } = frontier.splice(best, 1)[0];
    const page = web.pages.get(key);
    if (!page) continue; // a deliberate 404 or the private page
    fetched++;
    if (page.topic === topicId) onTopic++;
    const score = keywordScore(page, keywords);
    for (const to of page.links) {
      if (!seen.has(to)) {
        seen.add(to);
        frontier.push({ key: to, priority: score, order: order++ });
      }
    }
  }
  return onTopic;
}

describe('generateWeb', () => {
  const web = generateWeb({ seed: 11 });
  const topicPages = (id: string) => [...web.pages.values()].filter((p) => p.topic === id);

  it('is deterministic for a seed and differs between seeds', () => {
    const again = generateWeb({ seed: 11 });
    const other = generateWeb({ seed: 12 });
    const digest = (w: TestWeb) =>
      [...w.pages.values()]
        .map(
          (p) =>
            `${p.key}|${p.title}|${p.links.join(',')}|${p.anchors.join(',')}|${renderPage(p, fakeOrigin, { hostile: true })}`,
        )
        .join('\n');
    expect(digest(again)).toBe(digest(web));
    expect(digest(other)).not.toBe(digest(web));
    expect([...other.pages.values()].map((p) => p.title)).not.toEqual([...web.pages.values()].map((p) => p.title));
  });

  it('has the requested size and validates options', () => {
    expect(web.topics).toHaveLength(6);
    expect(web.sites).toHaveLength(8);
    for (const t of web.topics) expect(topicPages(t.id)).toHaveLength(120);
    const small = generateWeb({ seed: 2, topics: 2, pagesPerTopic: 20, sites: 3 });
    expect(small.sites).toEqual(['site0', 'site1', 'site2']);
    expect([...small.pages.values()].filter((p) => p.topic !== null)).toHaveLength(40);
    expect(() => generateWeb({ topics: 0 })).toThrow(/topics/);
    expect(() => generateWeb({ topics: 99 })).toThrow(/topics/);
    expect(() => generateWeb({ pagesPerTopic: 3 })).toThrow(/pagesPerTopic/);
    expect(() => generateWeb({ sites: 1 })).toThrow(/sites/);
  });

  it('gives every topic its own vocabulary: no Porter stem shared between topics or with general words', () => {
    const owner = new Map<string, string>();
    for (const w of GENERAL_WORDS) owner.set(stemmer(w), 'general');
    for (const t of TOPIC_CATALOG) {
      for (const w of new Set(t.vocabulary.map((x) => stemmer(x)))) {
        expect(owner.get(w), `${t.id} shares the stem "${w}"`).toBeUndefined();
        owner.set(w, t.id);
      }
      for (const k of t.keywords.split(' ')) expect(t.vocabulary).toContain(k);
      expect(t.vocabulary.length).toBeGreaterThanOrEqual(50);
    }
  });

  it('links only to pages, deliberate 404s or the robots-protected page', () => {
    for (const p of web.pages.values()) {
      expect(p.links.length).toBe(p.anchors.length);
      for (const to of p.links)
        expect(web.pages.has(to) || web.missing.has(to) || to === web.privatePage.key, `${p.key} -> ${to}`).toBe(true);
    }
    expect(web.missing.size).toBeGreaterThan(0);
    for (const m of web.missing) expect(web.pages.has(m)).toBe(false);
    expect([...web.pages.values()].some((p) => p.links.includes(web.privatePage.key))).toBe(true);
  });

  it('keeps about 80% of content links on topic, with off-topic detours', () => {
    let on = 0;
    let all = 0;
    for (const p of web.pages.values()) {
      if (p.kind !== 'article') continue;
      const navTargets = new Set(
        p.blocks
          .filter((b) => b.tag === 'nav')
          .flatMap((b) => b.parts.map((s) => (typeof s === 'string' ? '' : p.links[s.link]))),
      );
      for (const to of p.links) {
        const target = web.pages.get(to);
        if (!target || navTargets.has(to)) continue;
        all++;
        if (target.topic === p.topic) on++;
      }
    }
    expect(on / all).toBeGreaterThan(0.65);
    expect(on / all).toBeLessThan(0.9);
  });

  it('has hubs, dead ends, weak and strong pages, general pages linked from everywhere', () => {
    for (const t of web.topics) {
      expect(web.hubs[t.id].length).toBe(3);
      for (const h of web.hubs[t.id]) {
        const hub = web.pages.get(h)!;
        expect(hub.kind).toBe('hub');
        expect(hub.links.filter((to) => web.pages.get(to)?.topic === t.id).length).toBeGreaterThanOrEqual(15);
      }
      const pages = topicPages(t.id);
      expect(pages.some((p) => p.strength < 0.14)).toBe(true);
      expect(pages.some((p) => p.strength > 0.4)).toBe(true);
      expect(new Set(pages.map((p) => p.site)).size).toBeGreaterThanOrEqual(3);
    }
    const deadEnds = [...web.pages.values()].filter((p) => p.deadEnd);
    expect(deadEnds.length).toBeGreaterThan(20);
    for (const d of deadEnds) expect(d.links).toEqual([]);
    const linking = [...web.pages.values()].filter((p) => p.kind === 'article' && !p.deadEnd);
    const toFront = linking.filter((p) => p.links.includes(web.fronts[p.site]));
    expect(toFront.length / linking.length).toBeGreaterThan(0.9);
    for (const site of web.sites)
      expect([...web.pages.values()].filter((p) => p.site === site && p.kind === 'article').length).toBeGreaterThan(10);
  });

  it('draws anchors from target titles, with some generic ones', () => {
    let fromTitle = 0;
    let generic = 0;
    let total = 0;
    for (const p of web.pages.values()) {
      p.links.forEach((to, i) => {
        const target = web.pages.get(to);
        if (target?.kind !== 'article') return;
        total++;
        const words = new Set(target.title.toLowerCase().split(/[^a-z']+/));
        const anchorWords = p.anchors[i]
          .toLowerCase()
          .split(/[^a-z']+/)
          .filter(Boolean);
        if (anchorWords.every((w) => words.has(w))) fromTitle++;
        if (['click here', 'more', 'read more', 'here'].includes(p.anchors[i])) generic++;
      });
    }
    expect(fromTitle / total).toBeGreaterThan(0.75);
    expect(generic / total).toBeGreaterThan(0.03);
  });

  it('reaches every page from the portal within a few clicks', () => {
    const depth = bfsDepths(web, [web.portal]);
    expect(depth.size).toBe(web.pages.size);
    expect(Math.max(...depth.values())).toBeLessThanOrEqual(12);
    const portal = web.pages.get(web.portal)!;
    for (const site of web.sites) expect(portal.links).toContain(web.fronts[site]);
  });

  it('hides each island behind off-topic bridge pages', () => {
    for (const t of web.topics) {
      const island = new Set(web.islands[t.id]);
      expect(island.size).toBeGreaterThan(0);
      for (const p of web.pages.values()) {
        if (p.topic === t.id && !p.island)
          for (const to of p.links) expect(island.has(to), `${p.key} -> island ${to}`).toBe(false);
      }
      const seeds = seedsFor(web, t.id, 3).map((p) => p.key);
      const onlyTopic = bfsDepths(web, seeds, (p) => p.topic === t.id);
      expect([...island].some((k) => onlyTopic.has(k))).toBe(false);
      const everything = bfsDepths(web, seeds);
      for (const k of island) expect(everything.has(k)).toBe(true);
      expect(web.bridges.some((b) => web.pages.get(b)!.links.some((to) => island.has(to)))).toBe(true);
    }
  });

  it('gives seeds and on-topic URLs', () => {
    const seeds = seedsFor(web, 'sailing', 4);
    expect(seeds).toHaveLength(4);
    expect(new Set(seeds.map((s) => s.key)).size).toBe(4);
    for (const s of seeds) {
      expect(s.topic).toBe('sailing');
      expect(s.kind).toBe('article');
      expect(s.strength).toBeGreaterThan(0.3);
    }
    const urls = onTopicUrls(web, 'sailing', fakeOrigin);
    expect(urls).toHaveLength(120);
    expect(urls).toContain(fakeOrigin(seeds[0].site) + seeds[0].path);
    expect(() => seedsFor(web, 'knitting', 3)).toThrow(/unknown topic/);
  });

  it('renders every link so that it resolves back to its target', () => {
    let withBase = 0;
    let fragments = 0;
    let relative = 0;
    for (const p of web.pages.values()) {
      const { base, hrefs } = parseLinks(renderPage(p, fakeOrigin));
      if (base) withBase++;
      const resolveAgainst = new URL(base ?? p.path, fakeOrigin(p.site));
      const resolved = hrefs.map((h) => {
        if (h.includes('#')) fragments++;
        if (!h.startsWith('/') && !h.startsWith('http')) relative++;
        const u = new URL(h, resolveAgainst);
        u.hash = '';
        return u.href;
      });
      const expected = p.links.map((to) => {
        const { site, path } = splitKey(to);
        return new URL(path, fakeOrigin(site)).href;
      });
      expect(resolved, p.key).toEqual(expected);
    }
    expect(withBase).toBeGreaterThan(0);
    expect(fragments).toBeGreaterThan(0);
    expect(relative).toBeGreaterThan(0);
  });

  it('renders hostile links only when asked', () => {
    const carriers = [...web.pages.values()].filter((p) => p.hostileLinks.length > 0);
    expect(new Set(carriers.flatMap((c) => c.hostileLinks.map((h) => h.path)))).toEqual(new Set(HOSTILE_PATHS));
    for (const c of carriers) {
      expect(renderPage(c, fakeOrigin)).not.toContain('/hostile/');
      expect(renderPage(c, fakeOrigin, { hostile: true })).toContain(c.hostileLinks[0].path);
    }
  });

  it('gives a greedy crawler a real, not trivial, advantage over breadth-first', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const w = generateWeb({ seed });
      for (const t of w.topics) {
        const seeds = seedsFor(w, t.id, 3).map((p) => p.key);
        const total = w.islands[t.id].length + [...w.pages.values()].filter((p) => p.topic === t.id && !p.island).length;
        const oneClick = new Set(seeds.flatMap((s) => w.pages.get(s)!.links).filter((k) => w.pages.get(k)?.topic === t.id));
        expect(oneClick.size / total, `seed ${seed} ${t.id}`).toBeLessThan(0.35);
        const bfs = simulate(w, t.id, seeds, 200, false);
        const greedy = simulate(w, t.id, seeds, 200, true);
        expect(greedy, `seed ${seed} ${t.id}: greedy ${greedy} vs bfs ${bfs}`).toBeGreaterThan(bfs + 15);
        expect(bfs).toBeGreaterThan(30);
      }
    }
  });
});

describe('startTestWeb', () => {
  let tw: RunningTestWeb;
  beforeAll(async () => {
    tw = await startTestWeb({ seed: 5, hostile: true });
  });
  afterAll(async () => {
    await tw?.close();
  });
  const site0 = () => tw.origins.site0;
  const get = (url: string, init?: RequestInit) => fetch(url, { redirect: 'manual', ...init });

  it('serves each site on its own origin', async () => {
    const origins = Object.values(tw.origins);
    expect(origins).toHaveLength(8);
    expect(new Set(origins).size).toBe(8);
    for (const o of origins) expect(o).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await get(tw.portalUrl);
    expect(res.status).toBe(200);
    const { hrefs } = parseLinks(await res.text());
    const resolved = hrefs.map((h) => new URL(h, tw.portalUrl).href);
    for (const site of tw.web.sites) expect(resolved).toContain(`${tw.origins[site]}/`);
  });

  it('serves pages with HTML type, Last-Modified and a cookie, and logs requests with their headers', async () => {
    const page = seedsFor(tw.web, 'chess', 1)[0];
    const url = tw.urlOf(page);
    const before = tw.requestCount(url);
    const res = await get(url, { headers: { 'X-Probe': 'yes' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('last-modified')).toBe(page.lastModified);
    expect(res.headers.get('set-cookie')).toMatch(/forager_test=/);
    const html = await res.text();
    expect(html).toContain(`<title>${escapeHtml(page.title)}</title>`);
    expect(tw.requestCount(url)).toBe(before + 1);
    const log = tw.requests.filter((r) => r.url === url).at(-1)!;
    expect(log.headers['x-probe']).toBe('yes');
    expect(log.headers.cookie).toBeUndefined();
    expect(log.site).toBe(page.site);
    // Cross-site links are absolute URLs with the real ports.
    const cross = page.links.map((to) => splitKey(to)).filter((k) => k.site !== page.site);
    for (const k of cross) expect(html).toContain(`href="${tw.origins[k.site]}${k.path}`);
  });

  it('answers 404 for missing pages and deliberate broken links', async () => {
    expect((await get(`${site0()}/no/such/page.html`)).status).toBe(404);
    const missing = [...tw.web.missing][0];
    expect((await get(tw.urlOf(missing))).status).toBe(404);
    expect((await get(`${site0()}/portal.html`, { method: 'POST' })).status).toBe(405);
  });

  it('serves robots.txt: allow all, except /private/ on the private site', async () => {
    for (const site of tw.web.sites) {
      const res = await get(`${tw.origins[site]}/robots.txt`);
      expect(res.status).toBe(200);
      const text = await res.text();
      if (site === tw.web.privateSite) expect(text).toMatch(/Disallow: \/private\//);
      else expect(text).not.toMatch(/Disallow: \//);
    }
    const priv = await get(tw.urlOf(tw.web.privatePage));
    expect(priv.status).toBe(200); // served anyway: only robots.txt keeps a crawler out
  });

  it('serves the hostile routes as specified', async () => {
    const h = (p: string) => site0() + p;
    let res = await get(h('/hostile/binary'));
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect((await res.arrayBuffer()).byteLength).toBe(64 * 1024);

    res = await get(h('/hostile/notype'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBeNull();
    expect(await res.text()).toContain('<html');

    res = await get(h('/hostile/wrongtype'));
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(await res.text()).toContain('<html');

    res = await get(h('/hostile/cp1252'));
    expect(res.headers.get('content-type')).toBe('text/html; charset=windows-1252');
    const cp = new Uint8Array(await res.arrayBuffer());
    expect(cp.includes(0xe9)).toBe(true);
    expect(new TextDecoder('windows-1252').decode(cp)).toContain(CP1252_PHRASE);
    expect(new TextDecoder('utf-8').decode(cp)).not.toContain(CP1252_PHRASE);

    res = await get(h('/hostile/sjis'));
    expect(res.headers.get('content-type')).toBe('text/html');
    const sj = new Uint8Array(await res.arrayBuffer());
    expect(new TextDecoder('shift_jis').decode(sj)).toContain(SJIS_PHRASE);
    expect(new TextDecoder('shift_jis').decode(sj)).toMatch(/<meta charset="Shift_JIS">/);
    expect(new TextDecoder('utf-8').decode(sj)).not.toContain(SJIS_PHRASE);

    res = await get(h('/hostile/loop-a'));
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/hostile/loop-b');
    res = await get(h('/hostile/loop-b'));
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/hostile/loop-a');

    expect((await get(h('/hostile/404'))).status).toBe(404);
    expect((await get(h('/hostile/500'))).status).toBe(500);

    res = await get(h('/hostile/links20k'));
    const { hrefs } = parseLinks(await res.text());
    expect(hrefs).toHaveLength(LINKS20K);
    expect(hrefs.filter((x) => x.startsWith('/hostile/nowhere/')).length).toBeGreaterThan(LINKS20K * 0.9);
    expect((await get(h(hrefs[1]))).status).toBe(404);

    const js = parseLinks(await (await get(h('/hostile/js-links'))).text()).hrefs;
    for (const scheme of ['javascript:', 'mailto:', 'data:', 'tel:'])
      expect(js.some((x) => x.trim().toLowerCase().startsWith(scheme))).toBe(true);

    const internal = parseLinks(await (await get(h('/hostile/internal'))).text()).hrefs;
    expect(internal).toContain('http://10.0.0.1/');
    expect(internal).toContain('http://169.254.169.254/latest/meta-data/');

    res = await get(h('/hostile/malformed'));
    expect(res.status).toBe(200);
    const malformed = await res.text();
    expect(malformed.trimEnd().endsWith('>')).toBe(false);
    expect(malformed).not.toContain('</html>');
  });

  it('serves an infinite calendar with ever deeper URLs', async () => {
    const month = await (await get(`${site0()}/hostile/calendar/2026/11`)).text();
    const links = parseLinks(month).hrefs;
    expect(links).toContain('/hostile/calendar/2026/10');
    expect(links).toContain('/hostile/calendar/2026/12');
    expect(links).toContain('/hostile/calendar/2026/11/day/30');
    const deep = '/hostile/calendar/2026/11/day/3/day/4/day/5';
    const res = await get(site0() + deep);
    expect(res.status).toBe(200);
    expect(parseLinks(await res.text()).hrefs).toContain(`${deep}/day/1`);
    expect(parseLinks(await (await get(`${site0()}/hostile/calendar/2026/12`)).text()).hrefs).toContain(
      '/hostile/calendar/2027/1',
    );
    expect((await get(`${site0()}/hostile/calendar/2026/13`)).status).toBe(404);
  });

  it('answers 429 with Retry-After, and the page to a client that waited', async () => {
    const url = `${tw.origins.site2}/hostile/429`;
    let res = await get(url);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('2');
    await res.arrayBuffer();
    const firstRefusal = Date.now() - 50; // a little slack for the time the first answer took to arrive
    res = await get(url);
    expect(res.status).toBe(429); // too soon
    await res.arrayBuffer();
    // Ask again until the page comes (a client waiting out Retry-After), never sooner than the 2 s it asked for.
    await vi.waitFor(
      async () => {
        const again = await get(url);
        await again.arrayBuffer();
        expect(again.status).toBe(200);
      },
      { timeout: 15_000, interval: 250 },
    );
    expect(Date.now() - firstRefusal).toBeGreaterThanOrEqual(2000);
  });

  it('streams 10 MiB from /hostile/big', async () => {
    const res = await get(`${site0()}/hostile/big`);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-length')).toBeNull();
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    const reader = res.body!.getReader();
    let bytes = 0;
    let chunks = 0;
    let first = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (chunks === 0) first = new TextDecoder().decode(value.subarray(0, 200));
      bytes += value.byteLength;
      chunks++;
    }
    expect(first).toMatch(/^<!DOCTYPE html>/);
    expect(bytes).toBeGreaterThanOrEqual(BIG_BYTES);
    expect(bytes).toBeLessThan(BIG_BYTES + 1024);
    expect(chunks).toBeGreaterThan(10);
    // A client that gives up early does not upset the server.
    const ctrl = new AbortController();
    const partial = await fetch(`${site0()}/hostile/big`, { signal: ctrl.signal });
    await partial.body!.getReader().read();
    ctrl.abort();
    expect((await get(tw.portalUrl)).status).toBe(200);
  });

  it('links to hostile routes from normal pages', async () => {
    const topic = tw.web.topics[0];
    const carrier = [...tw.web.pages.values()].find((p) => p.topic === topic.id && p.hostileLinks.length > 0)!;
    const html = await (await get(tw.urlOf(carrier))).text();
    for (const l of carrier.hostileLinks) expect(parseLinks(html).hrefs).toContain(l.path);
  });
});

describe('startTestWeb lifecycle', () => {
  it('close() ends hanging and trickling responses', async () => {
    const tw = await startTestWeb({ seed: 9, sites: 2, topics: 1, pagesPerTopic: 8 });
    const hang = fetch(`${tw.origins.site0}/hostile/hang`).then(
      () => 'answered',
      () => 'failed',
    );
    const trickle = await fetch(`${tw.origins.site1}/hostile/trickle`);
    expect(trickle.status).toBe(200);
    const rest = trickle.text().then(
      () => 'ended',
      () => 'failed',
    );
    // Make sure the hanging request reached the server before closing.
    for (let i = 0; i < 200 && !tw.requests.some((r) => r.url.endsWith('/hostile/hang')); i++)
      await new Promise((r) => setTimeout(r, 10));
    await tw.close();
    expect(await hang).toBe('failed');
    expect(['ended', 'failed']).toContain(await rest);
    await tw.close(); // idempotent
  });

  it('delays answers by delayMs and listens on consecutive ports when given one', async () => {
    // Find two free consecutive ports: ask for ephemeral ones, then reuse the first (retry if someone took it meanwhile).
    let tw: RunningTestWeb | undefined;
    let base = 0;
    for (let attempt = 0; attempt < 5 && !tw; attempt++) {
      const probe = await startTestWeb({ seed: 1, sites: 2, topics: 1, pagesPerTopic: 8 });
      base = Number(new URL(probe.origins.site0).port);
      await probe.close();
      tw = await startTestWeb({ seed: 1, sites: 2, topics: 1, pagesPerTopic: 8, delayMs: 300, port: base }).catch(
        () => undefined,
      );
    }
    if (!tw) throw new Error('could not bind two consecutive ports');
    try {
      expect(tw.origins.site1).toBe(`http://127.0.0.1:${base + 1}`);
      const t0 = Date.now();
      const res = await fetch(`${tw.origins.site0}/robots.txt`);
      expect(res.status).toBe(200);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
    } finally {
      await tw.close();
    }
  });
});
