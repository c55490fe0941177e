import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseHTML } from 'linkedom';
import { h, render } from 'preact';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Preact renders through the global document; linkedom provides one under Node.
const { document, window } = parseHTML('<!doctype html><html><body><div id="root"></div></body></html>');
const saved: Record<string, unknown> = {};
beforeAll(() => {
  for (const [k, v] of Object.entries({ document, window, Node: window.Node, Element: window.Element })) {
    saved[k] = (globalThis as Record<string, unknown>)[k];
    (globalThis as Record<string, unknown>)[k] = v;
  }
});
afterAll(() => {
  for (const [k, v] of Object.entries(saved)) (globalThis as Record<string, unknown>)[k] = v;
});

async function renderMarkdown(source: string): Promise<Element> {
  const { Markdown } = await import('../../entrypoints/options/markdown');
  const root = document.getElementById('root')!;
  render(null, root as unknown as Element);
  render(h(Markdown, { source }), root as unknown as Element);
  return root as unknown as Element;
}

const privacy = readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../PRIVACY.md'), 'utf8');

describe('the options page shows PRIVACY.md', () => {
  it('as headings, paragraphs and lists, with no Markdown left over and no word lost', async () => {
    const root = await renderMarkdown(privacy);
    const headings = [...privacy.matchAll(/^(#+) (.+)$/gm)];
    expect([...root.querySelectorAll('h2, h3')].map((e) => e.textContent)).toEqual(headings.map((m) => m[2]));
    expect(root.querySelector('h2')!.textContent).toBe('Forager and your data');
    expect(root.querySelectorAll('ul li').length).toBe([...privacy.matchAll(/^- /gm)].length);
    const text = root.textContent ?? '';
    for (const leftover of ['**', '## ', '\n- ', '`']) expect(text).not.toContain(leftover);
    // Every word of the document is on the page (Markdown marks aside), in order; text nodes are read one by one,
    // as textContent runs the words of adjacent blocks together.
    const texts: string[] = [];
    const walk = (node: Node) => {
      if (node.nodeType === 3) texts.push(node.textContent ?? '');
      for (const child of Array.from(node.childNodes)) walk(child);
    };
    walk(root);
    const words = (s: string) => s.replace(/[*`#]/g, ' ').split(/\s+/).filter(Boolean);
    expect(words(texts.join(' '))).toEqual(words(privacy).filter((w) => w !== '-'));
    expect(root.querySelectorAll('strong').length).toBeGreaterThan(0);
    expect([...root.querySelectorAll('code')].map((c) => c.textContent)).toContain('/robots.txt');
  });

  it('renders markup in the document as text, and no link but https', async () => {
    const root = await renderMarkdown(
      'A <img src=x onerror=alert(1)> and `<b>code</b> &amp;` and [a](javascript:alert(2)) and [b](https://example.org/).\n\n<script>alert(3)</script>',
    );
    expect(root.querySelectorAll('img, script, b').length).toBe(0);
    expect(root.textContent).toContain('<img src=x onerror=alert(1)>');
    expect(root.querySelector('code')!.textContent).toBe('<b>code</b> &amp;');
    expect([...root.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual(['https://example.org/']);
    expect(root.querySelector('a')!.getAttribute('rel')).toContain('noopener');
  });
});
