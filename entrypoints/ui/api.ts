/**
 * The UI side of lib/app/model/protocol: typed requests to the background and a live subscription that survives the
 * background restarting (a new service worker drops every port; the client reconnects and gets a fresh snapshot).
 */
import {
  type AnswerOf,
  LIVE_PORT,
  type LiveClientMessage,
  type LiveServerMessage,
  MAX_WINDOW,
  type Reply,
  type RequestOf,
  type RequestType,
} from '../../lib/app';
import { errorMessage, type PageResult } from '../../lib/engine';
import { t } from './i18n';

/** Every page of a crawl, read one window per message (a message has a size limit). */
export async function allPages(id: string): Promise<PageResult[]> {
  const out: PageResult[] = [];
  for (let offset = 0; ; offset += MAX_WINDOW) {
    const chunk = await request({ type: 'forager/pages', id, offset, limit: MAX_WINDOW });
    out.push(...chunk);
    if (chunk.length < MAX_WINDOW) return out;
  }
}

/** Sends a request; resolves to its answer or rejects with the background's message for the user. */
export async function request<T extends RequestType>(req: RequestOf<T>): Promise<AnswerOf<T>> {
  let reply: Reply<AnswerOf<T>> | undefined;
  try {
    reply = (await browser.runtime.sendMessage(req)) as Reply<AnswerOf<T>> | undefined;
  } catch (error) {
    throw new Error(t('backgroundNotAnswering', errorMessage(error)));
  }
  if (!reply) throw new Error(t('backgroundNoAnswer'));
  if (!reply.ok) throw new Error(reply.error);
  return reply.value;
}

/**
 * Follows live updates: `subscribe` is sent on every (re)connection, so each connection starts with a snapshot.
 * Returns a function that ends the subscription.
 */
export function connectLive(subscribe: LiveClientMessage, onMessage: (m: LiveServerMessage) => void): () => void {
  let closed = false;
  let port: ReturnType<typeof browser.runtime.connect> | null = null;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const open = () => {
    if (closed) return;
    try {
      port = browser.runtime.connect({ name: LIVE_PORT });
    } catch {
      retry = setTimeout(open, 500);
      return;
    }
    port.onMessage.addListener((m: unknown) => onMessage(m as LiveServerMessage));
    port.onDisconnect.addListener(() => {
      port = null;
      if (!closed) retry = setTimeout(open, 300);
    });
    port.postMessage(subscribe);
  };
  open();
  return () => {
    closed = true;
    if (retry !== undefined) clearTimeout(retry);
    port?.disconnect();
  };
}

/** Asks for access to all sites. Must be the first thing a click handler does (the prompt needs the user gesture). */
export function requestSiteAccess(): Promise<boolean> {
  return browser.permissions.request({ origins: ['<all_urls>'] }).catch(() => false);
}

/** Opens an extension page (results view) in a new tab next to the current one. */
export function openResultsPage(hash = '#/'): void {
  void browser.tabs.create({ url: browser.runtime.getURL('/results.html') + hash });
}

/** The library page (search over every crawl) in a new tab. */
export function openLibrary(): void {
  void browser.tabs.create({ url: browser.runtime.getURL('/library.html') });
}

/** Opens pages in background tabs, in order, next to the current tab. Resolves to the new tabs' ids. */
export async function openInBackground(urls: string[]): Promise<number[]> {
  const ids: number[] = [];
  for (const url of urls) {
    const tab = await browser.tabs.create({ url, active: false });
    if (tab.id !== undefined) ids.push(tab.id);
  }
  return ids;
}

/**
 * Opens pages in background tabs and puts them in one new tab group where the browser has `tabs.group` (Chrome 88+,
 * Firefox 138+; neither asks for a permission to group, only to name a group, which is not done: Chrome's
 * "tabGroups" shows an install warning, "View and manage your tab groups"). Where it is missing or refuses, the tabs stay open ungrouped.
 * Resolves to the group's id, or undefined.
 */
export async function openInGroup(urls: string[]): Promise<number | undefined> {
  const ids = await openInBackground(urls);
  const [first, ...rest] = ids;
  const tabs = browser.tabs as Partial<Pick<typeof browser.tabs, 'group'>>;
  if (first === undefined || rest.length === 0 || typeof tabs.group !== 'function') return undefined;
  try {
    return await tabs.group({ tabIds: [first, ...rest] });
  } catch {
    return undefined;
  }
}

/** Copies text to the clipboard (a click handler's user gesture allows it in both browsers). */
export async function copyText(text: string): Promise<void> {
  await navigator.clipboard.writeText(text);
  // For tests: headless browsers may refuse clipboard reads.
  (globalThis as { foragerLastCopy?: string }).foragerLastCopy = text;
}

/** "1 m 05 s" style elapsed time. */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (h) return t('elapsedHours', h, String(m).padStart(2, '0'));
  if (m) return t('elapsedMinutes', m, String(sec).padStart(2, '0'));
  return t('elapsedSeconds', sec);
}
