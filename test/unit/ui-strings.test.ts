/**
 * Every user-visible string of the extension's pages comes from `public/_locales` (entrypoints/ui/i18n.ts). This test
 * reads each page's source with the TypeScript parser and fails on text a user would read that is written in the code:
 * - JSX text with a letter in it (`<p>Saved</p>`),
 * - a literal in an attribute people read or hear (`title`, `alt`, `placeholder`, `aria-label`, ...),
 * - any other string or template literal that reads as words (two words of letters, or a capitalised word), outside
 *   what no user sees: imports, attributes such as `class` or `data-testid`, the keys passed to `t()` / `tn()`, the
 *   operands of a comparison, `case` labels and property names.
 * The checker is tested on a sample of each kind first, so it is known to catch them.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { formatElapsed } from '../../entrypoints/ui/api';

/** Attributes whose value is shown or read out. */
const SPOKEN_ATTRIBUTES = new Set([
  'title',
  'alt',
  'placeholder',
  'label',
  'aria-label',
  'aria-description',
  'aria-valuetext',
  'aria-roledescription',
  'aria-placeholder',
]);

/** Words: two words of letters in a row, or a capitalised word ("Saved", "Bookmarks"). */
const WORDS = /\p{L}{2,}[\s\u00a0]+\p{L}{2,}|^\s*\p{Lu}\p{Ll}+/u;

interface Literal {
  file: string;
  line: number;
  text: string;
}

function jsxAttributeName(node: ts.Node): string | undefined {
  for (let n: ts.Node | undefined = node.parent; n; n = n.parent) {
    if (ts.isJsxAttribute(n)) return n.name.getText();
    if (ts.isJsxElement(n) || ts.isJsxSelfClosingElement(n) || ts.isJsxFragment(n)) return undefined;
  }
  return undefined;
}

/** A literal no user sees: where it is says so. */
function unseen(node: ts.Node): boolean {
  const parent = node.parent;
  if (ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent) || ts.isImportTypeNode(parent.parent)) return true;
  if (ts.isLiteralTypeNode(parent)) return true;
  if (ts.isPropertyAssignment(parent) && parent.name === node) return true;
  if (ts.isElementAccessExpression(parent) && parent.argumentExpression === node) return true;
  if (ts.isCaseClause(parent)) return true;
  if (ts.isBinaryExpression(parent)) {
    const op = parent.operatorToken.kind;
    if (
      op === ts.SyntaxKind.EqualsEqualsEqualsToken ||
      op === ts.SyntaxKind.ExclamationEqualsEqualsToken ||
      op === ts.SyntaxKind.EqualsEqualsToken ||
      op === ts.SyntaxKind.ExclamationEqualsToken
    )
      return true;
  }
  // Message keys.
  if (ts.isCallExpression(parent) && /^(t|tn)$/.test(parent.expression.getText())) return true;
  const attribute = jsxAttributeName(node);
  return attribute !== undefined && !SPOKEN_ATTRIBUTES.has(attribute);
}

/** The user-visible literals of one source file. */
function visibleLiterals(file: string, source: string): Literal[] {
  const sf = ts.createSourceFile(
    file,
    source,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const out: Literal[] = [];
  const report = (node: ts.Node, text: string) =>
    out.push({ file, line: sf.getLineAndCharacterOfPosition(node.getStart()).line + 1, text: text.trim() });
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node)) {
      if (/\p{L}/u.test(node.text)) report(node, node.text);
    } else if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      const attribute = ts.isJsxAttribute(node.parent) ? node.parent.name.getText() : undefined;
      if (attribute !== undefined) {
        if (SPOKEN_ATTRIBUTES.has(attribute) && /\p{L}/u.test(node.text)) report(node, node.text);
      } else if (!unseen(node) && WORDS.test(node.text)) report(node, node.text);
    } else if (ts.isTemplateExpression(node)) {
      const text = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ');
      if (!unseen(node) && WORDS.test(text)) report(node, text);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** The extension's UI sources: every .tsx under entrypoints, and the shared UI modules (entrypoints/ui). */
function uiSources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    if (statSync(p).isDirectory()) return uiSources(p);
    if (p.endsWith('.tsx')) return [p];
    return p.startsWith(path.join('entrypoints', 'ui')) && p.endsWith('.ts') && !p.endsWith('i18n.ts') ? [p] : [];
  });
}

describe('user-visible strings come from _locales', () => {
  it('the checker finds each kind of written-in text, and passes what no user sees', () => {
    const sample = `
      import { t } from './i18n';
      const LABEL = { a: 'this computer' };
      export function X({ n }: { n: number }) {
        const state = n === 1 ? 'idle' : 'busy';
        if (state === 'Not shown') return null;
        return (
          <div class="muted small-text" data-testid="x" title="Open it">
            Saved
            <img alt="" />
            <input placeholder="Search every page" aria-label={t('searchWithin')} />
            {n === 1 ? 'Deleting…' : \`\${n} pages found\`}
            <span class={\`status status-\${state}\`}>{t('loading')}</span>
            {'Bookmarks'}
          </div>
        );
      }`;
    expect(visibleLiterals('sample.tsx', sample).map((l) => l.text)).toEqual([
      'this computer',
      'Open it',
      'Saved',
      'Search every page',
      'Deleting…',
      'pages found',
      'Bookmarks',
    ]);
  });

  it('no page of the extension writes user-visible text in its code', () => {
    const files = uiSources('entrypoints');
    expect(files.length).toBeGreaterThan(8);
    const found = files.flatMap((f) => visibleLiterals(f, readFileSync(f, 'utf8')));
    expect(found.map((l) => `${l.file}:${l.line} ${JSON.stringify(l.text)}`)).toEqual([]);
  });

  it("every page a user sees sets its tab's title from the messages (index.html's <title> is only the fallback)", () => {
    const pages = readdirSync('entrypoints').filter(
      (d) =>
        statSync(path.join('entrypoints', d)).isDirectory() &&
        d !== 'offscreen' &&
        readdirSync(path.join('entrypoints', d)).includes('index.html'),
    );
    expect(pages.length).toBeGreaterThanOrEqual(4);
    const missing = pages.filter(
      (d) => !/document\.title = t\('[A-Za-z]+'\)/.test(readFileSync(path.join('entrypoints', d, 'main.tsx'), 'utf8')),
    );
    expect(missing).toEqual([]);
  });

  it('elapsed times are messages too (units included)', () => {
    expect([formatElapsed(3_725_000), formatElapsed(65_000), formatElapsed(5_000)]).toEqual(['1 h 02 m', '1 m 05 s', '5 s']);
  });
});
