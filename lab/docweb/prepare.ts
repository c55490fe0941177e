/**
 * Corpus preparation: download the pinned Debian documentation packages of a corpus with `apt-get download` (no root,
 * nothing installed), check their sha256, unpack them with `dpkg-deb -x`, keep each site's root folder under
 * `<cache>/sites/<site>`, trim what the corpus's sites.json says, and write a manifest with versions, hashes and page
 * counts. Runs once: a later call finds the manifest and returns it.
 *
 * Corpora are named: `docweb` (lab/docweb: seven sites, the lab's default) and `docweb-l` (lab/docweb-l: 35 sites).
 * Each is a folder holding `packages.json` (pins) and `sites.json` (roots, trims, link homes, hubs) and is prepared
 * into its own cache folder, `.cache/<name>`.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { countPages } from '../sites';

const HERE = dirname(fileURLToPath(import.meta.url));
/** The repository root (lab/docweb/../..). */
export const REPO_ROOT = resolve(HERE, '..', '..');

/** A named corpus: where its definition lives and where it is prepared. */
export interface CorpusDefinition {
  name: string;
  /** Pinned packages (docweb-packages/1). */
  packagesFile: string;
  /** Sites (docweb-sites/1). */
  sitesFile: string;
  /** Default cache folder (downloads, unpacked sites, manifest). */
  cacheDir: string;
}

const corpusAt = (name: string, folder: string): CorpusDefinition => ({
  name,
  packagesFile: join(REPO_ROOT, 'lab', folder, 'packages.json'),
  sitesFile: join(REPO_ROOT, 'lab', folder, 'sites.json'),
  cacheDir: join(REPO_ROOT, '.cache', name),
});

/** The corpora `prepare`, `run` and `serve` take by name (`--corpus`); DocWeb is the default. */
export const CORPORA: Record<string, CorpusDefinition> = {
  docweb: corpusAt('docweb', 'docweb'),
  'docweb-l': corpusAt('docweb-l', 'docweb-l'),
};
export const DEFAULT_CORPUS = 'docweb';

/** The corpus of that name. @throws Error naming the known corpora. */
export function corpusByName(name: string): CorpusDefinition {
  const c = Object.hasOwn(CORPORA, name) ? CORPORA[name] : undefined;
  if (!c) throw new Error(`unknown corpus "${name}" (known: ${Object.keys(CORPORA).join(', ')})`);
  return c;
}

export const DEFAULT_CACHE = CORPORA.docweb.cacheDir;
export const PACKAGES_FILE = CORPORA.docweb.packagesFile;
export const SITES_FILE = CORPORA.docweb.sitesFile;

export interface PackagePin {
  name: string;
  version: string;
  /** Recorded after the first download; null until then. */
  sha256: string | null;
}

export interface PackagesFile {
  format: 'docweb-packages/1';
  release: string;
  packages: PackagePin[];
}

/** One site as a corpus's sites.json describes it. */
export interface DocWebSite {
  name: string;
  packages: string[];
  root: string;
  remove: string[];
  expectedPages: number;
  homes: string[];
  hubs: string[];
  /** Pages the portal links instead of the root (when the root has no index page, or it is a redirect stub). */
  fronts?: string[];
  /** The site's language (ISO 639-1) when it is not English. */
  language?: string;
}

/** A corpus's sites.json. */
export interface SitesFile {
  format: 'docweb-sites/1';
  /** Meta-refresh stub pages are served as HTTP 301 to their target and are not pages of the corpus. */
  redirectStubs?: boolean;
  sites: DocWebSite[];
}

export interface Manifest {
  format: 'docweb-manifest/1';
  /** The corpus's name (missing in manifests written before corpora had names: DocWeb). */
  corpus?: string;
  createdAt: string;
  packages: { name: string; version: string; sha256: string; file: string; bytes: number }[];
  sites: { name: string; pages: number; expectedPages: number }[];
  totalPages: number;
  expectedTotal: number;
}

export interface PrepareOptions {
  /** Which corpus (default DocWeb). */
  corpus?: CorpusDefinition;
  /** Default: the corpus's cache folder. */
  cacheDir?: string;
  /** Pin the archive's current candidate versions first (when a pinned version left the archive). */
  repin?: boolean;
  /** Unpack again even if a manifest exists. */
  force?: boolean;
  log?: (line: string) => void;
}

/** Reads and checks a sites.json. */
export function loadSitesFile(file = SITES_FILE): SitesFile {
  let data: Partial<SitesFile>;
  try {
    data = JSON.parse(readFileSync(file, 'utf8')) as Partial<SitesFile>;
  } catch (err) {
    throw new Error(`${file}: ${(err as Error).message}`);
  }
  if (data.format !== 'docweb-sites/1' || !Array.isArray(data.sites)) throw new Error(`${file}: not a docweb-sites/1 file`);
  const problems: string[] = [];
  const names = new Set<string>();
  for (const [i, s] of data.sites.entries()) {
    const where = `site #${i + 1}${typeof s?.name === 'string' ? ` (${s.name})` : ''}`;
    if (typeof s?.name !== 'string' || !/^[A-Za-z0-9._-]+$/.test(s.name))
      problems.push(`${where}: name must be letters, digits, . _ -`);
    else if (names.has(s.name)) problems.push(`${where}: duplicate name`);
    names.add(s?.name);
    if (typeof s?.root !== 'string' || s.root === '' || s.root.split('/').includes('..'))
      problems.push(`${where}: root must be a relative folder`);
    if (!Array.isArray(s?.packages) || s.packages.length === 0) problems.push(`${where}: packages must be a non-empty list`);
    for (const key of ['remove', 'homes', 'hubs'] as const)
      if (!Array.isArray(s?.[key]) || s[key].some((x: unknown) => typeof x !== 'string'))
        problems.push(`${where}: ${key} must be a list of strings`);
    if (!Number.isInteger(s?.expectedPages) || s.expectedPages < 0) problems.push(`${where}: expectedPages must be a count`);
    if ((s?.remove ?? []).some((r: string) => r === '' || r.split('/').includes('..')))
      problems.push(`${where}: remove entries must be paths inside the root`);
  }
  if (problems.length) throw new Error(`${file}: ${problems.join('; ')}`);
  return data as SitesFile;
}

/** The sites of a sites.json. */
export function loadDocWebSites(file = SITES_FILE): DocWebSite[] {
  return loadSitesFile(file).sites;
}

export function loadPackages(file = PACKAGES_FILE): PackagesFile {
  const data = JSON.parse(readFileSync(file, 'utf8')) as PackagesFile;
  if (data.format !== 'docweb-packages/1' || !Array.isArray(data.packages))
    throw new Error(`${file}: not a docweb-packages/1 file`);
  return data;
}

/** Where the prepared sites live, or undefined if the corpus has not been prepared in this cache. */
export function preparedSitesDir(cacheDir = DEFAULT_CACHE): string | undefined {
  const manifest = join(cacheDir, 'manifest.json');
  return existsSync(manifest) && existsSync(join(cacheDir, 'sites')) ? join(cacheDir, 'sites') : undefined;
}

export function readManifest(cacheDir = DEFAULT_CACHE): Manifest {
  return JSON.parse(readFileSync(join(cacheDir, 'manifest.json'), 'utf8')) as Manifest;
}

function run(cmd: string, args: string[], cwd?: string): { ok: boolean; out: string } {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error) {
    const code = (r.error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      throw new Error(`${cmd} is not installed (the lab's corpora need apt-get and dpkg-deb from a Debian system)`);
    throw r.error;
  }
  return { ok: r.status === 0, out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

/** The candidate version apt would pick now, or undefined when apt does not know the package. */
function candidateVersion(name: string): string | undefined {
  const { out } = run('apt-cache', ['policy', name]);
  const m = /Candidate:\s*(\S+)/.exec(out);
  return m && m[1] !== '(none)' ? m[1] : undefined;
}

/** Debian's own version order (epochs, ~ and all): `dpkg --compare-versions a gt b`. */
function versionIsNewer(a: string, b: string): boolean {
  return run('dpkg', ['--compare-versions', a, 'gt', b]).ok;
}

function sha256File(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** apt-get names the file name_version_arch.deb with ':' escaped as %3a. */
function debFileFor(dir: string, pin: PackagePin): string | undefined {
  const version = pin.version.replace(/:/g, '%3a');
  const hit = readdirSync(dir).find((f) => f.startsWith(`${pin.name}_${version}_`) && f.endsWith('.deb'));
  return hit ? join(dir, hit) : undefined;
}

/**
 * Downloads, verifies, unpacks and trims a corpus (default DocWeb) into `cacheDir` (default `.cache/<corpus>`) unless
 * a manifest is there. Throws a clear error when apt-get/dpkg-deb are missing, when a pinned version left the archive
 * (suggesting `--repin`) or when a download does not match its recorded sha256. Downloads are kept in
 * `<cache>/debs`, so preparing again (`--force`) downloads nothing.
 */
export function prepareCorpus(options: PrepareOptions = {}): Manifest {
  const corpus = options.corpus ?? CORPORA[DEFAULT_CORPUS];
  const cacheDir = resolve(options.cacheDir ?? corpus.cacheDir);
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  if (!options.force && !options.repin && preparedSitesDir(cacheDir)) return readManifest(cacheDir);
  run('apt-get', ['--version']);
  run('dpkg-deb', ['--version']);

  const pins = loadPackages(corpus.packagesFile);
  const sites = loadDocWebSites(corpus.sitesFile);
  const pinned = new Set(pins.packages.map((p) => p.name));
  for (const site of sites)
    for (const name of site.packages)
      if (!pinned.has(name))
        throw new Error(`${corpus.sitesFile}: site ${site.name} needs ${name}, which ${corpus.packagesFile} does not pin`);
  let pinsChanged = false;
  if (options.repin) {
    for (const pin of pins.packages) {
      const candidate = candidateVersion(pin.name);
      if (!candidate) throw new Error(`apt does not know ${pin.name}; run apt-get update (as root) first`);
      if (candidate !== pin.version) {
        log(`repin ${pin.name}: ${pin.version} -> ${candidate}`);
        pin.version = candidate;
        pin.sha256 = null;
        pinsChanged = true;
      }
    }
  }

  const debDir = join(cacheDir, 'debs');
  mkdirSync(debDir, { recursive: true });
  const records: Manifest['packages'] = [];
  for (const pin of pins.packages) {
    let deb = debFileFor(debDir, pin);
    if (deb && pin.sha256 && sha256File(deb) !== pin.sha256) {
      rmSync(deb);
      deb = undefined;
    }
    if (!deb) {
      log(`apt-get download ${pin.name}=${pin.version}`);
      const r = run('apt-get', ['download', `${pin.name}=${pin.version}`], debDir);
      deb = debFileFor(debDir, pin);
      if (!r.ok || !deb) {
        const candidate = candidateVersion(pin.name);
        if (!candidate) {
          throw new Error(
            `apt-get download ${pin.name} failed: apt does not know the package (empty package lists? run apt-get update as root)\n${r.out.trim()}`,
          );
        }
        if (candidate !== pin.version && versionIsNewer(pin.version, candidate)) {
          throw new Error(
            `${pin.name} ${pin.version} is newer than apt's package lists know (they offer ${candidate}): ` +
              `the lists are older than the pins. Run \`apt-get update\` as root, then prepare again.`,
          );
        }
        if (candidate !== pin.version) {
          throw new Error(
            `${pin.name} ${pin.version} is no longer in the archive (apt offers ${candidate}). ` +
              `Run \`npm run lab -- prepare --corpus ${corpus.name} --repin\` to pin the archive's versions (results will not be comparable with runs on the old pins).`,
          );
        }
        throw new Error(`apt-get download ${pin.name}=${pin.version} failed:\n${r.out.trim()}`);
      }
    }
    const sha = sha256File(deb);
    if (pin.sha256 === null) {
      pin.sha256 = sha;
      pinsChanged = true;
    } else if (pin.sha256 !== sha) {
      throw new Error(
        `${deb}: sha256 ${sha} does not match the pinned ${pin.sha256} (the archive changed the package; --repin to accept)`,
      );
    }
    records.push({
      name: pin.name,
      version: pin.version,
      sha256: sha,
      file: deb.slice(cacheDir.length + 1),
      bytes: statSync(deb).size,
    });
  }
  if (pinsChanged) writeFileSync(corpus.packagesFile, `${JSON.stringify(pins, null, 2)}\n`);

  // Unpack into a scratch folder, move each site's root out, drop the rest.
  const scratch = join(cacheDir, 'unpack');
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  for (const rec of records) {
    const r = run('dpkg-deb', ['-x', join(cacheDir, rec.file), scratch]);
    if (!r.ok) throw new Error(`dpkg-deb -x ${rec.file} failed:\n${r.out.trim()}`);
  }
  const sitesDir = join(cacheDir, 'sites');
  rmSync(sitesDir, { recursive: true, force: true });
  mkdirSync(sitesDir, { recursive: true });
  const counts: Manifest['sites'] = [];
  for (const site of sites) {
    const from = join(scratch, site.root);
    if (!existsSync(from))
      throw new Error(`${site.name}: ${site.root} is not in the unpacked packages ${site.packages.join(', ')}`);
    const to = join(sitesDir, site.name);
    renameSync(from, to);
    for (const rel of site.remove) rmSync(join(to, rel), { recursive: true, force: true });
    const pages = countPages(to);
    counts.push({ name: site.name, pages, expectedPages: site.expectedPages });
    log(`${site.name}: ${pages} pages${pages === site.expectedPages ? '' : ` (expected: ${site.expectedPages})`}`);
  }
  rmSync(scratch, { recursive: true, force: true });

  const manifest: Manifest = {
    format: 'docweb-manifest/1',
    corpus: corpus.name,
    createdAt: new Date().toISOString(),
    packages: records,
    sites: counts,
    totalPages: counts.reduce((s, c) => s + c.pages, 0),
    expectedTotal: counts.reduce((s, c) => s + c.expectedPages, 0),
  };
  writeFileSync(join(cacheDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  log(`${corpus.name}: ${manifest.totalPages} pages (expected: ${manifest.expectedTotal}) in ${sitesDir}`);
  return manifest;
}

/** DocWeb's preparation (the default corpus); see {@link prepareCorpus}. */
export function prepareDocWeb(options: Omit<PrepareOptions, 'corpus'> = {}): Manifest {
  return prepareCorpus({ ...options, corpus: CORPORA.docweb });
}

/** Differences between the counted pages and sites.json's expectedPages, as readable lines (empty when they agree). */
export function pageCountDifferences(manifest: Manifest): string[] {
  const lines = manifest.sites
    .filter((s) => s.pages !== s.expectedPages)
    .map(
      (s) =>
        `${s.name}: ${s.pages} pages, expected ${s.expectedPages} (${s.pages > s.expectedPages ? '+' : ''}${s.pages - s.expectedPages})`,
    );
  if (lines.length) lines.push(`total: ${manifest.totalPages}, expected ${manifest.expectedTotal}`);
  return lines;
}
