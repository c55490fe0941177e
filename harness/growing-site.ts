/**
 * A site that grows a topic watch: its front page (the seed) is new at every visit and links to pages never offered
 * before, and every page it served once answers 304 Not Modified to a conditional request. Each check of a watch on
 * it therefore costs the page budget on new pages while the known ones cost nothing: without a cap the watch grows by
 * a page budget per check. Shared by the watch tests and the hostile-web suite; listens on 127.0.0.1 only.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GrowingSite {
  /** The front page, the seed of a watch. */
  seed: string;
  /** host:port, as URL.host writes it (what a crawl's private hosts list names). */
  host: string;
  /** Requests served, by kind. */
  counts: { front: number; fresh: number; notModified: number };
  close(): Promise<void>;
}

const TEXT =
  'Solar panels turn sunlight into electricity. Photovoltaic solar panels on a roof, solar inverters and solar ' +
  'batteries: how solar panel efficiency, solar cells and the angle of the panels change the power a solar array gives.';

const page = (title: string, links: string[]) =>
  `<!DOCTYPE html><html lang="en"><title>${title}</title><h1>${title}</h1><p>${TEXT}</p><p>${TEXT}</p>` +
  `<ul>${links.map((l) => `<li><a href="${l}">Solar panels: ${l}</a></li>`).join('')}</ul></html>`;

/** Starts the site; `linksPerVisit` new pages are offered at every visit of the front page. */
export async function startGrowingSite(linksPerVisit = 20): Promise<GrowingSite> {
  const counts = { front: 0, fresh: 0, notModified: 0 };
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/robots.txt') return void res.writeHead(404).end();
    const html = { 'Content-Type': 'text/html; charset=utf-8' };
    if (path === '/') {
      const visit = ++counts.front;
      const links = Array.from({ length: linksPerVisit }, (_, i) => `/p/${visit}-${i}`);
      return void res.writeHead(200, { ...html, 'Cache-Control': 'no-store' }).end(page('Solar panels news', links));
    }
    if (req.headers['if-none-match'] || req.headers['if-modified-since']) {
      counts.notModified++;
      return void res.writeHead(304, { ETag: '"same"' }).end();
    }
    counts.fresh++;
    res.writeHead(200, { ...html, ETag: '"same"' }).end(page(`Solar panels ${path}`, [`${path}-a`, `${path}-b`]));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    seed: `http://127.0.0.1:${port}/`,
    host: `127.0.0.1:${port}`,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
