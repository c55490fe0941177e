/**
 * The tree's layering, checked two ways: Biome's per-folder import rules (biome.json) refuse a planted upward import
 * in every floor of lib/app and a deep import from an entrypoint, and a drawing of the whole tree's imports (type
 * imports included) has no cycle and no arrow running down-to-up between lib/app's floors.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(__dirname, '../..');

/** lib/app's floors, bottom first; folders on one floor do not import each other unless listed in `uses`. */
const FLOORS: { folder: string; uses: string[] }[] = [
  { folder: 'model', uses: [] },
  { folder: 'rules', uses: ['model'] },
  { folder: 'store', uses: ['model', 'rules'] },
  { folder: 'export', uses: ['model', 'rules'] },
  { folder: 'serp', uses: ['model', 'rules'] },
  { folder: 'view', uses: ['model', 'rules'] },
  { folder: 'runner', uses: ['model', 'rules', 'store'] },
  { folder: 'library', uses: ['model', 'rules', 'store', 'export', 'runner'] },
  { folder: 'watch', uses: ['model', 'rules', 'store', 'runner'] },
  { folder: 'adapters', uses: ['model', 'rules', 'store', 'export', 'serp', 'view', 'runner', 'library', 'watch'] },
  { folder: 'background', uses: ['model', 'rules', 'store', 'export', 'serp', 'view', 'runner', 'library', 'watch', 'adapters'] },
];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, dir))) {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Every relative import of a file (static, type-only, re-export, dynamic), resolved to a file of the tree. */
function importsOf(file: string, known: Set<string>): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']*)'/g)) {
    const base = normalize(join(dirname(file), m[1]));
    const hit = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'].map((ext) => base + ext).find((p) => known.has(p));
    if (hit) out.push(hit);
  }
  return out;
}

function findCycle(graph: Map<string, string[]>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | null => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') return [...stack.slice(stack.indexOf(next)), next];
      if (!state.has(next)) {
        const cycle = visit(next);
        if (cycle) return cycle;
      }
    }
    stack.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of graph.keys()) {
    if (!state.has(node)) {
      const cycle = visit(node);
      if (cycle) return cycle;
    }
  }
  return null;
}

describe('the import drawing', () => {
  const files = ['lib', 'entrypoints', 'cli', 'lab', 'bench'].flatMap(sourceFiles);
  const known = new Set(files);
  const graph = new Map(files.map((f) => [f, importsOf(f, known)]));

  it('has no cycle anywhere in the tree, type imports included', () => {
    expect(findCycle(graph)).toBeNull();
  });

  it('has no arrow upward between the floors of lib/app, and nothing inside lib/app goes through a door', () => {
    const floorOf = (file: string) => (file.startsWith('lib/app/') ? file.split('/')[2] : null);
    const upward: string[] = [];
    for (const [from, targets] of graph) {
      const floor = FLOORS.find((f) => f.folder === floorOf(from));
      if (!floorOf(from) || from === 'lib/app/index.ts' || from === 'lib/app/node.ts') continue;
      for (const to of targets) {
        const target = floorOf(to);
        if (target === null || target === floorOf(from)) continue;
        if (!floor?.uses.includes(target)) upward.push(`${from} -> ${to}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('knows every folder of lib/app, and biome.json has a floor rule for each', () => {
    const folders = readdirSync(join(root, 'lib/app')).filter((n) => statSync(join(root, 'lib/app', n)).isDirectory());
    expect(folders.sort()).toEqual(FLOORS.map((f) => f.folder).sort());
    const biome = JSON.parse(readFileSync(join(root, 'biome.json'), 'utf8')) as { overrides: { includes: string[] }[] };
    const ruled = biome.overrides.flatMap((o) => o.includes);
    for (const { folder } of FLOORS) expect(ruled).toContain(`lib/app/${folder}/**`);
  });
});

describe("Biome's floor rules", () => {
  const scratch = mkdtempSync(join(tmpdir(), 'forager-floors-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const config = JSON.parse(readFileSync(join(root, 'biome.json'), 'utf8'));
  delete config.$schema;
  config.vcs = { enabled: false };
  writeFileSync(join(scratch, 'biome.json'), JSON.stringify(config));

  /** Lints planted files in a scratch copy of the layout; answers the files Biome refused an import in. */
  function refused(planted: Record<string, string>): string[] {
    for (const [path, text] of Object.entries(planted)) {
      mkdirSync(dirname(join(scratch, path)), { recursive: true });
      writeFileSync(join(scratch, path), text);
    }
    const bin = join(root, 'node_modules/.bin/biome');
    const run = spawnSync(bin, ['lint', '--reporter=json', ...Object.keys(planted)], { cwd: scratch, encoding: 'utf8' });
    const report = JSON.parse(run.stdout) as { diagnostics: { category: string; location: { path: string } }[] };
    return report.diagnostics
      .filter((d) => d.category === 'lint/style/noRestrictedImports')
      .map((d) => relative('.', d.location.path))
      .sort();
  }

  it('refuses an import running upward from every floor, a deep import from an entrypoint, the wrong door, Node modules', () => {
    const planted: Record<string, string> = {};
    for (const [i, { folder, uses }] of FLOORS.entries()) {
      const above = FLOORS.slice(i + 1).find((f) => !uses.includes(f.folder));
      if (above) planted[`lib/app/${folder}/planted.ts`] = `import { x } from '../${above.folder}/y';\nx();\n`;
    }
    planted['lib/app/runner/through-door.ts'] = "import { x } from '..';\nx();\n";
    planted['entrypoints/popup/planted.tsx'] = "import { x } from '../../lib/app/rules/settings';\nx();\n";
    planted['cli/planted.ts'] = "import { x } from '../lib/app';\nx();\n";
    // The floor rules add to the tree's other import rules, they do not replace them.
    planted['lib/app/store/node-module.ts'] = "import { readFileSync } from 'node:fs';\nreadFileSync('x');\n";
    planted['lib/app/view/engine-inside.ts'] = "import { x } from '../../engine/crawl';\nx();\n";
    expect(refused(planted)).toEqual(Object.keys(planted).sort());
  });

  it('lets imports run downward and through the right door', () => {
    const planted = {
      'lib/app/background/ok.ts': "import { x } from '../adapters/y';\nx();\n",
      'lib/app/runner/ok.ts': "import { x } from '../store/y';\nimport { z } from '../../engine';\nx(z);\n",
      'entrypoints/popup/ok.tsx': "import { x } from '../../lib/app';\nx();\n",
      'cli/ok.ts': "import { x } from '../lib/app/node';\nx();\n",
    };
    expect(refused(planted)).toEqual([]);
  });
});
