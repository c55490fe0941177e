/**
 * The corpus index's disk cache: reused for the same pages and engine; after a change to the engine's page-reading
 * code, kept only when a sample of the pages reads exactly as stored, and rebuilt when one does not.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CorpusIndex,
  corpusFingerprint,
  engineFingerprint,
  loadCorpusIndex,
  pagesFingerprint,
  RECHECK_EVERY,
  readIndexFile,
  recheckSample,
  writeIndexFile,
} from '../../lab/corpus';
import { simulatedWeb } from '../../lab/docweb/server';
import { loadSitesDir } from '../../lab/sites';

let dir: string;
let sites: ReturnType<typeof loadSitesDir>;
let web: ReturnType<typeof simulatedWeb>;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lab-corpus-cache-'));
  for (const name of ['alpha', 'beta']) {
    mkdirSync(join(dir, 'web', name), { recursive: true });
    for (let i = 0; i < 2 * RECHECK_EVERY + 5; i++)
      writeFileSync(
        join(dir, 'web', name, `p${i}.html`),
        `<!DOCTYPE html><title>${name} page ${i}</title><h1>Heading ${i}</h1><p>words about ${name} number ${i % 7}</p>` +
          `<a href="p${(i + 1) % 20}.html">next</a> <a href="p${(i * 3) % 50}.html">other</a>`,
      );
  }
  sites = loadSitesDir(join(dir, 'web'));
  web = simulatedWeb({ sites });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('corpus index cache', () => {
  it('is written once and read back equal; the whole fingerprint is the pages and the engine code', async () => {
    const file = join(dir, 'a.idx');
    const lines: string[] = [];
    const built = await loadCorpusIndex(web, sites, { cacheFile: file, log: (l) => lines.push(l) });
    expect(built.fromCache).toBe(false);
    const read = await loadCorpusIndex(web, sites, { cacheFile: file, log: (l) => lines.push(l) });
    expect(read.fromCache).toBe(true);
    expect(read.arrays()).toEqual(built.arrays());
    expect(readIndexFile(file)?.stamp).toEqual({
      fingerprint: corpusFingerprint(sites),
      pages: pagesFingerprint(sites),
      engine: engineFingerprint(),
    });
    expect((await loadCorpusIndex(web, sites, { cacheFile: file, rebuild: true })).fromCache).toBe(false);
  });

  it('after an engine change, keeps a cache whose sampled pages read the same, and rebuilds one whose do not', async () => {
    const file = join(dir, 'b.idx');
    const built = await loadCorpusIndex(web, sites, { cacheFile: file });
    const olderEngine = { fingerprint: 'older', pages: pagesFingerprint(sites), engine: 'older' };

    writeIndexFile(file, olderEngine, built.arrays());
    const lines: string[] = [];
    const kept = await loadCorpusIndex(web, sites, { cacheFile: file, log: (l) => lines.push(l) });
    expect(kept.fromCache).toBe(true);
    expect(lines.join('\n')).toMatch(/a sample of the pages reads the same .*cache kept/);
    expect(readIndexFile(file)?.stamp.fingerprint).toBe(corpusFingerprint(sites)); // stamped as current

    // The older engine read one sampled page differently (its title): the sample catches it.
    const arrays = built.arrays();
    const changed = { ...arrays, titles: arrays.titles.map((t, i) => (i === RECHECK_EVERY ? `${t} (old)` : t)) };
    writeIndexFile(file, olderEngine, changed);
    lines.length = 0;
    const rebuilt = await loadCorpusIndex(web, sites, { cacheFile: file, log: (l) => lines.push(l) });
    expect(rebuilt.fromCache).toBe(false);
    expect(lines.join('\n')).toContain(`${built.ids[RECHECK_EVERY]}: title, heading or length differ`);
    expect(rebuilt.titles[RECHECK_EVERY]).toBe(built.titles[RECHECK_EVERY]);

    // A cache from before the stamp had its parts is rechecked by sample too.
    writeIndexFile(file, { fingerprint: 'older' }, built.arrays());
    expect((await loadCorpusIndex(web, sites, { cacheFile: file })).fromCache).toBe(true);

    // Other pages as the files are served now: the pages' part differs, so no sample is trusted.
    writeIndexFile(file, { ...olderEngine, pages: 'other pages' }, built.arrays());
    expect((await loadCorpusIndex(web, sites, { cacheFile: file })).fromCache).toBe(false);
  });

  it('compares every term count and every link of a sampled page', async () => {
    const built = await loadCorpusIndex(web, sites);
    expect(recheckSample(built, web, sites)).toBeUndefined();
    const a = built.arrays();
    const counts = a.docCounts.slice();
    counts[a.docStart[0]] += 1;
    expect(recheckSample(CorpusIndex.fromArrays({ ...a, docCounts: counts }, sites), web, sites)).toBe(
      `${built.ids[0]}: terms differ`,
    );
    const links = a.links.slice();
    links[a.linkStart[0]] = (links[a.linkStart[0]] + 7) % built.size;
    expect(recheckSample(CorpusIndex.fromArrays({ ...a, links }, sites), web, sites)).toBe(`${built.ids[0]}: links differ`);
  });
});
