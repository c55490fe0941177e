/**
 * Corpus preparation end to end, without the network: tiny .deb packages built with dpkg-deb, and stand-ins for
 * apt-get and apt-cache on PATH that "download" from a local folder. Checks the manifest against expectedPages, the
 * sha256 pins, the download cache, the clear errors and the re-pin path; and that the committed corpus definitions
 * agree with each other and with the shared DocWeb-L README's figures.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CORPORA,
  type CorpusDefinition,
  loadPackages,
  loadSitesFile,
  pageCountDifferences,
  prepareCorpus,
} from '../../lab/docweb/prepare';

let dir: string;
let corpus: CorpusDefinition;
let savedPath: string | undefined;
const quiet = () => {};

function buildDeb(repo: string, name: string, version: string, files: Record<string, string>): void {
  const root = join(dir, 'build', `${name}-${version}`);
  mkdirSync(join(root, 'DEBIAN'), { recursive: true });
  writeFileSync(
    join(root, 'DEBIAN', 'control'),
    `Package: ${name}\nVersion: ${version}\nArchitecture: all\nMaintainer: lab <lab@localhost>\nDescription: test\n`,
  );
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  execFileSync('dpkg-deb', ['--root-owner-group', '-b', root, join(repo, `${name}_${version.replace(/:/g, '%3a')}_all.deb`)], {
    stdio: 'ignore',
  });
}

const page = (t: string) => `<html><head><title>${t}</title></head><body><p>${t}</p></body></html>`;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lab-prepare-'));
  const repo = join(dir, 'repo');
  const bin = join(dir, 'bin');
  mkdirSync(repo);
  mkdirSync(bin);
  buildDeb(repo, 'alpha-doc', '1.0-1', {
    'usr/share/doc/alpha/html/index.html': page('Alpha'),
    'usr/share/doc/alpha/html/a.html': page('A'),
    'usr/share/doc/alpha/html/_sources/a.txt': 'source',
    'usr/share/doc/alpha/html/_sources/x.html': page('removed'),
  });
  // One package, two sites (as the handbook's languages): en and fr folders.
  buildDeb(repo, 'book', '2:3.0', {
    'usr/share/doc/book/html/en/index.html': page('Book'),
    'usr/share/doc/book/html/en/ch1.html': page('Chapter'),
    'usr/share/doc/book/html/fr/index.html': page('Livre'),
  });
  // apt-get download NAME=VERSION copies from the repo (apt names the file with ':' as %3a); apt-cache policy reads
  // the candidate from NAME.candidate. Calls are logged.
  writeFileSync(
    join(bin, 'apt-get'),
    `#!/bin/sh
echo "$@" >> "${dir}/apt.log"
[ "$1" = "--version" ] && { echo "apt 2.6"; exit 0; }
spec="$2"; name="\${spec%%=*}"; version="\${spec#*=}"
file="${repo}/\${name}_$(echo "$version" | sed 's/:/%3a/g')_all.deb"
[ -f "$file" ] || { echo "E: Version '$version' for '$name' was not found" >&2; exit 100; }
cp "$file" .
`,
  );
  writeFileSync(
    join(bin, 'apt-cache'),
    `#!/bin/sh
c="${repo}/$2.candidate"
[ -f "$c" ] && echo "  Candidate: $(cat "$c")" || echo "  Candidate: (none)"
`,
  );
  chmodSync(join(bin, 'apt-get'), 0o755);
  chmodSync(join(bin, 'apt-cache'), 0o755);
  writeFileSync(join(repo, 'alpha-doc.candidate'), '1.0-1');
  writeFileSync(join(repo, 'book.candidate'), '2:3.0');
  savedPath = process.env.PATH;
  process.env.PATH = `${bin}:${process.env.PATH}`;

  const def = join(dir, 'def');
  mkdirSync(def);
  corpus = {
    name: 'fake',
    packagesFile: join(def, 'packages.json'),
    sitesFile: join(def, 'sites.json'),
    cacheDir: join(dir, 'cache'),
  };
  writeFileSync(
    corpus.packagesFile,
    JSON.stringify({
      format: 'docweb-packages/1',
      release: 'test',
      packages: [
        { name: 'alpha-doc', version: '1.0-1', sha256: null },
        { name: 'book', version: '2:3.0', sha256: null },
      ],
    }),
  );
  writeFileSync(
    corpus.sitesFile,
    JSON.stringify({
      format: 'docweb-sites/1',
      sites: [
        {
          name: 'alpha',
          packages: ['alpha-doc'],
          root: 'usr/share/doc/alpha/html',
          remove: ['_sources'],
          expectedPages: 2,
          homes: [],
          hubs: [],
        },
        {
          name: 'book',
          packages: ['book'],
          root: 'usr/share/doc/book/html/en',
          remove: [],
          expectedPages: 2,
          homes: [],
          hubs: [],
        },
        {
          name: 'book-fr',
          packages: ['book'],
          root: 'usr/share/doc/book/html/fr',
          remove: [],
          expectedPages: 1,
          homes: [],
          hubs: [],
          language: 'fr',
        },
      ],
    }),
  );
});

afterAll(() => {
  process.env.PATH = savedPath;
  rmSync(dir, { recursive: true, force: true });
});

const aptCalls = () =>
  existsSync(join(dir, 'apt.log')) ? readFileSync(join(dir, 'apt.log'), 'utf8').split('\n').filter(Boolean) : [];

describe('corpus preparation', () => {
  it('downloads, records the sha256 pins, unpacks, trims, and writes a manifest whose counts match expectedPages', () => {
    const manifest = prepareCorpus({ corpus, log: quiet });
    expect(manifest.corpus).toBe('fake');
    expect(manifest.sites.map((s) => [s.name, s.pages, s.expectedPages])).toEqual([
      ['alpha', 2, 2],
      ['book', 2, 2],
      ['book-fr', 1, 1],
    ]);
    expect(pageCountDifferences(manifest)).toEqual([]);
    expect(existsSync(join(corpus.cacheDir, 'sites', 'alpha', '_sources'))).toBe(false);
    expect(existsSync(join(corpus.cacheDir, 'unpack'))).toBe(false);
    const pins = loadPackages(corpus.packagesFile).packages;
    expect(pins.every((p) => /^[0-9a-f]{64}$/.test(p.sha256 ?? ''))).toBe(true);
    expect(manifest.packages.map((p) => p.sha256)).toEqual(pins.map((p) => p.sha256));
    expect(aptCalls().filter((c) => c.startsWith('download'))).toEqual(['download alpha-doc=1.0-1', 'download book=2:3.0']);
  });

  it('prepares once: a second call reads the manifest; --force unpacks again from the kept downloads', () => {
    const before = aptCalls().length;
    prepareCorpus({ corpus, log: quiet });
    expect(aptCalls().length).toBe(before);
    const again = prepareCorpus({ corpus, force: true, log: quiet });
    expect(again.totalPages).toBe(5);
    expect(aptCalls().filter((c) => c.startsWith('download')).length).toBe(2);
  });

  it('refuses a download whose sha256 differs from the pin, and names --repin when a pin left the archive and apt-get update when the lists are old', () => {
    const pins = JSON.parse(readFileSync(corpus.packagesFile, 'utf8'));
    const good = structuredClone(pins);
    pins.packages[0].sha256 = 'f'.repeat(64);
    writeFileSync(corpus.packagesFile, JSON.stringify(pins));
    expect(() => prepareCorpus({ corpus, force: true, log: quiet })).toThrow(
      /sha256 [0-9a-f]{64} does not match the pinned f{64}/,
    );
    pins.packages[0] = { name: 'alpha-doc', version: '0.9-1', sha256: null };
    writeFileSync(corpus.packagesFile, JSON.stringify(pins));
    expect(() => prepareCorpus({ corpus, force: true, log: quiet })).toThrow(
      /alpha-doc 0\.9-1 is no longer in the archive \(apt offers 1\.0-1\)\. Run `npm run lab -- prepare --corpus fake --repin`/,
    );
    // A pin newer than apt's candidate means old package lists (a security update not yet listed), not a lost pin
    pins.packages[0] = { name: 'alpha-doc', version: '1.0-1+sec1', sha256: null };
    writeFileSync(corpus.packagesFile, JSON.stringify(pins));
    expect(() => prepareCorpus({ corpus, force: true, log: quiet })).toThrow(
      /alpha-doc 1\.0-1\+sec1 is newer than apt's package lists know \(they offer 1\.0-1\).*Run `apt-get update` as root/,
    );
    // --repin pins apt's candidates and records their sha256
    const manifest = prepareCorpus({ corpus, repin: true, log: quiet });
    expect(manifest.packages[0].version).toBe('1.0-1');
    expect(loadPackages(corpus.packagesFile).packages[0]).toEqual(good.packages[0]);
  });

  it('says clearly when apt does not know a package or a site needs an unpinned package', () => {
    const pins = JSON.parse(readFileSync(corpus.packagesFile, 'utf8'));
    pins.packages.push({ name: 'ghost-doc', version: '1', sha256: null });
    writeFileSync(corpus.packagesFile, JSON.stringify(pins));
    expect(() => prepareCorpus({ corpus, force: true, log: quiet })).toThrow(
      /apt does not know the package \(empty package lists\?/,
    );
    pins.packages.pop();
    writeFileSync(corpus.packagesFile, JSON.stringify(pins));
    const sites = JSON.parse(readFileSync(corpus.sitesFile, 'utf8'));
    sites.sites[0].packages = ['missing-doc'];
    writeFileSync(corpus.sitesFile, JSON.stringify(sites));
    expect(() => prepareCorpus({ corpus, force: true, log: quiet })).toThrow(
      /site alpha needs missing-doc, which .* does not pin/,
    );
  });
});

describe('the committed corpus definitions', () => {
  it('DocWeb-L: 35 sites from 31 pinned packages, 44,099 pages expected (the shared 43,464 + 5 handbook translations)', () => {
    const sites = loadSitesFile(CORPORA['docweb-l'].sitesFile);
    const pins = loadPackages(CORPORA['docweb-l'].packagesFile).packages;
    expect(sites.sites).toHaveLength(35);
    expect(pins).toHaveLength(31);
    expect(pins.every((p) => /^[0-9a-f]{64}$/.test(p.sha256 ?? ''))).toBe(true);
    const pinned = new Set(pins.map((p) => p.name));
    for (const s of sites.sites) for (const p of s.packages) expect(pinned.has(p), `${s.name}: ${p}`).toBe(true);
    const total = sites.sites.reduce((n, s) => n + s.expectedPages, 0);
    expect(total).toBe(44_099);
    expect(sites.sites.filter((s) => !s.name.startsWith('handbook-')).reduce((n, s) => n + s.expectedPages, 0)).toBe(43_464);
    expect(sites.sites.filter((s) => s.language).map((s) => s.language)).toEqual(['fr', 'de', 'es', 'ru', 'ja']);
    expect(sites.redirectStubs).toBe(true);
    // DocWeb's seven sites keep their roots (topics name pages as SITE/PATH in both corpora).
    const docweb = loadSitesFile(CORPORA.docweb.sitesFile).sites;
    for (const s of docweb) expect(sites.sites.find((x) => x.name === s.name)?.root).toBe(s.root);
  });
});
