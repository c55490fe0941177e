/**
 * The notice at a crawl's end (and a watch's "N new pages"), when the user turned it on on the options page
 * (`notifications` is an optional permission). A click on a notice opens its crawl.
 */
import type { EndNotice } from '../../lib/app';

/** storage.local key of the options page's "tell me when a crawl ends" (entrypoints/ui/settings.ts NOTIFY_KEY). */
const NOTIFY_KEY = 'forager.notifyOnEnd';
const PREFIX = 'forager-end-';

export function createEndNotices() {
  /** The notices decided on, newest last (tests read them; 20 kept): whether each was shown, and the browser's id. */
  const decided: (EndNotice & { shown: boolean; created?: string })[] = [];
  let listening = false;

  /** `notifications` exists only once granted: listened to at start-up when it is, else once the options page gets it. */
  function listen(): void {
    if (listening || !browser.notifications?.onClicked) return;
    listening = true;
    browser.notifications.onClicked.addListener((id) => {
      if (!id.startsWith(PREFIX)) return;
      const crawlId = id.slice(PREFIX.length);
      void browser.tabs.create({ url: `${browser.runtime.getURL('/results.html')}#/crawl/${encodeURIComponent(crawlId)}` });
    });
  }

  async function notify(notice: EndNotice): Promise<void> {
    const on =
      !!(await browser.storage.local.get(NOTIFY_KEY))[NOTIFY_KEY] &&
      (await browser.permissions.contains({ permissions: ['notifications'] }));
    const entry: (typeof decided)[number] = { ...notice, shown: on };
    decided.push(entry);
    if (decided.length > 20) decided.shift();
    if (!on) return;
    listen();
    entry.created = await browser.notifications.create(`${PREFIX}${notice.crawlId}`, {
      type: 'basic',
      iconUrl: browser.runtime.getURL('/icon/128.png'),
      title: notice.title,
      message: notice.message,
    });
  }

  listen();
  browser.permissions.onAdded?.addListener(() => listen());
  return { notify, decided };
}
