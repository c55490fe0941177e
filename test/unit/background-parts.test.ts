import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGuardedEvaluator, type EvaluatorHandle } from '../../lib/app/adapters/evaluator/guarded-evaluator';
import { highlightSegments, highlightTerms } from '../../lib/app/view/highlight';
import { LiveHub } from '../../lib/app/background/live';
import { mergeResults } from '../../lib/app/view/results';
import * as Comlink from 'comlink';
import { createEvaluatorHost, type WorkerLike } from '../../lib/app/adapters/evaluator/evaluator-host';
import {
  createPortEvaluator,
  offscreenEnsurer,
  transferableCopy,
  type EvaluatorEndpointApi,
  type EvaluatorPorts,
} from '../../lib/app/adapters/evaluator/port-evaluator';
import { describeStrategies, isForagerRequest } from '../../lib/app/background/handlers';
import { crawlPolicy, validateStart } from '../../lib/app/rules/settings';
import { checkUrl } from '../../lib/engine/url/rules';
import {
  draftFromMenu,
  draftFromSerp,
  isGenericText,
  parseStartHash,
  startHash,
  toSerpInfo,
  tabReading,
  draftFromVisibleLinks,
  topicFromPage,
} from '../../lib/app/view/start-draft';
import { localEvaluator } from '../../lib/engine/html/evaluate';
import { analyseTopic, withoutAnalysis } from '../../lib/engine/text/topic-analysis';
import {
  isEvaluatorCrashNotice,
  isEvaluatorPortHandoff,
  isWorkerPortHandoff,
  type EvaluatorPortHandoff,
  type LiveServerMessage,
} from '../../lib/app/model/protocol';
import type { CrawlRecord } from '../../lib/app/model/records';
import { listStrategies } from '../../lib/engine/strategies/index';
import type { EvaluationInput, PageEvaluation, PageResult } from '../../lib/engine/types';

const html = (title: string) =>
  new TextEncoder().encode(`<html><head><title>${title}</title></head><body><p>coffee brewing</p></body></html>`);
const input = (title = 'Coffee'): EvaluationInput => ({
  url: 'https://a.example.com/',
  body: html(title),
  topic: { keywords: 'coffee' },
});

function page(url: string, score: number, extra: Partial<PageResult> = {}): PageResult {
  return { url, title: url, snippet: '', score, depth: 1, fetchedAt: 0, isSeed: false, ...extra };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('wire', () => {
  it("transfers a copy, never the caller's buffer", () => {
    const big = new Uint8Array(100);
    const view = big.subarray(10, 20);
    view[0] = 42;
    const { input: own, transfer } = transferableCopy({ ...input(), body: view });
    expect(own.body.byteLength).toBe(10);
    expect(transfer[0]).toBe(own.body.buffer);
    expect(transfer[0]).not.toBe(big.buffer);
    expect(own.body[0]).toBe(42);
  });
});

describe('guarded evaluator', () => {
  const result = (title: string): PageEvaluation => ({ ...localEvaluatorSync(title) });
  function localEvaluatorSync(title: string): PageEvaluation {
    return {
      score: 0.5,
      title,
      snippet: '',
      links: [],
      terms: {},
      length: 1,
      charset: 'utf-8',
      baseUrl: 'https://a.example.com/',
      robots: { noindex: false, nofollow: false },
    };
  }

  it('times out a hung call, replaces the instance, and retries the others once', async () => {
    vi.useFakeTimers();
    const handles: { terminated: boolean; calls: string[] }[] = [];
    const ev = createGuardedEvaluator({
      timeoutMs: 1000,
      spawn: (): EvaluatorHandle => {
        const h = { terminated: false, calls: [] as string[] };
        handles.push(h);
        const hangs = handles.length === 1; // the first instance hangs on everything
        return {
          evaluate: (inp) => {
            h.calls.push(inp.url);
            return hangs ? new Promise(() => undefined) : Promise.resolve(result(inp.url));
          },
          analyseTopic: (topic, hints) => {
            h.calls.push(`topic ${topic.keywords}`);
            return hangs ? new Promise(() => undefined) : Promise.resolve(analyseTopic(topic, hints));
          },
          terminate: () => void (h.terminated = true),
        };
      },
    });
    const a = ev.evaluate({ ...input(), url: 'https://a.example.com/hang' });
    const b = ev.evaluate({ ...input(), url: 'https://a.example.com/other' });
    const topic = ev.analyseTopic({ keywords: 'Solar telescopes' });
    const aDone = a.catch((e: Error) => e);
    await vi.advanceTimersByTimeAsync(1000);
    const err = await aDone;
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/timed out after 1000 ms/);
    expect(handles[0].terminated).toBe(true);
    await expect(b).resolves.toMatchObject({ title: 'https://a.example.com/other' });
    // A topic's analysis caught up in the restart is tried again on the new instance, like an evaluation.
    await expect(topic).resolves.toMatchObject({ keywords: 'Solar telescopes', analysis: { query: { solar: 1, telescop: 1 } } });
    expect(handles[1].calls).toEqual(['https://a.example.com/other', 'topic Solar telescopes']);
    expect(ev.spawned).toBe(2);
    // The new instance keeps serving.
    await expect(ev.evaluate({ ...input(), url: 'https://a.example.com/next' })).resolves.toMatchObject({
      title: 'https://a.example.com/next',
    });
  });

  it("turns a crash into errors after one retry, and a thrown evaluation into that call's error only", async () => {
    let crash: ((r: string) => void) | null = null;
    let n = 0;
    const ev = createGuardedEvaluator({
      spawn: (onCrash) => {
        crash = onCrash;
        n++;
        return {
          evaluate: (inp) =>
            inp.url.endsWith('/bad') ? Promise.reject(new Error('cannot parse')) : new Promise(() => undefined),
          analyseTopic: () => new Promise(() => undefined),
          terminate: () => undefined,
        };
      },
      timeoutMs: 60_000,
    });
    await expect(ev.evaluate({ ...input(), url: 'https://a.example.com/bad' })).rejects.toThrow('cannot parse');
    const p = ev.evaluate(input()).catch((e: Error) => e.message);
    crash!('out of memory'); // first crash: retried on a new instance
    crash!('out of memory'); // second: given up
    expect(await p).toMatch(/crashed: out of memory/);
    expect(n).toBe(2);
    // The next call gets a fresh instance.
    const next = ev.evaluate(input()).catch((e: Error) => e.message);
    expect(n).toBe(3);
    ev.dispose('gone');
    expect(await next).toBe('gone');
  });

  it('reports an instance that cannot start as an evaluation error', async () => {
    const ev = createGuardedEvaluator({
      spawn: () => {
        throw new Error('Worker is not defined');
      },
    });
    await expect(ev.evaluate(input())).rejects.toThrow(/could not start: Worker is not defined/);
  });
});

describe('offscreen relay', () => {
  it('creates the offscreen document once however many calls race', async () => {
    let exists = false;
    let creates = 0;
    const ensure = offscreenEnsurer({
      exists: async () => exists,
      create: async () => {
        creates++;
        await new Promise((r) => setTimeout(r, 5));
        exists = true;
      },
    });
    await Promise.all([ensure(), ensure(), ensure(), ensure()]);
    await ensure();
    expect(creates).toBe(1);
  });

  it('tolerates losing the creation race to another context', async () => {
    let exists = false;
    const ensure = offscreenEnsurer({
      exists: async () => exists,
      create: async () => {
        exists = true; // someone else made it first
        throw new Error('Only a single offscreen document may be created.');
      },
    });
    await expect(ensure()).resolves.toBeUndefined();
  });
});

describe('port relay (service worker -> offscreen host -> Worker), over real MessageChannels', () => {
  /** A stand-in for the Worker: serves comlink on each handed-over port, as entrypoints/worker/evaluator.worker.ts does. */
  interface FakeWorker extends WorkerLike {
    terminated: boolean;
    urls: string[];
    crash(reason: string): void;
  }
  function fakeWorkers(behaviour: (url: string, n: number) => 'ok' | 'hang' = () => 'ok') {
    const workers: FakeWorker[] = [];
    const spawn = (onCrash: (reason: string) => void): FakeWorker => {
      const n = workers.length;
      let port: MessagePort | null = null;
      const api: EvaluatorEndpointApi = {
        evaluate: (inp) => {
          w.urls.push(inp.url);
          return behaviour(inp.url, n) === 'hang' ? new Promise<PageEvaluation>(() => undefined) : localEvaluator.evaluate(inp);
        },
        analyseTopic: (topic, hints) => analyseTopic(topic, hints),
        ping: () => 'pong',
      };
      const w: FakeWorker = {
        terminated: false,
        urls: [],
        postMessage(message, transfer) {
          if (!isWorkerPortHandoff(message)) return;
          port?.close();
          port = transfer[0] as MessagePort;
          Comlink.expose(api, port);
        },
        terminate() {
          w.terminated = true;
          port?.close();
        },
        crash: onCrash,
      };
      workers.push(w);
      return w;
    };
    return { workers, spawn };
  }

  /** The service worker's side wired to a host the way background.ts and offscreen/main.ts wire them. */
  function relay(
    host: ReturnType<typeof createEvaluatorHost>,
    opts: { timeoutMs?: number; connectTimeoutMs?: number; reachable?: () => boolean } = {},
  ) {
    const handoffs: EvaluatorPortHandoff[] = [];
    let ensured = 0;
    const evaluator = createPortEvaluator({
      ensureReady: async () => void ensured++,
      deliver: async (ports: EvaluatorPorts, replace) => {
        if (opts.reachable && !opts.reachable()) throw new Error('the offscreen document is not among the clients');
        const handoff: EvaluatorPortHandoff = { type: 'forager/evaluator-port', replace };
        handoffs.push(handoff);
        expect(host.accept(handoff, [ports.evaluator, ports.control])).toBe(true);
      },
      timeoutMs: opts.timeoutMs ?? 10_000,
      connectTimeoutMs: opts.connectTimeoutMs,
    });
    return { evaluator, handoffs, ensured: () => ensured };
  }

  it("evaluates over the port, connecting once for many calls, and never detaches the caller's bytes", async () => {
    const { workers, spawn } = fakeWorkers();
    const host = createEvaluatorHost({ spawn });
    const { evaluator, handoffs, ensured } = relay(host);
    try {
      const inputs = Array.from({ length: 20 }, (_, i) => ({ ...input(`Coffee ${i}`), url: `https://a.example.com/${i}` }));
      const out = await Promise.all(inputs.map((x) => evaluator.evaluate(x)));
      expect(out.map((o) => o.title)).toEqual(inputs.map((_, i) => `Coffee ${i}`));
      expect(out[0]).toEqual(await localEvaluator.evaluate(inputs[0])); // the same answer as in-process
      expect(inputs.every((x) => x.body.byteLength > 0)).toBe(true); // a copy was transferred, not the original
      expect(ensured()).toBe(1); // the offscreen document is looked up per connection, not per page
      expect(handoffs).toEqual([{ type: 'forager/evaluator-port', replace: false }]);
      expect(workers).toHaveLength(1);
      expect(workers[0].urls).toHaveLength(20);
    } finally {
      evaluator.dispose();
    }
  });

  it('a restarted service worker gets the running Worker back on a new port', async () => {
    const { workers, spawn } = fakeWorkers();
    const host = createEvaluatorHost({ spawn });
    const first = relay(host);
    const second = relay(host);
    try {
      await first.evaluator.evaluate(input('One'));
      await expect(second.evaluator.evaluate(input('Two'))).resolves.toMatchObject({ title: 'Two' });
      expect(host.spawned).toBe(1);
      expect(workers[0].terminated).toBe(false);
      expect(second.handoffs).toEqual([{ type: 'forager/evaluator-port', replace: false }]);
    } finally {
      first.evaluator.dispose();
      second.evaluator.dispose();
    }
  });

  it('replaces a Worker stuck past the deadline: the culprit fails, the others are retried on the new Worker', async () => {
    // The first Worker hangs on everything; later ones answer.
    const { workers, spawn } = fakeWorkers((_url, n) => (n === 0 ? 'hang' : 'ok'));
    const host = createEvaluatorHost({ spawn });
    const { evaluator, handoffs } = relay(host, { timeoutMs: 300 });
    try {
      const settle = (title: string) =>
        evaluator.evaluate({ ...input(title), url: `https://a.example.com/${title}` }).then(
          (v) => v.title,
          (e: Error) => e.message,
        );
      const results = await Promise.all([settle('A'), settle('B')]);
      expect(results.filter((r) => /timed out after 300 ms/.test(r))).toHaveLength(1);
      expect(results.filter((r) => r === 'A' || r === 'B')).toHaveLength(1);
      expect(workers[0].terminated).toBe(true);
      expect(handoffs.map((h) => h.replace)).toEqual([false, true]);
      await expect(evaluator.evaluate(input('Next'))).resolves.toMatchObject({ title: 'Next' });
      expect(host.spawned).toBe(2);
    } finally {
      evaluator.dispose();
    }
  });

  it('hears of a crashed Worker from the host at once and retries on a new one', async () => {
    let hang = true;
    const { workers, spawn } = fakeWorkers(() => (hang ? 'hang' : 'ok'));
    const host = createEvaluatorHost({ spawn });
    const { evaluator } = relay(host, { timeoutMs: 60_000 }); // far beyond the test: only the notice can settle it
    try {
      const p = evaluator.evaluate(input('Survivor'));
      while (workers.length === 0 || workers[0].urls.length === 0) await new Promise((r) => setTimeout(r, 5));
      hang = false;
      workers[0].crash('out of memory');
      await expect(p).resolves.toMatchObject({ title: 'Survivor' });
      expect(workers[0].terminated).toBe(true);
      expect(host.spawned).toBe(2);
    } finally {
      evaluator.dispose();
    }
  });

  it('an unreachable or silent host becomes an evaluation error, and a later call connects again', async () => {
    const { spawn } = fakeWorkers();
    const host = createEvaluatorHost({ spawn });
    let reachable = false;
    const { evaluator, handoffs } = relay(host, { reachable: () => reachable });
    try {
      await expect(evaluator.evaluate(input())).rejects.toThrow(/not reachable.*not among the clients/);
      reachable = true;
      await expect(evaluator.evaluate(input('Back'))).resolves.toMatchObject({ title: 'Back' });
      expect(handoffs.at(-1)?.replace).toBe(true);
    } finally {
      evaluator.dispose();
    }
    // A host that takes the ports but never serves them: the ping deadline gives up on it.
    const silent = createPortEvaluator({
      ensureReady: async () => undefined,
      deliver: async () => undefined,
      connectTimeoutMs: 200,
    });
    await expect(silent.evaluate(input())).rejects.toThrow(/connecting to the evaluator timed out after 200 ms/);
    silent.dispose();
  });

  it('the host ignores foreign messages and reports a Worker that cannot start on the control port', async () => {
    const host = createEvaluatorHost({
      spawn: () => {
        throw new Error('Worker is not defined');
      },
    });
    const { port1, port2 } = new MessageChannel();
    const control = new MessageChannel();
    try {
      expect(host.accept({ type: 'forager/start' }, [port1, control.port2])).toBe(false);
      expect(host.accept({ type: 'forager/evaluator-port', replace: false }, [port1])).toBe(false); // ports missing
      const notice = new Promise<unknown>((resolve) =>
        control.port1.addEventListener('message', (e) => resolve((e as MessageEvent).data), { once: true }),
      );
      control.port1.start();
      expect(host.accept({ type: 'forager/evaluator-port', replace: false }, [port1, control.port2])).toBe(true);
      const got = await notice;
      expect(isEvaluatorCrashNotice(got)).toBe(true);
      expect((got as { reason: string }).reason).toMatch(/could not start: Worker is not defined/);
    } finally {
      port2.close();
      control.port1.close();
    }
    // The guards keep the protocols apart.
    const handoff = { type: 'forager/evaluator-port', replace: true };
    expect(isEvaluatorPortHandoff(handoff)).toBe(true);
    expect(isForagerRequest(handoff)).toBe(false);
    expect(isEvaluatorPortHandoff({ type: 'forager/evaluator-port' })).toBe(false);
    expect(isWorkerPortHandoff(handoff)).toBe(false);
    expect(isEvaluatorCrashNotice({ type: 'forager/evaluator-crashed' })).toBe(false);
  });
});

describe('live hub', () => {
  const rec = (id: string, n: number): CrawlRecord =>
    ({ id, status: 'running', stats: { pagesEvaluated: n } }) as unknown as CrawlRecord;

  it('batches a burst of updates into one message per interval, pages and latest record merged', async () => {
    vi.useFakeTimers();
    const hub = new LiveHub(250);
    const got: LiveServerMessage[] = [];
    hub.subscribe({ post: (m) => got.push(m) }).ready();
    for (let i = 0; i < 500; i++) hub.update('c1', rec('c1', i + 1), [page(`https://x.example.com/${i}`, i / 500)]);
    expect(got).toHaveLength(0); // nothing synchronously
    await vi.advanceTimersByTimeAsync(0);
    expect(got).toHaveLength(1); // one message for the burst
    const m = got[0];
    expect(m.type === 'update' && m.pages.length).toBe(500);
    expect(m.type === 'update' && m.record.stats.pagesEvaluated).toBe(500);
    for (let i = 0; i < 100; i++) hub.update('c1', rec('c1', 501 + i), [page(`https://y.example.com/${i}`, 0.1)]);
    await vi.advanceTimersByTimeAsync(249);
    expect(got).toHaveLength(1); // still inside the interval
    await vi.advanceTimersByTimeAsync(1);
    expect(got).toHaveLength(2);
    expect(got[1].type === 'update' && got[1].pages.length).toBe(100);
    hub.dispose();
  });

  it('never merges a change of status away: a crawl that starts and ends within one interval is seen running, then done', async () => {
    vi.useFakeTimers();
    const hub = new LiveHub(250);
    const got: LiveServerMessage[] = [];
    hub.subscribe({ post: (m) => got.push(m) }).ready();
    hub.crawlsChanged(); // the start: the interval begins now
    hub.update('c1', rec('c1', 0), []);
    hub.update('c1', rec('c1', 1), [page('https://x.example.com/1', 0.5)]);
    hub.update('c1', { ...rec('c1', 2), status: 'done' }, [page('https://x.example.com/2', 0.4)]);
    await vi.advanceTimersByTimeAsync(250);
    const updates = got.filter((m) => m.type === 'update');
    expect(updates.map((m) => m.type === 'update' && [m.record.status, m.pages.length])).toEqual([
      ['running', 1],
      ['done', 1],
    ]);
    hub.dispose();
  });

  it('holds deltas until the snapshot is out, filters by crawl, and drops a dead port', async () => {
    vi.useFakeTimers();
    const hub = new LiveHub(10);
    const a: LiveServerMessage[] = [];
    const subA = hub.subscribe({ post: (m) => a.push(m) }, 'c1');
    hub.update('c1', rec('c1', 1), [page('https://x.example.com/1', 0.5)]);
    hub.update('c2', rec('c2', 1), []);
    await vi.advanceTimersByTimeAsync(10);
    expect(a).toHaveLength(0);
    subA.ready({ type: 'snapshot', snapshot: null });
    expect(a.map((m) => m.type)).toEqual(['snapshot', 'update']);
    expect(a[1].type === 'update' && a[1].id).toBe('c1');
    hub
      .subscribe({
        post: () => {
          throw new Error('Attempting to use a disconnected port object');
        },
      })
      .ready();
    expect(hub.size).toBe(2);
    hub.crawlsChanged();
    expect(hub.size).toBe(1);
    expect(a[a.length - 1].type).toBe('crawls-changed');
    hub.dispose();
  });

  it('merges results by URL, best first, capped', () => {
    const cur = [page('https://a.example.com/', 0.9), page('https://b.example.com/', 0.5)];
    const out = mergeResults(cur, [page('https://c.example.com/', 0.7), page('https://b.example.com/', 0.6)], 2);
    expect(out.map((p) => p.url)).toEqual(['https://a.example.com/', 'https://c.example.com/']);
    expect(mergeResults(cur, []).length).toBe(2);
  });
});

describe('settings and start requests', () => {
  const strategies = describeStrategies(listStrategies());

  it('validates, clamps and defaults a start request', () => {
    const v = validateStart(
      {
        topic: '  coffee \n brewing ',
        seeds: [
          'https://a.example.com/x#frag',
          'https://a.example.com/x',
          'ftp://a.example.com/',
          'https://user:pw@a.example.com/',
          42,
        ],
        source: { kind: 'serp', engine: 'google', query: 'coffee brewing' },
        settings: {
          strategy: 'best-n-first',
          params: { n: 1e9, bogus: 3 },
          maxPages: -5,
          maxBuffer: 'lots',
          politenessDelayMs: 1e12,
        },
      },
      strategies,
      1234,
    );
    expect(v.ok).toBe(true);
    if (!v.ok) return;
    expect(v.value.topic).toEqual({ keywords: 'coffee brewing' });
    expect(v.value.seeds).toEqual(['https://a.example.com/x']);
    expect(v.value.settings.params).toEqual({ n: 100_000 });
    expect(v.value.settings.maxPages).toBe(1);
    expect(v.value.settings.maxBuffer).toBe(256);
    expect(v.value.settings.politenessDelayMs).toBe(60_000);
    expect(v.value.settings.seed).toBe(1234);
    expect(v.value.name).toBe('coffee brewing');
  });

  it('refuses an unknown strategy, an empty topic and no seeds, with sentences', () => {
    const base = { topic: 'x', seeds: ['https://a.example.com/'], source: { kind: 'manual' as const } };
    expect(validateStart({ ...base, settings: { strategy: 'rm -rf' } }, strategies)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/Unknown crawl strategy/),
    });
    expect(validateStart({ ...base, topic: ' ' }, strategies)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/Enter a topic/),
    });
    expect(validateStart({ ...base, seeds: [] }, strategies)).toMatchObject({ ok: false });
    expect(validateStart(null)).toMatchObject({ ok: false });
  });

  it('allows private hosts only when a seed is on one and the user ticked it, and then only that host and port', () => {
    expect(crawlPolicy(['https://a.example.com/'], { stayOnSeedSites: false })).toEqual({ allowPrivate: false });
    const seeds = ['http://127.0.0.1:8080/', 'https://b.example.com/'];
    // Not ticked: the private seed host is not allowed (a results page can list any address).
    expect(crawlPolicy(seeds, { stayOnSeedSites: false })).toEqual({ allowPrivate: false });
    const policy = crawlPolicy(seeds, { stayOnSeedSites: true, privateHosts: ['127.0.0.1:8080'] });
    expect(policy).toEqual({
      allowPrivate: false,
      privateHosts: ['127.0.0.1:8080'],
      allowedHosts: ['127.0.0.1', 'b.example.com'],
    });
    // A ticked host that is not a seed's is ignored.
    expect(crawlPolicy(seeds, { stayOnSeedSites: false, privateHosts: ['10.0.0.1'] })).toEqual({ allowPrivate: false });
    const open = crawlPolicy(['http://127.0.0.1:8080/'], { stayOnSeedSites: false, privateHosts: ['127.0.0.1:8080'] });
    expect(checkUrl('http://10.0.0.1/admin', open)).toMatchObject({ ok: false, detail: expect.stringMatching(/private/) });
    expect(checkUrl('http://169.254.169.254/latest/meta-data', open)).toMatchObject({ ok: false });
    expect(checkUrl('http://localhost:9999/page', open)).toMatchObject({ ok: false });
    expect(checkUrl('http://127.0.0.1:9999/page', open)).toMatchObject({ ok: false }); // another port
    expect(checkUrl('http://127.0.0.1:8080/page', open)).toEqual({ ok: true });
    expect(checkUrl('https://public.example.com/', open)).toEqual({ ok: true });
  });
});

describe('start drafts', () => {
  it('context menu on a page: page seed, topic from title and headings', () => {
    const d = draftFromMenu(
      { pageUrl: 'https://a.example.com/coffee' },
      { title: 'Tab title' },
      { title: 'Espresso at home', headings: ['Espresso at home', 'Grinders', '  '] },
    );
    expect(d).toEqual({
      topic: 'Espresso at home Grinders',
      seeds: ['https://a.example.com/coffee'],
      source: { kind: 'page', pageUrl: 'https://a.example.com/coffee' },
      context: [],
    });
  });

  it('gives the topic its context: the link’s paragraph, or the page’s first paragraph; never a generic heading', () => {
    const onLink = draftFromMenu(
      { pageUrl: 'https://a.example.com/', linkUrl: 'https://b.example.com/beans', linkText: 'Green beans' },
      undefined,
      { title: 'Coffee', linkContext: 'Roasters sell green beans by the kilo for home roasting.', lang: 'en-GB' },
    );
    expect(onLink).toMatchObject({
      topic: 'Green beans',
      context: ['Roasters sell green beans by the kilo for home roasting.'],
      pageLang: 'en-GB',
    });
    // A generic link text is no topic: the page's title and headings are, "See also" and "Contents" left out.
    const generic = draftFromMenu(
      { pageUrl: 'https://a.example.com/', linkUrl: 'https://b.example.com/x', linkText: 'Read more »' },
      undefined,
      { title: 'Espresso at home', headings: ['Contents', 'See also:', 'Grinders'], linkContext: 'Grinders for espresso.' },
    );
    expect(generic.topic).toBe('Espresso at home Grinders');
    expect(generic.context).toEqual(['Grinders for espresso.']);
    const onPage = draftFromMenu(
      { pageUrl: 'https://a.example.com/' },
      { title: 'Tab' },
      {
        title: 'Espresso | Example Coffee',
        headings: ['Espresso'],
        intro: 'Espresso is coffee brewed by forcing hot water through fine grounds.',
      },
    );
    expect(onPage.context).toEqual(['Espresso is coffee brewed by forcing hot water through fine grounds.']);
    expect(isGenericText('  See also: ')).toBe(true);
    expect(isGenericText('Grinders')).toBe(false);
  });

  it('validates a start request into a topic with its context and language', () => {
    const req = {
      topic: 'Katzen Futter',
      seeds: ['https://a.example.com/'],
      source: { kind: 'serp' },
      pageLang: 'en-US',
      context: [
        'Katzenfutter im Test',
        'Welches Futter braucht eine Katze? Junge Katzen brauchen mehr Energie als ältere Tiere, und frisches Wasser gehört immer dazu.',
        42,
        '   ',
      ],
    };
    const v = validateStart(req);
    expect(v.ok).toBe(true);
    if (!v.ok) return;
    expect(v.value.topic.keywords).toBe('Katzen Futter');
    expect(v.value.topic.context).toEqual([req.context[0], req.context[1]]);
    // The language is detected where the language data is (the evaluator: analyseTopic), from the request's hints.
    expect(v.value.topic.language).toBeUndefined();
    expect(v.value.hints).toEqual({ pageLang: 'en-US' });
    const detected = (r: unknown) => {
      const valid = validateStart(r);
      if (!valid.ok) throw new Error(valid.error);
      return withoutAnalysis(analyseTopic(valid.value.topic, valid.value.hints));
    };
    expect(detected(req).language).toBe('de'); // the snippets say German; the interface's lang says English
    expect(v.value.topic.allLanguages).toBeUndefined();
    // No context, a two-word query: the page's lang decides; an explicit language wins.
    expect(detected({ ...req, context: undefined, pageLang: 'fr-FR', allLanguages: true })).toEqual({
      keywords: 'Katzen Futter',
      language: 'fr',
      allLanguages: true,
    });
    const chosen = validateStart({ ...req, language: 'it' });
    expect(chosen.ok && chosen.value.topic.language).toBe('it');
    expect(detected({ ...req, language: 'it' }).language).toBe('it');
    // Nothing says: no language (no filter).
    expect(detected({ ...req, context: undefined, pageLang: undefined })).toEqual({ keywords: 'Katzen Futter' });
    const many = validateStart({ ...req, context: Array.from({ length: 100 }, (_, i) => `piece ${i} ${'x'.repeat(900)}`) });
    expect(many.ok && many.value.topic.context?.length).toBe(40);
    expect(many.ok && many.value.topic.context?.[0].length).toBe(600);
  });

  it('on a link: the link is the seed; on a selection: the selection is the topic', () => {
    const link = draftFromMenu(
      { pageUrl: 'https://a.example.com/', linkUrl: 'https://b.example.com/beans', linkText: 'Green beans' },
      undefined,
    );
    expect(link.seeds).toEqual(['https://b.example.com/beans']);
    expect(link.topic).toBe('Green beans');
    expect(link.source.kind).toBe('link');
    const sel = draftFromMenu({ pageUrl: 'https://a.example.com/', selectionText: '  pour   over ' }, { title: 'T' });
    expect(sel).toMatchObject({ topic: 'pour over', seeds: ['https://a.example.com/'], source: { kind: 'selection' } });
    expect(draftFromMenu({ pageUrl: 'chrome://settings' }, { title: 'Settings' }).seeds).toEqual([]);
  });

  it('round-trips through the start view hash and drops what is not a web URL', () => {
    const d = {
      topic: 'coffee & tea',
      seeds: ['https://a.example.com/?q=1&r=2', 'https://b.example.com/'],
      source: { kind: 'link' as const, pageUrl: 'https://a.example.com/' },
      context: ['Where the link stands: a paragraph about coffee & tea', 'a second piece'],
      pageLang: 'de-DE',
    };
    expect(parseStartHash(startHash(d))).toEqual(d);
    const hostile = parseStartHash('#/new?topic=x&seed=javascript:alert(1)&seed=https://ok.example.com/&kind=evil');
    expect(hostile).toEqual({ topic: 'x', seeds: ['https://ok.example.com/'], source: { kind: 'manual' }, context: [] });
  });

  it('carries the engine name, why nothing was read and the visible links; says what the popup read', () => {
    const blocked = toSerpInfo({
      engine: 'google',
      engineName: ' Google ',
      query: 'coffee',
      linkCount: 5,
      results: [],
      blocked: 'consent',
      visibleLinks: [
        { url: 'https://policies.example.org/privacy', text: ' Privacy  policy ' },
        { url: 'https://policies.example.org/privacy', text: 'again' },
        { url: 'javascript:alert(1)', text: 'x' },
        { url: 'https://a.example.com/', text: 'Read more' },
        'junk',
      ],
    })!;
    expect(blocked.engineName).toBe('Google');
    expect(blocked.blocked).toBe('consent');
    expect(blocked.visibleLinks).toEqual([
      { url: 'https://policies.example.org/privacy', text: 'Privacy policy' },
      { url: 'https://a.example.com/', text: 'Read more' },
    ]);
    expect(tabReading(blocked)).toEqual({ kind: 'nothing-read', engineName: 'Google', why: 'consent', links: 2 });
    expect(draftFromVisibleLinks(blocked, 'https://www.google.com/search?q=coffee', 'Before you continue')).toEqual({
      topic: 'coffee',
      seeds: ['https://policies.example.org/privacy', 'https://a.example.com/'],
      source: { kind: 'page', pageUrl: 'https://www.google.com/search?q=coffee', engine: 'google', query: 'coffee' },
      context: ['Privacy policy'],
    });
    // An unknown reason, or one given beside results, is dropped.
    expect(toSerpInfo({ results: [], blocked: 'pwned' })!.blocked).toBeUndefined();
    const read = toSerpInfo({
      engineName: 'Bing',
      engine: 'bing',
      results: [{ url: 'https://a.example/' }],
      blocked: 'challenge',
    })!;
    expect(read.blocked).toBeUndefined();
    expect(tabReading(read)).toEqual({ kind: 'results', engineName: 'Bing', count: 1 });
    // An ordinary page nothing could be read on is a page, not a failed search; a bot check anywhere is said.
    expect(tabReading(toSerpInfo({ engine: null, results: [], blocked: 'unreadable' }))).toEqual({ kind: 'page' });
    expect(tabReading(null)).toEqual({ kind: 'page' });
    const check = toSerpInfo({ engine: null, results: [], blocked: 'challenge', visibleLinks: [] })!;
    expect(tabReading(check)).toEqual({ kind: 'nothing-read', engineName: null, why: 'challenge', links: 0 });
    expect(draftFromVisibleLinks(check, 'https://x.example/', 'Check')).toBeNull();
  });

  it("checks the content script's answer and builds the popup draft from it", () => {
    expect(toSerpInfo(null)).toBeNull();
    expect(toSerpInfo({ error: 'boom' })).toBeNull();
    const s = toSerpInfo({
      engine: 'google',
      query: ' coffee  brewing ',
      linkCount: 143,
      results: [
        { url: 'https://a.example.com/', title: 'A', snippet: 's', rank: 1 },
        { url: 'javascript:alert(1)', title: 'x' },
        'junk',
      ],
    });
    expect(s).toEqual({
      engine: 'google',
      engineName: null,
      query: 'coffee brewing',
      linkCount: 143,
      results: [{ url: 'https://a.example.com/', title: 'A', snippet: 's', rank: 1 }],
    });
    expect(draftFromSerp(s!, 'https://www.google.com/search?q=coffee')).toEqual({
      topic: 'coffee brewing',
      seeds: ['https://a.example.com/'],
      source: { kind: 'serp', query: 'coffee brewing', engine: 'google', pageUrl: 'https://www.google.com/search?q=coffee' },
      context: ['A', 's'],
    });
    expect(topicFromPage({ title: 'x'.repeat(500) }).length).toBeLessThanOrEqual(200);
  });
});

describe('highlighting', () => {
  it('marks words that stem to a topic term and gives the text back unchanged', () => {
    const terms = highlightTerms('coffee brew');
    const text = "Brewing COFFEE: the brewer's guide to coffees, and tea.";
    const segs = highlightSegments(text, terms);
    expect(segs.map((s) => s.text).join('')).toBe(text);
    expect(segs.filter((s) => s.mark).map((s) => s.text)).toEqual(['Brewing', 'COFFEE', 'coffees']);
  });

  it('leaves markup in page text as plain text', () => {
    const text = '<script>alert("coffee")</script>';
    const segs = highlightSegments(text, highlightTerms('coffee'));
    expect(segs.map((s) => s.text).join('')).toBe(text);
    expect(segs.find((s) => s.mark)?.text).toBe('coffee');
  });
});
