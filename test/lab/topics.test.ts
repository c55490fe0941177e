import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTopics, seedsOf, validateTopics } from '../../lab/topics';
import { parseStrategies } from '../../lab/run';
import { parseArgs } from '../../lab/cli';

const good = {
  format: 'docweb-topics/1',
  topics: [
    {
      id: 'solar',
      keywords: 'solar panels',
      description: 'Solar panels turn sunlight into electricity.',
      targets: ['s/a.html', 's/b.html', 's/c.html'],
      examples: ['s/a.html'],
      neighbors: ['s/x.html'],
    },
  ],
};

describe('topics', () => {
  it('accepts a valid file and picks seeds by task', () => {
    const t = validateTopics(good).topics[0];
    expect(seedsOf(t, 1)).toEqual(['s/a.html']);
    expect(seedsOf(t, 2)).toEqual(['s/x.html']);
  });

  it('reports every problem with the topic and field', () => {
    const bad = {
      format: 'docweb-topics/2',
      topics: [
        {
          id: 'solar',
          keywords: '',
          description: 'd',
          targets: ['s/a.html', 'nope'],
          examples: ['s/z.html'],
          neighbors: ['s/a.html'],
        },
        { id: 'solar', keywords: 'k', description: 'd', targets: ['s/a.html'], examples: ['s/a.html'], neighbors: [] },
        'junk',
      ],
    };
    let message = '';
    try {
      validateTopics(bad, 'bad.json');
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/^bad\.json: \d+ problems/);
    expect(message).toContain('format must be "docweb-topics/1"');
    expect(message).toContain('topic #1 (solar): "keywords" must be a non-empty string');
    expect(message).toContain('"targets" has "nope", not a SITE/PATH page id');
    expect(message).toContain('examples must be targets; not targets: s/z.html');
    expect(message).toContain('neighbors must not be targets: s/a.html');
    expect(message).toContain('topic #2 (solar): duplicate id');
    expect(message).toContain('examples cover every target');
    expect(message).toContain('topic #2 (solar): "neighbors" must be a non-empty array');
    expect(message).toContain('topic #3: not an object');
  });

  it('checks pages against the corpus and reports unreadable files', () => {
    expect(() => validateTopics(good, 't', (id) => id !== 's/b.html')).toThrow(
      /names s\/b\.html, which is not a page of the corpus/,
    );
    const dir = mkdtempSync(join(tmpdir(), 'lab-topics-'));
    try {
      writeFileSync(join(dir, 'broken.json'), '{"format": ');
      expect(() => loadTopics(join(dir, 'broken.json'))).toThrow(/invalid JSON/);
      expect(() => loadTopics(join(dir, 'missing.json'))).toThrow(/cannot read topics file/);
      expect(() => validateTopics([])).toThrow(/not a JSON object/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('command line', () => {
  it('parses strategy lists with parameters', () => {
    const s = parseStrategies('bfs1,bfs16, breadth-first,best-n-first:n=4');
    expect(s.map((x) => x.label)).toEqual(['bfs1', 'bfs16', 'breadth-first', 'best-n-first:n=4']);
    expect(s[1]).toMatchObject({ name: 'best-n-first', params: { n: 16 } });
    expect(s[3].params).toEqual({ n: 4 });
    expect(() => parseStrategies('bfs1,nosuch')).toThrow(/unknown strategy/);
    expect(() => parseStrategies('bfs1,bfs1')).toThrow(/given twice/);
    expect(() => parseStrategies('n=3')).toThrow(/does not follow/);
  });

  it('parses arguments', () => {
    const a = parseArgs(['run', '--topics', 't.json', '--compare', 'a,b', '--compare=c,d', '--force']);
    expect(a._).toEqual(['run']);
    expect(a.topics).toBe('t.json');
    expect(a.compare).toEqual(['a,b', 'c,d']);
    expect(a.force).toBe(true);
  });
});

describe('the topic files in lab/', () => {
  const dir = join(__dirname, '..', '..', 'lab');
  const files = readdirSync(dir)
    .filter((f) => /^topics-.*\.json$/.test(f))
    .sort();
  const all = new Map(files.map((f) => [f, loadTopics(join(dir, f)).topics]));
  // The hand-made DocWeb lists; the generated DocWeb-L lists (topics-docweb-l-*) are checked in topic-generator.test.ts.
  const sets = new Map([...all].filter(([f]) => !f.startsWith('topics-docweb-l-')));
  const dev = loadTopics(join(__dirname, '..', '..', '..', 'shared', 'lab', 'topics-dev.json')).topics;

  it('are the five DocWeb lists and the two generated DocWeb-L splits the lab README describes, each valid', () => {
    expect(files).toEqual([
      'topics-docweb-l-test.json',
      'topics-docweb-l-tune.json',
      'topics-heldout.json',
      'topics-heldout2.json',
      'topics-heldout3.json',
      'topics-tune.json',
      'topics-tune3.json',
    ]);
    for (const topics of all.values()) expect(topics.length).toBeGreaterThanOrEqual(12);
  });

  it('DocWeb lists share no topic and no target page with each other', () => {
    const owner = new Map<string, string>();
    for (const [file, topics] of sets) {
      for (const t of topics) {
        expect(owner.has(`id:${t.id}`), `${t.id} in ${file} and ${owner.get(`id:${t.id}`)}`).toBe(false);
        owner.set(`id:${t.id}`, file);
        for (const page of t.targets) {
          expect(owner.has(page), `${page} is a target in ${file} and ${owner.get(page)}`).toBe(false);
          owner.set(page, `${file} ${t.id}`);
        }
      }
    }
  });

  it('DocWeb lists share with the dev topics no id and at most 2 target pages per topic (the dev topics cut across chapters)', () => {
    const devIds = new Set(dev.map((t) => t.id));
    const devTargets = new Set(dev.flatMap((t) => t.targets));
    for (const [file, topics] of sets) {
      for (const t of topics) {
        expect(devIds.has(t.id), `${t.id} in ${file}`).toBe(false);
        expect(t.targets.filter((p) => devTargets.has(p)).length, `${file} ${t.id}`).toBeLessThanOrEqual(2);
      }
    }
  });

  it('give Task 2 seeds that are not targets, and Task 1 seeds that are', () => {
    for (const topics of all.values()) {
      for (const t of topics) {
        const targets = new Set(t.targets);
        expect(t.neighbors.some((n) => targets.has(n))).toBe(false);
        expect(t.examples.every((e) => targets.has(e))).toBe(true);
      }
    }
  });
});
