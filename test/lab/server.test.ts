import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { candidatePaths, mapLink, normalizeHome, startLocalWeb, type LocalWeb } from '../../lab/docweb/server';
import { countPages, loadSitesDir } from '../../lab/sites';

let dir: string;
let web: LocalWeb;

const ALPHA_INDEX = `<!DOCTYPE html><html><head><title>Alpha</title>
<link rel="canonical" href="https://www.alpha.example/docs/index.html" />
<link rel="stylesheet" href="style.css"></head><body>
<a href="https://www.alpha.example/docs/page.html#frag">home link</a>
<a href='/usr/share/doc/beta/html/b.html'>beta via file system path</a>
<a href="file:///usr/share/doc/beta/html/b.html?x=1&amp;y=2">beta via file URL</a>
<a href="http://WWW.ALPHA.EXAMPLE/docs/topic/">dirhtml</a>
<a href="https://www.alpha.example/docs/missing.html">not shipped</a>
<a href="https://www.alpha.example/docsX/page.html">other prefix</a>
<a href="https://other.example/x">elsewhere</a>
<a href="/local.html">root relative</a>
<a href=relative.html>relative</a>
</body></html>`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lab-sites-'));
  mkdirSync(join(dir, 'alpha', 'sub'), { recursive: true });
  mkdirSync(join(dir, 'beta'), { recursive: true });
  writeFileSync(join(dir, 'alpha', 'index.html'), ALPHA_INDEX);
  writeFileSync(join(dir, 'alpha', 'page.html'), '<html><title>Page</title><body><p>page</p></body></html>');
  writeFileSync(join(dir, 'alpha', 'topic.html'), '<html><title>Topic</title><body>topic</body></html>');
  writeFileSync(join(dir, 'alpha', 'sub', 'index.html'), '<html><title>Sub</title><body>sub</body></html>');
  writeFileSync(join(dir, 'alpha', 'style.css'), 'body{}');
  writeFileSync(
    join(dir, 'alpha', 'big.html.gz'),
    gzipSync(Buffer.from('<html><title>Gz</title><body><a href="https://www.alpha.example/docs/page.html">p</a></body></html>')),
  );
  symlinkSync('page.html', join(dir, 'alpha', 'alias.html'));
  writeFileSync(join(dir, 'beta', 'index.html'), '<html><title>Beta</title><body><a href="b.html">b</a></body></html>');
  writeFileSync(join(dir, 'beta', 'b.html'), '<html><title>B</title><body>b</body></html>');
  writeFileSync(
    join(dir, 'sites.json'),
    JSON.stringify({
      format: 'docweb-sites/1',
      sites: [
        { name: 'alpha', homes: ['https://www.alpha.example/docs/'], hubs: ['index.html'] },
        { name: 'beta', homes: ['/usr/share/doc/beta/html'] },
      ],
    }),
  );
  web = await startLocalWeb({ sites: loadSitesDir(dir) });
});

afterAll(async () => {
  await web?.close();
  rmSync(dir, { recursive: true, force: true });
});

function get(url: string, path?: string): Promise<{ status: number; type: string; body: string; location?: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path: path ?? u.pathname, method: 'GET' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          type: String(res.headers['content-type']),
          body: Buffer.concat(chunks).toString('utf8'),
          location: res.headers.location,
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('local web server', () => {
  it('serves every site on its own 127.0.0.1 origin and a portal linking to the front pages', async () => {
    expect(Object.keys(web.origins)).toEqual(['alpha', 'beta']);
    const origins = new Set([...Object.values(web.origins), web.portal].map((o) => new URL(o).port));
    expect(origins.size).toBe(3);
    for (const o of Object.values(web.origins)) expect(o).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const portal = await get(`${web.portal}/`);
    expect(portal.status).toBe(200);
    expect(portal.body).toContain(`href="${web.origins.alpha}/"`);
    expect(portal.body).toContain(`href="${web.origins.beta}/"`);
    expect(portal.body.match(/<a /g)?.length).toBe(2);
  });

  it('rewrites links to the real homes when the target exists, leaves the rest, strips rel=canonical', async () => {
    const r = await get(`${web.origins.alpha}/`);
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/^text\/html/);
    const a = web.origins.alpha;
    const b = web.origins.beta;
    expect(r.body).toContain(`href="${a}/page.html#frag"`);
    expect(r.body).toContain(`href='${b}/b.html'`);
    expect(r.body).toContain(`href="${b}/b.html?x=1&amp;y=2"`);
    expect(r.body).toContain(`href="${a}/topic.html"`);
    expect(r.body).toContain('href="https://www.alpha.example/docs/missing.html"');
    expect(r.body).toContain('href="https://www.alpha.example/docsX/page.html"');
    expect(r.body).toContain('href="https://other.example/x"');
    expect(r.body).toContain('href="/local.html"');
    expect(r.body).toContain('href=relative.html');
    expect(r.body).not.toMatch(/canonical/i);
    // no link added: same number of anchors as the file
    expect(r.body.match(/<a /g)?.length).toBe(ALPHA_INDEX.match(/<a /g)?.length);
  });

  it('serves .html.gz transparently (rewritten), follows symlinks, redirects folders, refuses escapes', async () => {
    const gz = await get(`${web.origins.alpha}/big.html`);
    expect(gz.status).toBe(200);
    expect(gz.type).toMatch(/^text\/html/);
    expect(gz.body).toContain(`href="${web.origins.alpha}/page.html"`);
    const alias = await get(`${web.origins.alpha}/alias.html`);
    expect(alias.body).toContain('<title>Page</title>');
    const sub = await get(`${web.origins.alpha}/sub`);
    expect(sub.status).toBe(301);
    expect(sub.location).toBe('/sub/');
    expect((await get(`${web.origins.alpha}/sub/`)).body).toContain('<title>Sub</title>');
    expect((await get(`${web.origins.alpha}/nope.html`)).status).toBe(404);
    expect((await get(web.origins.alpha, '/../beta/b.html')).status).toBe(404);
    expect((await get(web.origins.alpha, '/%2e%2e/%2e%2e/etc/passwd')).status).toBe(404);
    expect((await get(web.origins.alpha, '/%E0%A4%A')).status).toBe(400);
    expect((await get(`${web.origins.alpha}/style.css`)).type).toBe('text/css');
  });

  it('maps URLs to page ids and back', () => {
    expect(web.urlFor('alpha/sub/index.html')).toBe(`${web.origins.alpha}/sub/index.html`);
    expect(web.idFor(`${web.origins.alpha}/`)).toBe('alpha/index.html');
    expect(web.idFor(`${web.origins.alpha}/sub/`)).toBe('alpha/sub/index.html');
    expect(web.idFor(`${web.origins.alpha}/sub`)).toBe('alpha/sub/index.html');
    expect(web.idFor(`${web.origins.alpha}/big.html`)).toBe('alpha/big.html');
    expect(web.idFor(`${web.origins.alpha}/style.css`)).toBeUndefined();
    expect(web.idFor('https://other.example/')).toBeUndefined();
    expect(() => web.urlFor('gamma/x.html')).toThrow(/unknown site/);
  });

  it('counts pages (gzipped once, symlinks followed)', () => {
    expect(countPages(join(dir, 'alpha'))).toBe(6); // index, page, topic, sub/index, big (gz), alias
  });
});

describe('link mapping', () => {
  const ctx = {
    origins: { py: 'http://127.0.0.1:1', dj: 'http://127.0.0.1:2', ref: 'http://127.0.0.1:3' },
    homes: [
      { prefix: normalizeHome('https://docs.djangoproject.com/en/3.2/'), site: 'dj' },
      { prefix: normalizeHome('/usr/share/doc/python3-doc/html'), site: 'py' },
      { prefix: normalizeHome('https://www.debian.org/doc/manuals/debian-reference/'), site: 'ref' },
    ],
    exists: (site: string, path: string) =>
      (site === 'dj' && ['ref/contrib/postgres/search.html', ''].includes(path)) ||
      (site === 'py' && path === 'library/asyncio.html') ||
      (site === 'ref' && ['ch02.en.html', ''].includes(path)),
  };
  it('handles Sphinx dirhtml, file-system paths and language suffixes', () => {
    expect(mapLink('https://docs.djangoproject.com/en/3.2/ref/contrib/postgres/search/#x', ctx)).toBe(
      'http://127.0.0.1:2/ref/contrib/postgres/search.html#x',
    );
    expect(mapLink('https://docs.djangoproject.com/en/3.2/', ctx)).toBe('http://127.0.0.1:2/');
    expect(mapLink('/usr/share/doc/python3-doc/html/library/asyncio.html#asyncio.run', ctx)).toBe(
      'http://127.0.0.1:1/library/asyncio.html#asyncio.run',
    );
    expect(mapLink('https://www.debian.org/doc/manuals/debian-reference/ch02', ctx)).toBe('http://127.0.0.1:3/ch02.en.html');
    expect(mapLink('https://www.debian.org/doc/manuals/debian-reference/ch02.html', ctx)).toBe('http://127.0.0.1:3/ch02.en.html');
    expect(mapLink('https://www.debian.org/doc/manuals/debian-reference/', ctx)).toBe('http://127.0.0.1:3/');
    expect(mapLink('https://docs.djangoproject.com/en/3.21/x/', ctx)).toBeUndefined();
    expect(mapLink('relative.html', ctx)).toBeUndefined();
    expect(candidatePaths('git-add')).toEqual(['git-add', 'git-add.html', 'git-add.en.html', 'git-add/']);
  });
});
