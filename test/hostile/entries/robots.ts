/**
 * A pathological robots.txt: 500 KiB of short wildcard rules (`Disallow: /*a<i>*z$`, 23,777 lines) in front of pages
 * with 2,000-character paths, some of which the file disallows (they end in `a7z`). The command line crawls 40 pages;
 * the entry counts the requests to disallowed paths (none allowed) and says a run is wrong when the crawl took more
 * than 30 s (matching was ~1 s of CPU per URL before it was bounded).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CliIo, runCrawlCommand } from '../../../cli/crawl-command';
import type { EntryRun, HostileEntry } from '../suite';

const PAGES = 40;
const MAX_SECONDS = 30;

/** `Disallow: /*a<i>*z$` lines, as many as 500 KiB hold. */
function hostileRobots(bytes = 500 * 1024): string {
  const lines = ['User-agent: *'];
  let size = lines[0].length + 1;
  for (let i = 0; ; i++) {
    const line = `Disallow: /*a${i}*z$`;
    if (size + line.length + 1 > bytes) return `${lines.join('\n')}\n`;
    lines.push(line);
    size += line.length + 1;
  }
}

/** A path of 2,000 characters; every fifth one ends in `a7z`, which rule 7 disallows. */
const longPath = (n: number) => {
  const tail = n % 5 === 4 ? `-${n}-a7z` : `-${n}-ok`;
  return `/${'b'.repeat(2000 - tail.length - 1)}${tail}`;
};

export const pathologicalRobots: HostileEntry = {
  id: 'robots-wildcards',
  title: 'robots.txt of 500 KiB of wildcard rules in front of 2,000-character paths',
  targets: ['cli'],
  async run(): Promise<EntryRun> {
    const robots = hostileRobots();
    const requested: string[] = [];
    const server = http.createServer((req, res) => {
      const path = req.url ?? '/';
      if (path === '/robots.txt') return void res.writeHead(200, { 'Content-Type': 'text/plain' }).end(robots);
      requested.push(path);
      const n = path === '/' ? 0 : Number(/-(\d+)-/.exec(path)?.[1] ?? 0);
      const links = [1, 2, 3, 4, 5].map((k) => `<a href="${longPath(n * 5 + k)}">solar panels ${n * 5 + k}</a>`);
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(`<!DOCTYPE html><title>solar panels ${n}</title><p>solar panels and inverters</p>${links.join(' ')}`);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const quiet = { write: () => true };
    const io: CliIo = { stdout: quiet, stderr: quiet };
    const started = performance.now();
    const cpu = process.cpuUsage();
    try {
      await runCrawlCommand(
        ['solar panels', `http://127.0.0.1:${port}/`, '--allow-private', '--delay', '0', '--quiet', '--max-pages', String(PAGES)],
        io,
      );
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    const cpuSeconds = (used.user + used.system) / 1e6;
    const disallowed = requested.filter((p) => p.endsWith('a7z')).length;
    process.stderr.write(
      `  ${requested.length} pages requested in ${seconds.toFixed(1)} s (${cpuSeconds.toFixed(1)} s CPU), ${disallowed} disallowed\n`,
    );
    const problems: string[] = [];
    if (requested.length < PAGES / 2) problems.push(`only ${requested.length} pages crawled, so silence proves little`);
    if (seconds > MAX_SECONDS) problems.push(`the crawl took ${seconds.toFixed(1)} s (over ${MAX_SECONDS} s)`);
    return { outcomes: [{ technique: '500KiB-wildcard-rules', reached: disallowed, allowed: 0 }], problems };
  },
};
