import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRAWL_HELP, parseCrawlArgs, parseDemoArgs, UsageError } from '../../cli/args';
import { type CliIo, formatResults, runCrawlCommand } from '../../cli/crawl-command';
import type { PageResult } from '../../lib/engine/types';
import { seedsFor, topicQuery } from '../../harness/testweb/generate';
import { type RunningTestWeb, startTestWeb } from '../../harness/testweb/server';

/** Anything a terminal would interpret: C0/C1 controls (line feed aside), DEL, bidi overrides and isolates. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must not be printed
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

function capture(onInterrupt?: (stop: () => void) => void) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    stdout: { write: (t: string) => out.push(t) },
    stderr: { write: (t: string) => err.push(t) },
    onInterrupt,
  };
  return { io, out: () => out.join(''), err: () => err.join('') };
}

const usage = (argv: string[]) => {
  try {
    parseCrawlArgs(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`accepted: ${argv.join(' ')}`);
};

describe('command-line arguments', () => {
  it('refuses mistakes with a sentence, before anything runs', () => {
    expect(usage(['--bogus'])).toBe("Unknown option '--bogus'");
    expect(usage(['coffee', 'https://a.example/', '--max-pages', 'abc'])).toMatch(/--max-pages must be a whole number .* "abc"/);
    expect(usage(['coffee', 'https://a.example/', '--top', '0'])).toMatch(/--top must be a whole number >= 1/);
    // A negative value reaches the range check, not parseArgs' "ambiguous" refusal.
    expect(usage(['coffee', 'https://a.example/', '--max-pages', '-5'])).toMatch(
      /--max-pages must be a whole number .*, got "-5"/,
    );
    expect(usage(['coffee', 'https://a.example/', '--lang', 'xx'])).toMatch(/--lang xx: no stop words .*known: .*\bde\b/);
    expect(usage(['coffee', 'https://a.example/', '--param', 'nope=1'])).toMatch(/no parameter "nope"/);
    expect(usage(['coffee', 'https://a.example/', '--n', '0'])).toMatch(/--n must be a whole number >= 1/);
    expect(usage(['coffee', 'ftp://a.example/'])).toMatch(/not a seed URL/);
    expect(usage(['coffee', 'http://127.0.0.1:8080/'])).toMatch(/refused: private host 127\.0\.0\.1:8080 .*--allow-private/);
    expect(usage(['coffee'])).toMatch(/at least one seed URL/);
    expect(usage(['coffee', ...Array.from({ length: 501 }, (_, i) => `https://a.example/${i}`)])).toMatch(/at most 500 seed/);
    expect(usage(['x'.repeat(501), 'https://a.example/'])).toMatch(/longer than 500/);
    expect(usage(['--resume', 'dir', '--strategy', 'bfs1', '--allow-private'])).toMatch(/drop --strategy, --allow-private/);
    expect(usage(['coffee', 'https://a.example/', '--retries', '6'])).toMatch(/--retries must be a whole number from 0 to 5/);
    expect(usage(['--resume', 'dir', '--retries', '0'])).toMatch(/drop --retries/);
    expect(parseCrawlArgs(['coffee', 'http://127.0.0.1:8080/', '--allow-private', '--lang', 'de'])).toMatchObject({
      kind: 'start',
      start: { language: 'de', fetch: { allowPrivate: true, retries: 2 }, settings: { strategy: 'forager', maxPages: 500 } },
    });
    expect(parseCrawlArgs(['coffee', 'https://a.example/', '--retries', '0'])).toMatchObject({
      start: { fetch: { retries: 0 } },
    });
  });

  it('allows a private seed host by --allow-private or by name, link-local ones only by name, metadata never', () => {
    // --allow-private covers loopback and private networks, not link-local: those must be named.
    expect(usage(['coffee', 'http://169.254.1.2/', '--allow-private'])).toMatch(/private host 169\.254\.1\.2 \(link-local\)/);
    expect(parseCrawlArgs(['coffee', 'http://169.254.1.2/', '--private-host', '169.254.1.2'])).toMatchObject({
      start: { fetch: { allowPrivate: false, privateHosts: ['169.254.1.2'] }, settings: { privateHosts: ['169.254.1.2'] } },
    });
    // A named host is that host and port: another port of it stays refused.
    expect(usage(['coffee', 'http://192.168.1.20:8081/', '--private-host', '192.168.1.20:8080'])).toMatch(/refused/);
    // Cloud metadata addresses, whatever the options.
    for (const seed of [
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00:ec2::254]/',
      'http://metadata.google.internal/',
    ]) {
      const host = new URL(seed).host;
      expect(usage(['coffee', seed, '--allow-private', '--private-host', host])).toMatch(/cloud metadata: never fetched/);
    }
    expect(usage(['coffee', 'https://a.example/', '--private-host', 'a/b'])).toMatch(/--private-host: not a host/);
    expect(usage(['--resume', 'dir', '--private-host', 'nas'])).toMatch(/drop --private-host/);
  });

  it("says how to crawl the bundled test web, and npm start's usage line works as written", () => {
    expect(CRAWL_HELP).toContain('npx tsx harness/testweb/serve.ts');
    expect(CRAWL_HELP).toMatch(/npm run crawl -- .* --allow-private --delay 0/);
    // The usage line, followed literally: `npm start -- --headless --pages 100 --screenshot out.png --no-build`.
    expect(parseDemoArgs(['--headless', '--pages', '100', '--screenshot', 'out.png', '--no-build'])).toEqual({
      help: false,
      headless: true,
      pages: 100,
      screenshot: 'out.png',
      build: 'never',
    });
    expect(parseDemoArgs([]).build).toBe('auto');
    expect(parseDemoArgs(['--rebuild']).build).toBe('always');
    expect(() => parseDemoArgs(['--rebuild', '--no-build'])).toThrow(/contradict/);
    expect(() => parseDemoArgs(['--pages', 'abc'])).toThrow(/--pages must be a whole number/);
    expect(() => parseDemoArgs(['--bogus'])).toThrow(UsageError);
  });
});

describe('terminal safety', () => {
  it('prints no escape sequence, control or bidi-override character from a page', () => {
    const evil: PageResult = {
      url: 'https://evil.example/\u001b]8;;https://phish.example\u001b\\click\u001b]8;;\u001b\\',
      title: 'Owned\u001b]0;window title\u0007 \u001b[2J\u001b[H\u001b]52;c;ZXZpbA==\u0007 x\u202Egnp.exe\u009b31m red',
      snippet: '',
      score: 0.5,
      depth: 1,
      fetchedAt: 0,
      isSeed: false,
    };
    const printed = formatResults([evil]);
    expect(printed).not.toMatch(UNSAFE);
    expect(printed).toContain('Owned xgnp.exe31m red');
    expect(printed).toContain('https://evil.example/click');
  });
});

describe('npm run crawl', () => {
  let tw: RunningTestWeb;
  let evil: http.Server;
  let evilUrl = '';
  const tmp = mkdtempSync(path.join(tmpdir(), 'forager-cli-'));
  beforeAll(async () => {
    tw = await startTestWeb({ seed: 2 });
    evil = http.createServer((req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      if (req.url === '/robots.txt') return void res.end('');
      res.end(
        '<title>Astronomy \u001b]0;pwned\u0007\u001b[2J telescope x\u202Egnp.exe</title><p>astronomy telescope stars</p>' +
          '<a href="/b">more astronomy</a>',
      );
    });
    await new Promise<void>((r) => evil.listen(0, '127.0.0.1', r));
    evilUrl = `http://127.0.0.1:${(evil.address() as AddressInfo).port}/a`;
  });
  afterAll(async () => {
    await tw.close();
    await new Promise((r) => evil.close(r));
    rmSync(tmp, { recursive: true, force: true });
  });
  const astronomy = () => ({
    keywords: topicQuery(tw.web, 'astronomy').keywords,
    seeds: seedsFor(tw.web, 'astronomy', 2).map((p) => tw.urlOf(p)),
  });

  it('refuses a loopback seed without --allow-private, and bad options, before any request', async () => {
    const { keywords, seeds } = astronomy();
    const before = tw.requests.length;
    for (const extra of [[], ['--allow-private', '--top', '0'], ['--allow-private', '--lang', 'xx']]) {
      const c = capture();
      expect(await runCrawlCommand([keywords, ...seeds, ...extra], c.io)).toBe(2);
      expect(c.err()).toMatch(/^forager: .*\n\(npm run crawl -- --help lists the options\)\n$/);
      expect(c.err()).not.toMatch(/\n\s+at /); // no stack trace
    }
    expect(tw.requests.length).toBe(before);
  });

  it('says why nothing was found when no seed can be reached, and exits 1', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/`;
    await new Promise((r) => closed.close(r));
    const c = capture();
    expect(await runCrawlCommand(['astronomy', url, '--allow-private', '--quiet', '--ignore-robots'], c.io)).toBe(1);
    expect(c.err()).toContain('No pages found: no seed could be read.');
    expect(c.err()).toContain(`${url}: network (`);
    expect(c.out()).toBe('');
  });

  it('prints titles without their escape sequences or bidi overrides', async () => {
    const c = capture();
    expect(await runCrawlCommand(['astronomy telescope', evilUrl, '--allow-private', '--all', '--delay', '0'], c.io)).toBe(0);
    expect(c.out()).toContain('Astronomy telescope xgnp.exe');
    expect(c.out()).not.toMatch(UNSAFE);
    expect(c.err()).not.toMatch(UNSAFE); // progress lines too (not a terminal here: no cursor codes)
  });

  it('--save keeps the crawl in a file store; Ctrl-C stops it; --resume continues it with its own settings, fetching nothing twice', async () => {
    const { keywords, seeds } = astronomy();
    const dir = path.join(tmp, 'saved');
    const pageRequests = () => tw.requests.filter((r) => !r.url.endsWith('/robots.txt'));
    const before = pageRequests().length;
    let stop: () => void = () => {};
    const first = capture((s) => {
      stop = s;
    });
    const running = runCrawlCommand(
      [keywords, ...seeds, '--allow-private', '--delay', '0', '--max-pages', '60', '--n', '4', '--save', dir, '--quiet'],
      first.io,
    );
    for (let i = 0; pageRequests().length - before < 12; i++) {
      if (i > 5000) throw new Error('the crawl did not start');
      await new Promise((r) => setTimeout(r, 2));
    }
    stop();
    expect(await running).toBe(0);
    expect(first.err()).toContain(`continue with: npm run crawl -- --resume ${dir}`);
    const firstUrls = pageRequests()
      .slice(before)
      .map((r) => r.url);
    expect(firstUrls.length).toBeLessThan(60);

    // Resumed without repeating --allow-private or anything else: the store keeps the crawl's settings.
    const second = capture();
    expect(await runCrawlCommand(['--resume', dir, '--json', '--quiet'], second.io)).toBe(0);
    const doc = JSON.parse(second.out()) as { crawl: { status: string; stats: { pagesEvaluated: number } }; pages: unknown[] };
    expect(doc.crawl.status).toBe('done');
    expect(doc.crawl.stats.pagesEvaluated).toBe(60);
    expect(doc.pages).toHaveLength(60);
    const all = pageRequests()
      .slice(before)
      .map((r) => r.url);
    expect(all.filter((u, i) => all.indexOf(u) !== i)).toEqual([]); // no page fetched twice
    // A finished crawl has nothing left to fetch: --resume shows its results, as --top and --json ask.
    const requestsBefore = pageRequests().length;
    const third = capture();
    expect(await runCrawlCommand(['--resume', dir, '--top', '3'], third.io)).toBe(0);
    expect(third.err()).toMatch(/is finished/);
    expect(
      third
        .out()
        .split('\n')
        .filter((l) => /^\s*\d+\. /.test(l)),
    ).toHaveLength(3);
    const fourth = capture();
    expect(await runCrawlCommand(['--resume', dir, '--json', '--quiet'], fourth.io)).toBe(0);
    expect((JSON.parse(fourth.out()) as { pages: unknown[] }).pages).toHaveLength(60);
    expect(pageRequests().length).toBe(requestsBefore);
  });
});
