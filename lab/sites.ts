/**
 * A folder of sites: each subfolder is one site (one origin when served). This module knows how files become pages:
 * which files are pages, what a page's id is (`SITE/PATH`, the form topic files use), and which pages are hubs.
 * DocWeb is one such folder (with its link homes and hubs from lab/docweb/sites.json); `--sites DIR` serves any other.
 */
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** What the lab needs to know about one site. */
export interface SiteConfig {
  /** Folder name = site name = the SITE in `SITE/PATH` ids. */
  name: string;
  /** Absolute folder. */
  dir: string;
  /** Where the site lives on the real web: `//host/path` (http or https) or `/file/system/path` (also `file:///...`). */
  homes: string[];
  /** Glob patterns (relative to the site) of pages that mention everything: left out of static top-k rankings. */
  hubs: string[];
  /** Pages the portal links (default: the site's root). */
  fronts?: string[];
  /** The site's language (ISO 639-1), when it is not English. */
  language?: string;
}

const PAGE_RE = /\.(html?|xhtml)(\.gz)?$/i;

/** True for file names the lab treats as HTML pages (`.html`, `.htm`, `.xhtml`, and those gzipped). */
export function isPageFile(name: string): boolean {
  return PAGE_RE.test(name);
}

/**
 * Every file under `dir`, as paths relative to it with `/` separators. Symlinks are followed (a link into a folder
 * already visited is not walked twice, so link cycles end); dangling links are left out.
 */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const seenDirs = new Set<string>();
  const walk = (abs: string, rel: string): void => {
    let real: string;
    try {
      real = realpathSync(abs);
    } catch {
      return;
    }
    if (seenDirs.has(real)) return;
    seenDirs.add(real);
    for (const entry of readdirSync(abs).sort()) {
      const childAbs = join(abs, entry);
      const childRel = rel ? `${rel}/${entry}` : entry;
      let st: ReturnType<typeof statSync>;
      try {
        st = statSync(childAbs);
      } catch {
        continue; // dangling symlink
      }
      if (st.isDirectory()) walk(childAbs, childRel);
      else if (st.isFile()) out.push(childRel);
    }
  };
  walk(dir, '');
  return out;
}

/** Number of pages in a site folder (a gzipped page counts once). */
export function countPages(dir: string): number {
  return pagePaths(listFiles(dir)).length;
}

/** The page paths (ids without the site) of a file list: `x.html.gz` becomes `x.html` unless `x.html` also exists. */
export function pagePaths(files: string[]): string[] {
  const set = new Set(files);
  const pages: string[] = [];
  for (const f of files) {
    if (!isPageFile(f)) continue;
    if (/\.gz$/i.test(f)) {
      const plain = f.slice(0, -3);
      if (!set.has(plain)) pages.push(plain);
    } else pages.push(f);
  }
  return pages.sort();
}

/** Converts a glob (`*` within a path segment, `**` across segments, `?` one character) to an anchored RegExp. */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      re += '.*';
      i++;
      if (glob[i + 1] === '/') i++;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/**
 * Finds the sites of a folder: every subfolder is a site. If the folder holds a `sites.json` (format docweb-sites/1),
 * its `homes` and `hubs` apply to the sites of the same name.
 */
export function loadSitesDir(dir: string, configFile?: string): SiteConfig[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new Error(`${dir} is not a folder of sites`);
  const extra = new Map<string, { homes?: string[]; hubs?: string[]; fronts?: string[]; language?: string }>();
  const cfg = configFile ?? join(dir, 'sites.json');
  if (existsSync(cfg)) {
    const data = JSON.parse(readFileSync(cfg, 'utf8')) as {
      format?: string;
      sites?: { name: string; homes?: string[]; hubs?: string[]; fronts?: string[]; language?: string }[];
    };
    if (data.format !== 'docweb-sites/1' || !Array.isArray(data.sites)) throw new Error(`${cfg}: not a docweb-sites/1 file`);
    for (const s of data.sites) extra.set(s.name, s);
  }
  const sites: SiteConfig[] = [];
  for (const name of readdirSync(dir).sort()) {
    const abs = join(dir, name);
    if (name.startsWith('.') || !statSync(abs).isDirectory()) continue;
    if (!/^[A-Za-z0-9._-]+$/.test(name)) throw new Error(`site folder name "${name}" must be letters, digits, . _ or -`);
    const e = extra.get(name);
    sites.push({
      name,
      dir: abs,
      homes: e?.homes ?? [],
      hubs: e?.hubs ?? [],
      ...(e?.fronts?.length ? { fronts: e.fronts } : {}),
      ...(e?.language ? { language: e.language } : {}),
    });
  }
  if (sites.length === 0) throw new Error(`${dir} has no site subfolders`);
  return sites;
}
