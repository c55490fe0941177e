/**
 * The context menu "Crawl from here" (page, link, selection): opens the start view of the results page in a tab with
 * a draft made from what was clicked (a popup cannot be opened from a menu click in every browser; a tab works in both).
 */
import { draftFromMenu, type MenuClick, type PageText, startHash } from '../../lib/app';
import { t } from '../ui/i18n';
import { readPageText } from './tab-reading';

const MENU_ID = 'forager-crawl-from-here';

export type MenuTab = { id?: number; url?: string; title?: string; index?: number };

export async function onMenuClick(info: MenuClick & { menuItemId?: string | number }, tab?: MenuTab): Promise<void> {
  if (info.menuItemId !== undefined && info.menuItemId !== MENU_ID) return;
  let page: PageText | undefined;
  if (tab?.id !== undefined && tab.id >= 0 && !info.selectionText) {
    try {
      // The menu click grants activeTab, enough to read the title and headings.
      const [first] = await browser.scripting.executeScript({
        target: { tabId: tab.id },
        func: readPageText,
        args: [info.linkUrl ?? null],
      });
      page = first?.result as PageText | undefined;
    } catch {
      // chrome:// pages, PDF viewer...: the tab title will do
    }
  }
  const draft = draftFromMenu(info, tab, page);
  await browser.tabs.create({
    url: browser.runtime.getURL('/results.html') + startHash(draft),
    ...(tab?.index !== undefined ? { index: tab.index + 1 } : {}),
  });
}

export function installContextMenu(): void {
  void browser.contextMenus
    .removeAll()
    .then(() =>
      browser.contextMenus.create({ id: MENU_ID, title: t('menuCrawlFromHere'), contexts: ['page', 'link', 'selection'] }),
    );
  browser.contextMenus.onClicked.addListener((info, tab) => void onMenuClick(info as MenuClick & { menuItemId: string }, tab));
}
