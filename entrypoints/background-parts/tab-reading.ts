/**
 * Reading the user's tab: the results page the popup was opened on (the serp-reader content script, through
 * activeTab + scripting), and the title, headings and text around a link for "Crawl from here".
 */
import { type PageText, type TabContext, toSerpInfo } from '../../lib/app';
import { errorMessage } from '../../lib/engine';

/**
 * Runs in the tab (serialized by scripting.executeScript, so self-contained): the page's title, first headings and
 * lang, for a topic; the text of the block holding the clicked link; the first paragraph of the main text.
 */
export function readPageText(linkUrl: string | null): PageText {
  const clean = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim().slice(0, 600);
  const headings = Array.from(document.querySelectorAll('h1, h2'))
    .slice(0, 6)
    .map((h) => clean(h.textContent));
  const out: PageText = { title: document.title, headings };
  if (document.documentElement.lang) out.lang = document.documentElement.lang;
  if (linkUrl) {
    const link = Array.from(document.querySelectorAll('a[href]')).find((a) => (a as HTMLAnchorElement).href === linkUrl);
    const block = link?.closest('p, li, dd, td, blockquote, figcaption, h1, h2, h3, h4, h5, h6');
    const text = clean(block?.textContent);
    if (text) out.linkContext = text;
  }
  const main = document.querySelector('main, article, [role="main"]') ?? document.body;
  const intro = Array.from(main?.querySelectorAll('p') ?? [])
    .map((p) => clean(p.textContent))
    .find((t) => t.split(' ').length >= 8);
  if (intro) out.intro = intro;
  return out;
}

/** Reads the tab the popup was opened on with the results-page content script (activeTab + scripting). */
export async function inspectTab(tabId: number): Promise<TabContext> {
  const tab = await browser.tabs.get(tabId);
  const context: TabContext = { tabId, url: tab.url ?? '', title: tab.title ?? '', serp: null };
  try {
    const [first] = await browser.scripting.executeScript({ target: { tabId }, files: ['/serp-reader.js'] });
    const raw = first?.result as { error?: unknown } | undefined;
    if (raw && typeof raw.error === 'string') context.error = raw.error;
    context.serp = toSerpInfo(raw);
  } catch (error) {
    context.error = `Forager cannot read this tab (${errorMessage(error)}).`;
  }
  return context;
}
