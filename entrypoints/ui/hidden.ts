/**
 * Results the user hid, per crawl, in storage.local (the crawl itself keeps every page: exports are unchanged).
 */
import { useEffect, useState } from 'preact/hooks';

const KEY = 'forager.hidden';
type HiddenMap = Record<string, string[]>;

async function readAll(): Promise<HiddenMap> {
  const value = (await browser.storage.local.get(KEY))[KEY];
  return typeof value === 'object' && value !== null ? (value as HiddenMap) : {};
}

/** The hidden URLs of a crawl and a function that hides one more. */
export function useHidden(crawlId: string | undefined): [ReadonlySet<string>, (url: string) => void] {
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => {
    setHidden(new Set());
    if (!crawlId) return;
    let alive = true;
    void readAll().then((all) => alive && setHidden(new Set(all[crawlId] ?? [])));
    return () => {
      alive = false;
    };
  }, [crawlId]);
  const hide = (url: string) => {
    if (!crawlId) return;
    setHidden((cur) => new Set([...cur, url]));
    void readAll().then((all) => {
      const list = new Set(all[crawlId] ?? []);
      list.add(url);
      return browser.storage.local.set({ [KEY]: { ...all, [crawlId]: [...list] } });
    });
  };
  return [hidden, hide];
}
