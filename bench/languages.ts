/**
 * Languages on real pages: the Debian Administrator's Handbook in English, German, French, Spanish, Russian and
 * Japanese (one package, the same chapters in each language). Each of the 3 chapters with most sections, in each
 * language, is a topic: its title
 * (without "Chapter 6.") as the query, in that language; its pages (the chapter page and the sections whose rel=up is
 * it) are the targets. Every page of all six languages is scored against the topic and ranked; the figures are
 * precision at 10 (targets among the first 10) and the share of the first 10 in another language, averaged over
 * chapters, for: this tree's evaluator (language filter on), the same with `allLanguages` (filter off), and with
 * `--baseline DIR` another checkout's evaluator (before Snowball stemmers and language detection).
 *
 * The handbook comes from the lab's download (.cache/docweb/debs, unpacked into a temporary folder) or `--dir DIR`
 * (a folder holding the handbook's html/<lang>/ folders).
 *
 * Run: npx tsx bench/languages.ts [--baseline DIR] [--dir DIR]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { evaluatePage } from '../lib/engine';
import type { EvaluationInput, PageEvaluation, Topic } from '../lib/engine';

type EvaluateFn = (input: EvaluationInput) => PageEvaluation;

const LANGUAGES = ['en-US', 'de-DE', 'fr-FR', 'es-ES', 'ru-RU', 'ja-JP'];
const K = 10;
/** Chapters used as topics, per language. */
const CHAPTERS = 3;

interface Page {
  lang: string;
  file: string;
  body: Uint8Array;
  up?: string;
  title: string;
}

function handbookDir(given: string | undefined): string {
  if (given) return given;
  const here = fileURLToPath(new URL('.', import.meta.url));
  const debs = join(here, '..', '.cache', 'docweb', 'debs');
  const deb = existsSync(debs) ? readdirSync(debs).find((f) => f.startsWith('debian-handbook_')) : undefined;
  if (!deb) throw new Error('no handbook: run `npm run lab -- prepare` first, or pass --dir');
  const out = mkdtempSync(join(tmpdir(), 'handbook-'));
  execFileSync('dpkg-deb', ['-x', join(debs, deb), out]);
  return join(out, 'usr', 'share', 'doc', 'debian-handbook', 'html');
}

function loadPages(dir: string): Page[] {
  const pages: Page[] = [];
  for (const lang of LANGUAGES) {
    for (const file of readdirSync(join(dir, lang)).filter((f) => f.endsWith('.html'))) {
      const bytes = readFileSync(join(dir, lang, file));
      const html = bytes.toString('utf8');
      const up = /<link rel="up" href="([^"]+)"/.exec(html)?.[1];
      const h1 = /<h1 class="title">([\s\S]*?)<\/h1>/.exec(html)?.[1] ?? '';
      const title = h1
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim();
      pages.push({
        lang,
        file,
        body: new Uint8Array(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 100 * 1024)),
        up,
        title,
      });
    }
  }
  return pages;
}

/** Chapters: pages whose parent is the front page and that have sections; their title without the chapter number. */
function chapters(pages: Page[]): { lang: string; file: string; keywords: string; targets: Set<string> }[] {
  const out = [];
  for (const p of pages) {
    if (p.up !== 'index.html') continue;
    const sections = pages.filter((q) => q.lang === p.lang && q.up === p.file);
    if (sections.length < 2) continue;
    // "Kapitel 6. Wartung ...", "Chapitre 6. ...", "Глава 6. ...", "第 6 章 ...": drop the numbering.
    const keywords = p.title
      .replace(/^.*?\d+\s*(?:\.|章)\s*/u, '')
      .replace(/\s+\d+(?:\.\d+)*\.?$/, '')
      .trim();
    if (!keywords) continue;
    out.push({ lang: p.lang, file: p.file, keywords, targets: new Set([p.file, ...sections.map((s) => s.file)]) });
  }
  // The chapters with most sections, the same ones in every language (each topic scores every page: keep it short).
  const size = new Map<string, number>();
  for (const t of out) if (t.lang === 'en-US') size.set(t.file, t.targets.size);
  const keep = new Set(
    [...size.entries()]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, CHAPTERS)
      .map(([f]) => f),
  );
  return out.filter((t) => keep.has(t.file));
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const opt = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const baselineDir = opt('--baseline');
  const dir = handbookDir(opt('--dir'));
  const pages = loadPages(dir);
  const topics = chapters(pages);
  const variants: [string, EvaluateFn, (t: Topic) => Topic][] = [
    ['filter on', evaluatePage, (t) => t],
    ['all languages', evaluatePage, (t) => ({ ...t, allLanguages: true })],
  ];
  if (baselineDir) {
    const mod = (await import(join(baselineDir, 'lib', 'engine', 'index.ts'))) as { evaluatePage: EvaluateFn };
    variants.push([`baseline ${baselineDir}`, mod.evaluatePage, (t) => t]);
  }
  console.log(`${pages.length} pages in ${LANGUAGES.length} languages, ${topics.length} chapter topics (query = chapter title)`);
  console.log(`${'variant'.padEnd(34)} ${'lang'.padEnd(6)} P@${K}   other-language@${K}`);
  for (const [name, evaluate, adapt] of variants) {
    for (const lang of LANGUAGES) {
      const own = topics.filter((t) => t.lang === lang);
      let precision = 0;
      let foreign = 0;
      for (const t of own) {
        const topic = adapt({ keywords: t.keywords, language: lang.slice(0, 2) });
        const ranked = pages
          .map((p) => ({
            p,
            score: evaluate({
              url: `https://handbook.example/${p.lang}/${p.file}`,
              body: p.body,
              contentType: 'text/html; charset=utf-8',
              topic,
            }).score,
          }))
          .sort((a, b) => b.score - a.score)
          .slice(0, K);
        precision += ranked.filter((r) => r.p.lang === lang && t.targets.has(r.p.file)).length / K;
        foreign += ranked.filter((r) => r.p.lang !== lang).length / K;
      }
      console.log(
        `${name.padEnd(34)} ${lang.slice(0, 2).padEnd(6)} ${(precision / own.length).toFixed(3)}  ${(foreign / own.length).toFixed(3)}   (${own.length} topics)`,
      );
    }
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
