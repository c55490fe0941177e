/**
 * Writes extra DocWeb topics for tuning and held-out evaluation of strategies: `tsx lab/heldout-topics.ts`.
 *
 * How topics are chosen (by structure, never by a lexical score):
 * - a topic is one chapter of a DocWeb manual, listed below by hand with keywords taken from the chapter's title
 *   (a few words a user would type): PostgreSQL chapters are `X.html` plus `X-*.html`, Django chapters a folder,
 *   Python library chapters a module family (`library/email*.html`);
 * - targets = the chapter's pages; examples = every other target (sorted), so about half;
 * - neighbors = up to 10 pages exactly 3 content links from the nearest target: shortest paths along the corpus's
 *   links that pass through no hub page (tables of contents, indexes, release notes mention everything), neighbors
 *   themselves not hubs and not targets; chosen by a hash of topic and page so the choice is fixed but unbiased;
 * - the chapters alternate between two files: lab/topics-tune.json (used with the dev topics for tuning) and
 *   lab/topics-heldout.json (never used for tuning; only for reporting). The dev topics' chapters (full text search,
 *   asyncio, date/time, apt) are not used. lab/topics-heldout2.json holds a second list (see CHAPTERS2).
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCorpusIndex } from './corpus';
import { DEFAULT_CACHE, REPO_ROOT, SITES_FILE } from './docweb/prepare';
import { startLocalWeb } from './docweb/server';
import { loadSitesDir } from './sites';
import { validateTopics, type LabTopic } from './topics';

/** Chapter: id, keywords, description (the chapter title, for the lexical metrics), page matcher. */
const CHAPTERS: [string, string, string, (id: string) => boolean][] = [
  ['pg-indexes', 'database indexes', 'PostgreSQL chapter: Indexes', pgChapter('indexes')],
  ['pg-plpgsql', 'plpgsql procedural language', 'PostgreSQL chapter: PL/pgSQL, SQL Procedural Language', pgChapter('plpgsql')],
  ['pg-pltcl', 'tcl procedural language', 'PostgreSQL chapter: PL/Tcl, Tcl Procedural Language', pgChapter('pltcl')],
  [
    'pg-plpython',
    'python procedural language',
    'PostgreSQL chapter: PL/Python, Python Procedural Language',
    pgChapter('plpython'),
  ],
  ['pg-plperl', 'perl procedural language', 'PostgreSQL chapter: PL/Perl, Perl Procedural Language', pgChapter('plperl')],
  ['pg-logicaldecoding', 'logical decoding', 'PostgreSQL chapter: Logical Decoding', pgChapter('logicaldecoding')],
  ['pg-protocol', 'frontend backend protocol', 'PostgreSQL chapter: Frontend/Backend Protocol', pgChapter('protocol')],
  ['pg-gin', 'gin indexes', 'PostgreSQL chapter: GIN Indexes', pgChapter('gin')],
  ['pg-storage', 'database physical storage', 'PostgreSQL chapter: Database Physical Storage', pgChapter('storage')],
  ['pg-backup', 'backup restore', 'PostgreSQL chapter: Backup and Restore', pgChapter('backup')],
  ['pg-btree', 'b-tree indexes', 'PostgreSQL chapter: B-Tree Indexes', pgChapter('btree')],
  ['pg-rules', 'rule system', 'PostgreSQL chapter: The Rule System', pgChapter('rules')],
  ['pg-typeconv', 'type conversion', 'PostgreSQL chapter: Type Conversion', pgChapter('typeconv')],
  ['pg-libpq', 'libpq c library', 'PostgreSQL chapter: libpq, C Library', pgChapter('libpq')],
  ['pg-queries', 'sql queries', 'PostgreSQL chapter: Queries', pgChapter('queries')],
  ['pg-ddl', 'data definition', 'PostgreSQL chapter: Data Definition', pgChapter('ddl')],
  ['dj-gis', 'geodjango gis', 'Django chapter: GeoDjango', folder('django/ref/contrib/gis/')],
  [
    'dj-cbv-api',
    'class-based views api',
    'Django chapter: Built-in class-based views API',
    folder('django/ref/class-based-views/'),
  ],
  ['dj-http', 'handling http requests', 'Django chapter: Handling HTTP requests', folder('django/topics/http/')],
  ['dj-forms', 'forms', 'Django chapter: Forms (API reference)', folder('django/ref/forms/')],
  ['dj-contributing', 'contributing', 'Django chapter: Contributing to Django', folder('django/internals/contributing/', true)],
  [
    'py-email',
    'email mime handling',
    'Python library chapter: email, an email and MIME handling package',
    (id) => /^python\/library\/email[^/]*\.html$/.test(id),
  ],
  [
    'py-xml',
    'xml processing modules',
    'Python library chapter: XML Processing Modules',
    (id) => /^python\/library\/xml[^/]*\.html$/.test(id),
  ],
  [
    'py-tkinter',
    'tkinter tcl tk interface',
    'Python library chapter: tkinter, Python interface to Tcl/Tk',
    (id) => /^python\/library\/tkinter[^/]*\.html$/.test(id),
  ],
  [
    'py-urllib',
    'url handling modules',
    'Python library chapter: urllib, URL handling modules',
    (id) => /^python\/library\/urllib[^/]*\.html$/.test(id),
  ],
  ['dj-cbv', 'class-based views', 'Django chapter: Class-based views (topic guide)', folder('django/topics/class-based-views/')],
];

/**
 * A second held-out list, written after the first held-out run had exposed a failure of the default strategy
 * (pg-libpq: the keyword "library" pulled the crawl into python/library/) and the default's URL weight was changed
 * in response: these chapters were used for no decision at all.
 */
const CHAPTERS2: typeof CHAPTERS = [
  ['pg-runtime', 'server setup operation', 'PostgreSQL chapter: Server Setup and Operation', pgChapter('runtime')],
  ['pg-logical', 'logical replication', 'PostgreSQL chapter: Logical Replication', pgChapter('logical')],
  ['pg-event', 'event triggers', 'PostgreSQL chapter: Event Triggers', pgChapter('event')],
  ['pg-install', 'installation from source code', 'PostgreSQL chapter: Installation from Source Code', pgChapter('install')],
  ['pg-xfunc', 'user-defined functions', 'PostgreSQL section: User-Defined Functions', pgChapter('xfunc')],
  ['pg-manage', 'managing databases', 'PostgreSQL chapter: Managing Databases', pgChapter('manage')],
  ['pg-auth', 'client authentication', 'PostgreSQL chapter: Client Authentication', pgChapter('auth')],
  ['dj-models', 'models', 'Django chapter: Models (API reference)', folder('django/ref/models/')],
  ['dj-intro', 'getting started tutorial', 'Django chapter: Getting started', folder('django/intro/')],
  ['dj-faq', 'faq', 'Django chapter: Django FAQ', folder('django/faq/')],
  [
    'py-http',
    'http modules',
    'Python library chapter: http, HTTP modules',
    (id) => /^python\/library\/http[^/]*\.html$/.test(id),
  ],
  [
    'py-importlib',
    'importlib import',
    'Python library chapter: importlib, the implementation of import',
    (id) => /^python\/library\/importlib[^/]*\.html$/.test(id),
  ],
];

/**
 * A third list, of large chapters (16 to 190 pages), written in a later session because on the first two lists
 * most strategies find every target within 250 pages (recall 1.0 leaves no room to tell crawlers apart). Chosen by
 * size and by structure only, before any strategy was run on them; alternately into lab/topics-tune3.json (tuning)
 * and lab/topics-heldout3.json (reporting only).
 */
const CHAPTERS3: typeof CHAPTERS = [
  [
    'pg-sql',
    'sql commands reference',
    'PostgreSQL reference: SQL Commands',
    (id) => /^postgresql\/sql-.*\.html$/.test(id) && !/^postgresql\/sql-(syntax|expressions|keywords)/.test(id),
  ],
  [
    'pg-catalog',
    'system catalogs',
    'PostgreSQL chapter: System Catalogs',
    (id) => /^postgresql\/catalogs?(-.*)?\.html$/.test(id),
  ],
  ['py-capi', 'python c api', 'Python/C API Reference Manual', folder('python/c-api/')],
  ['pg-infoschema', 'information schema', 'PostgreSQL chapter: The Information Schema', pgChapter('infoschema')],
  [
    'sq-session',
    'session extension changesets',
    'SQLite: the Session Extension (changesets and patchsets)',
    folder('sqlite/session/'),
  ],
  ['pg-spi', 'server programming interface', 'PostgreSQL chapter: Server Programming Interface', pgChapter('spi')],
  ['sq-lang', 'sql language syntax', 'SQLite: SQL As Understood By SQLite', (id) => /^sqlite\/lang(_[^/]*)?\.html$/.test(id)],
  ['pg-view', 'system views', 'PostgreSQL chapter: System Views', (id) => /^postgresql\/views?(-.*)?\.html$/.test(id)],
  ['pg-ecpg', 'embedded sql in c', 'PostgreSQL chapter: ECPG, Embedded SQL in C', pgChapter('ecpg')],
  ['pg-functions', 'functions and operators', 'PostgreSQL chapter: Functions and Operators', pgChapter('functions')],
  [
    'pg-app',
    'client server applications',
    'PostgreSQL reference: Client and Server Applications',
    (id) => /^postgresql\/app-.*\.html$/.test(id),
  ],
  ['dj-howto', 'how-to guides', 'Django: How-to guides', folder('django/howto/', true)],
  ['pg-tutorial', 'tutorial', 'PostgreSQL part: Tutorial', pgChapter('tutorial')],
  ['git-technical', 'git technical documentation', 'Git: technical documentation', folder('git/technical/')],
  ['py-howto', 'howtos', 'Python HOWTOs', folder('python/howto/')],
  ['pg-datatype', 'data types', 'PostgreSQL chapter: Data Types', pgChapter('datatype')],
  ['py-tutorial', 'python tutorial', 'The Python Tutorial', folder('python/tutorial/')],
  ['git-howto', 'git howto', 'Git: howto documents', folder('git/howto/')],
  ['pg-contrib', 'additional supplied modules', 'PostgreSQL appendix: Additional Supplied Modules', pgChapter('contrib')],
  ['dj-topics-db', 'models and databases', 'Django topic guide: Models and databases', folder('django/topics/db/')],
  ['py-reference', 'language reference', 'The Python Language Reference', folder('python/reference/')],
  ['dj-postgres', 'postgresql specific features', 'Django: django.contrib.postgres', folder('django/ref/contrib/postgres/')],
  ['sq-c3ref', 'c interface', 'SQLite: C-language Interface Specification', folder('sqlite/c3ref/')],
  ['py-extending', 'extending embedding python', 'Extending and Embedding the Python Interpreter', folder('python/extending/')],
];

function pgChapter(x: string): (id: string) => boolean {
  return (id) => id === `postgresql/${x}.html` || (id.startsWith(`postgresql/${x}-`) && id.endsWith('.html'));
}

function folder(prefix: string, recursive = false): (id: string) => boolean {
  return (id) => id.startsWith(prefix) && id.endsWith('.html') && (recursive || !id.slice(prefix.length).includes('/'));
}

const hash = (s: string) => createHash('sha1').update(s).digest('hex');

async function main(): Promise<void> {
  const sites = loadSitesDir(join(DEFAULT_CACHE, 'sites'), SITES_FILE);
  const web = await startLocalWeb({ sites });
  const key = createHash('sha1')
    .update(sites.map((s) => s.dir).join('\0'))
    .digest('hex')
    .slice(0, 12);
  const corpus = await loadCorpusIndex(web, sites, {
    cacheFile: join(REPO_ROOT, '.cache', 'lab', `corpus-${key}.json`),
    log: (l) => process.stderr.write(`${l}\n`),
  });
  await web.close();
  const n = corpus.ids.length;
  // Reverse adjacency, for distances *to* the targets along forward links.
  const inlinks = corpus.inlinks();

  const makeTopic = ([id, keywords, description, match]: (typeof CHAPTERS)[number]): LabTopic => {
    const targets = corpus.ids.filter(match).sort();
    if (targets.length < 4) throw new Error(`${id}: only ${targets.length} pages`);
    const targetIdx = new Set(targets.map((t) => corpus.position.get(t)!));
    const dist = new Int32Array(n).fill(-1);
    let frontier = [...targetIdx];
    for (const i of frontier) dist[i] = 0;
    for (let d = 1; d <= 3; d++) {
      const next: number[] = [];
      for (const j of frontier) {
        if (d > 1 && corpus.hub[j]) continue; // paths do not pass through hubs
        for (const i of inlinks[j]) {
          if (dist[i] >= 0) continue;
          dist[i] = d;
          next.push(i);
        }
      }
      frontier = next;
    }
    const candidates = corpus.ids.filter((_, i) => dist[i] === 3 && !corpus.hub[i]);
    const neighbors = candidates
      .sort((a, b) => (hash(id + a) < hash(id + b) ? -1 : 1))
      .slice(0, 10)
      .sort();
    if (neighbors.length < 3) throw new Error(`${id}: only ${neighbors.length} neighbors at distance 3`);
    const examples = targets.filter((_, i) => i % 2 === 0);
    return { id, keywords, description, targets, examples, neighbors };
  };
  const tune: LabTopic[] = [];
  const heldout: LabTopic[] = [];
  CHAPTERS.forEach((chapter, k) => {
    (k % 2 === 0 ? tune : heldout).push(makeTopic(chapter));
  });
  const heldout2 = CHAPTERS2.map(makeTopic);
  const tune3: LabTopic[] = [];
  const heldout3: LabTopic[] = [];
  CHAPTERS3.forEach((chapter, k) => {
    (k % 2 === 0 ? tune3 : heldout3).push(makeTopic(chapter));
  });
  const corpusNote =
    "docweb (see ../shared/lab/README.md); generated by lab/heldout-topics.ts from the manuals' chapter structure";
  for (const [file, topics] of [
    ['topics-tune.json', tune],
    ['topics-heldout.json', heldout],
    ['topics-heldout2.json', heldout2],
    ['topics-tune3.json', tune3],
    ['topics-heldout3.json', heldout3],
  ] as const) {
    const data = { format: 'docweb-topics/1' as const, corpus: corpusNote, topics };
    validateTopics(data, file, (x) => corpus.position.has(x));
    writeFileSync(join(REPO_ROOT, 'lab', file), `${JSON.stringify(data, null, 1)}\n`);
    process.stderr.write(
      `wrote lab/${file}: ${topics.map((t) => `${t.id} (${t.targets.length} targets, ${t.neighbors.length} neighbors)`).join(', ')}\n`,
    );
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
