/**
 * A real lab run through the engine: a tiny generated web of two sites served over HTTP, the lab's command line
 * started as a child process (so the worker threads and the tsx bootstrap are exercised too), and its JSON and
 * HTML outputs checked.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LabResults } from '../../lab/report';

const ROOT = resolve(__dirname, '..', '..');
let dir: string;

const page = (title: string, body: string, links: [string, string][]) =>
  `<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1><p>${body}</p>\n` +
  links.map(([href, text]) => `<a href="${href}">${text}</a>`).join('\n') +
  '</body></html>';

const OFF = [
  'gardening roses',
  'baking bread',
  'football league',
  'opera singers',
  'chess openings',
  'sailing knots',
  'coffee roasting',
  'mountain hiking',
  'jazz records',
  'knitting patterns',
  'bird watching',
  'pottery glazes',
];

function buildWeb(root: string): void {
  mkdirSync(join(root, 'energy'), { recursive: true });
  mkdirSync(join(root, 'misc'), { recursive: true });
  // The front page lists twelve unrelated pages before the one way into the solar pages.
  writeFileSync(
    join(root, 'energy', 'index.html'),
    page('Home', 'Welcome to the portal of many hobbies.', [
      ...OFF.map((o, i) => [`/o${i}.html`, o] as [string, string]),
      ['/solar.html', 'solar panel guide'],
    ]),
  );
  OFF.forEach((o, i) => {
    // Each unrelated page leads to three more unrelated pages on the other site.
    const kids: [string, string][] = [0, 1, 2].map((j) => [`MISC/m${i}-${j}.html`, `${o} part ${j}`]);
    writeFileSync(join(root, 'energy', `o${i}.html`), page(o, `All about ${o}. ${o} ${o}.`, kids));
    for (const j of [0, 1, 2])
      writeFileSync(join(root, 'misc', `m${i}-${j}.html`), page(`${o} ${j}`, `More on ${o}.`, [['/index.html', 'misc home']]));
  });
  writeFileSync(join(root, 'misc', 'index.html'), page('Misc', 'Miscellany.', []));
  const solar: [string, string][] = [2, 3, 4, 5, 6].map((k) => [`/solar-${k}.html`, `solar panels chapter ${k}`]);
  writeFileSync(
    join(root, 'energy', 'solar.html'),
    page('Solar panels', 'Solar panels convert sunlight into electricity; solar cells, inverters and panel efficiency.', solar),
  );
  for (const k of [2, 3, 4, 5, 6]) {
    writeFileSync(
      join(root, 'energy', `solar-${k}.html`),
      page(
        `Solar panels ${k}`,
        `Solar panel installation ${k}: photovoltaic solar cells, sunlight, inverters, solar panel efficiency and batteries.`,
        [...solar, ['/o0.html', OFF[0]]],
      ),
    );
  }
  writeFileSync(
    join(root, 'sites.json'),
    JSON.stringify({
      format: 'docweb-sites/1',
      sites: [{ name: 'misc', homes: ['https://misc.example'], hubs: ['index.html'] }],
    }),
  );
  writeFileSync(
    join(root, 'topics.json'),
    JSON.stringify({
      format: 'docweb-topics/1',
      topics: [
        {
          id: 'solar',
          keywords: 'solar panels',
          description:
            'Solar panels and photovoltaic cells convert sunlight into electricity; installation, inverters, batteries and efficiency.',
          targets: [
            'energy/solar.html',
            'energy/solar-2.html',
            'energy/solar-3.html',
            'energy/solar-4.html',
            'energy/solar-5.html',
            'energy/solar-6.html',
          ],
          examples: ['energy/solar.html', 'energy/solar-2.html'],
          neighbors: ['energy/index.html'],
        },
        {
          id: 'knots',
          keywords: 'sailing knots',
          description: 'Sailing knots: how to tie knots used when sailing.',
          targets: ['energy/o5.html', 'misc/m5-0.html', 'misc/m5-1.html', 'misc/m5-2.html'],
          examples: ['energy/o5.html'],
          neighbors: ['energy/solar-3.html'],
        },
      ],
    }),
  );
}

function runLab(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'lab', 'cli.ts'), ...args],
      { cwd: ROOT, maxBuffer: 32 << 20 },
      (err, stdout, stderr) => done({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lab-int-'));
  mkdirSync(join(dir, 'web'));
  buildWeb(join(dir, 'web'));
  // Links from the energy site to the misc site are written as absolute links to misc's "real home".
  for (const f of ['o0', 'o1', 'o2', 'o3', 'o4', 'o5', 'o6', 'o7', 'o8', 'o9', 'o10', 'o11']) {
    const p = join(dir, 'web', 'energy', `${f}.html`);
    writeFileSync(p, readFileSync(p, 'utf8').replace(/MISC\//g, 'https://misc.example/'));
  }
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('lab run on a generated web', () => {
  it('crawls through the engine and reports every metric', async () => {
    const json = join(dir, 'out.json');
    const html = join(dir, 'out.html');
    const r = await runLab([
      'run',
      '--sites',
      join(dir, 'web'),
      '--topics',
      join(dir, 'web', 'topics.json'),
      '--strategies',
      'bfs1,breadth-first',
      '--budgets',
      '10,20',
      '--seeds',
      '2',
      '--tasks',
      '1,2',
      '--ks',
      '3,5',
      '--step',
      '5',
      '--max-buffer',
      '64',
      // One fetch at a time: at budgets of 10-20 pages the strategies' order shows only without fetches in flight
      // being chosen before the pages before them were read.
      '--fetch-concurrency',
      '1',
      '--workers',
      '1',
      '--parallel',
      '2',
      '--corpus-cache',
      'none',
      '--json',
      json,
      '--report',
      html,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Task 2 (seeds: neighbors)');
    const res = JSON.parse(readFileSync(json, 'utf8')) as LabResults;
    expect(res.meta.crawls).toBe(2 * 2 * 2 * 2);
    expect(res.meta.corpus.pages).toBe(1 + 12 + 6 + 36 + 1);
    expect(res.meta.corpus.hubs).toBe(1);
    const metrics = new Set(res.results.map((x) => x.metric));
    expect([...metrics].sort()).toEqual([
      'harvest',
      'lexical@3',
      'lexical@5',
      'linkage@3',
      'linkage@5',
      'recall',
      'recall-area',
      'recall-reachable',
    ]);
    // From the solar pages no link leads to the knots pages (knots, Task 2): none of its targets is reachable, and
    // recall of the reachable targets leaves that topic out; everywhere else it is recall.
    expect(res.statics.map((s) => [s.topic, s.task, s.reachableShare])).toEqual([
      ['solar', 1, 1],
      ['solar', 2, 1],
      ['knots', 1, 1],
      ['knots', 2, 0],
    ]);
    for (const x of res.results.filter((r) => r.metric === 'recall')) {
      const reachable = res.results.find(
        (r) => r.task === x.task && r.strategy === x.strategy && r.metric === 'recall-reachable',
      )!;
      for (const [budget, cell] of Object.entries(x.budgets)) {
        expect(reachable.budgets[budget].perTopic.solar).toBe(cell.perTopic.solar);
        if (x.task === 1) expect(reachable.budgets[budget].perTopic.knots).toBe(cell.perTopic.knots);
        else expect(reachable.budgets[budget].perTopic.knots).toBeNull(); // NaN: JSON writes null
      }
    }
    expect(r.stdout).toContain('targets reachable by links from the seeds: 1.000±0.000 (every target on 2 of 2 topics)');
    expect(r.stdout).toContain('targets reachable by links from the seeds: 0.500±0.500 (every target on 1 of 2 topics)');
    // The crawl that knows the targets finds every reachable one within a few pages here; none is reachable on knots, Task 2.
    expect(res.statics.map((s) => [s.topic, s.task, s.knownTargetsRecall, s.knownTargetsPages])).toEqual([
      ['solar', 1, [1, 1], 6],
      ['solar', 2, [1, 1], 7],
      ['knots', 1, [1, 1], 4],
      ['knots', 2, [null, null], undefined],
    ]);
    expect(r.stdout).toContain(
      'recall-reachable of a crawl that knows the targets (nearest first): 1.000±0.000 @10, 1.000±0.000 @20; all of them within 4 pages (median over topics; 90% of topics within 6)',
    );
    // The crawl that knows each page's similarity reaches the reachable targets too (its order: metrics.test.ts).
    expect(res.statics.map((s) => [s.topic, s.task, s.knownSimilarityRecall])).toEqual([
      ['solar', 1, [1, 1]],
      ['solar', 2, [1, 1]],
      ['knots', 1, [1, 1]],
      ['knots', 2, [null, null]],
    ]);
    expect(r.stdout).toContain(
      "recall-reachable of a crawl that knows each page's similarity to the topic (most similar first): 1.000±0.000 @10, 1.000±0.000 @20",
    );
    // Every path to a target here runs through pages with the topic's words.
    expect(res.statics.map((s) => [s.topic, s.task, s.wordlessShare])).toEqual([
      ['solar', 1, 0],
      ['solar', 2, 0],
      ['knots', 1, 0],
      ['knots', 2, null],
    ]);
    expect(r.stdout).toContain(
      "reachable targets behind a page with none of the topic's words on every path from the seeds: 0.000±0.000 (mean over topics; some on 0 of 2)",
    );
    expect(r.stdout).toContain(
      'recall-reachable of a crawl that knows the targets (nearest first): 1.000 @10, 1.000 @20; all of them within 7 pages (median over topics; 90% of topics within 7)',
    );
    const cell = (task: number, strategy: string, metric: string, budget: number) =>
      res.results.find((x) => x.task === task && x.strategy === strategy && x.metric === metric)!.budgets[String(budget)];
    for (const x of res.results) {
      for (const c of Object.values(x.budgets)) {
        expect(c.mean).toBeGreaterThanOrEqual(0);
        expect(c.mean).toBeLessThanOrEqual(1);
        expect(Object.keys(c.perTopic).sort()).toEqual(['knots', 'solar']);
      }
      expect(x.dynamic.pages).toEqual([5, 10, 15, 20]);
    }
    // Solar, Task 2: from the front page, breadth-first reads the twelve unrelated pages first, best-first goes to
    // the solar pages as soon as it has read the first one.
    const bfsSolar = cell(2, 'bfs1', 'recall', 20).perTopic.solar;
    const breadthSolar = cell(2, 'breadth-first', 'recall', 20).perTopic.solar;
    expect(bfsSolar).toBeGreaterThan(breadthSolar);
    expect(bfsSolar).toBe(1);
    // The recall curve's area at a budget is the mean of the recall points up to it (step 5: 5, 10, 15, 20).
    const dyn = res.results.find((x) => x.task === 2 && x.strategy === 'breadth-first' && x.metric === 'recall')!.dynamic.perTopic
      .solar;
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(cell(2, 'breadth-first', 'recall-area', 20).perTopic.solar).toBeCloseTo(mean(dyn), 10);
    expect(cell(2, 'breadth-first', 'recall-area', 10).perTopic.solar).toBeCloseTo(mean(dyn.slice(0, 2)), 10);
    expect(cell(2, 'bfs1', 'recall-area', 20).perTopic.solar).toBeGreaterThan(
      cell(2, 'breadth-first', 'recall-area', 20).perTopic.solar,
    );
    // Task 1 seeds are targets: recall counts only the four others.
    expect(cell(1, 'bfs1', 'recall', 10).perTopic.solar).toBe(1);
    // the knots targets on the misc site are only reachable through rewritten absolute links
    expect(cell(1, 'breadth-first', 'recall', 20).perTopic.knots).toBe(1);
    expect(res.comparisons.some((c) => c.a === 'breadth-first' && c.b === 'bfs1' && c.metric === 'recall' && c.task === 2)).toBe(
      true,
    );
    const report = readFileSync(html, 'utf8');
    expect(report).toContain('<svg');
    expect(report).toContain('Target recall');
    expect(report).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org)/);
  }, 120_000);

  it('--first-seed: runs of seeds 1 and 2, merged by report --from, give the numbers of one run over seeds 1..2', async () => {
    const common = (seeds: string[], json: string) => [
      'run',
      '--sites',
      join(dir, 'web'),
      '--topics',
      join(dir, 'web', 'topics.json'),
      '--strategies',
      'bfs16',
      '--budgets',
      '10,20',
      ...seeds,
      '--tasks',
      '2',
      '--ks',
      '3',
      '--step',
      '5',
      '--fetch-concurrency',
      '1',
      '--workers',
      '1',
      '--corpus-cache',
      'none',
      '--json',
      json,
    ];
    const [both, first, second] = ['both.json', 'first.json', 'second.json'].map((f) => join(dir, f));
    for (const [seeds, json] of [
      [['--seeds', '2'], both],
      [['--seeds', '1'], first],
      [['--seeds', '1', '--first-seed', '2'], second],
    ] as const) {
      const r = await runLab(common([...seeds], json));
      expect(r.code, r.stderr).toBe(0);
    }
    const read = (f: string) => JSON.parse(readFileSync(f, 'utf8')) as LabResults;
    expect(read(second).crawls.map((c) => c.seed)).toEqual([2, 2]);
    // The two seeds crawl differently somewhere, so the merged numbers below test the weighting, not a copy.
    const dynamics = (f: string) => JSON.stringify(read(f).results.map((x) => x.dynamic.perTopic));
    expect(dynamics(first)).not.toBe(dynamics(second));
    const merged = join(dir, 'merged.json');
    const r = await runLab(['report', '--from', first, '--from', second, '--json', merged]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('merged from 2 runs');
    const want = read(both);
    const got = read(merged);
    expect(got.meta.seeds).toEqual([1, 2]);
    for (const x of want.results) {
      const y = got.results.find((g) => g.task === x.task && g.strategy === x.strategy && g.metric === x.metric)!;
      for (const [budget, cell] of Object.entries(x.budgets))
        for (const [topic, v] of Object.entries(cell.perTopic))
          if (v === null) expect(y.budgets[budget].perTopic[topic]).toBeNull();
          else expect(y.budgets[budget].perTopic[topic]).toBeCloseTo(v, 12);
    }
    // Four lab processes one after another (16 s on a quiet machine): as long as its sibling may take on a busy one.
  }, 120_000);

  it('fails clearly on a bad topics file', async () => {
    writeFileSync(
      join(dir, 'bad.json'),
      JSON.stringify({
        format: 'docweb-topics/1',
        topics: [
          {
            id: 'x',
            keywords: 'k',
            description: 'd',
            targets: ['energy/nope.html', 'energy/solar.html'],
            examples: ['energy/solar.html'],
            neighbors: ['energy/index.html'],
          },
        ],
      }),
    );
    const r = await runLab([
      'run',
      '--sites',
      join(dir, 'web'),
      '--topics',
      join(dir, 'bad.json'),
      '--corpus-cache',
      'none',
      '--workers',
      '0',
    ]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('energy/nope.html, which is not a page of the corpus');
  }, 60_000);
});
