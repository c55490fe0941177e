/**
 * The crawl's network guards in the browser: declarativeNetRequest session rules block the extension's own requests
 * to private hosts by name (lib/app/adapters/network-guard.ts), and one AddressGuard per run checks the address every
 * answer came from, fed by webRequest events (and, where the platform can, screens each request's resolved address
 * before it is sent). No crawl runs without these APIs.
 */
import {
  AddressGuard,
  describeRefusedHosts,
  HostAdmission,
  type CrawlSettings,
  isOwnRequest,
  networkGuardRules,
  toReport,
  WATCH_FILTER,
  withRedirectSeeds,
  type WebRequestDetails,
  type WebRequestEventName,
} from '../../lib/app';
import { createFetcher, type Fetcher, type UrlPolicy } from '../../lib/engine';
import type { Platform } from '../platform/current';

/** The part of declarativeNetRequest the network guard uses (Chrome 84+, Firefox 113+ in MV3). */
interface DeclarativeNetRequest {
  getSessionRules(): Promise<{ id: number }[]>;
  updateSessionRules(options: { removeRuleIds?: number[]; addRules?: ReturnType<typeof networkGuardRules> }): Promise<void>;
}

/** A webRequest event, as far as the address guard uses it. */
interface WebRequestEvent {
  addListener(listener: (d: WebRequestDetails) => unknown, filter: typeof WATCH_FILTER, extraInfoSpec?: string[]): void;
  removeListener(listener: (d: WebRequestDetails) => unknown): void;
}
type WebRequestApi = Record<WebRequestEventName, WebRequestEvent>;

/** The browser APIs the network guards need, or an error saying which is missing: no crawl runs without them. */
function guardApis(platform: Platform): { dnr: DeclarativeNetRequest; webRequest: WebRequestApi } {
  const api = browser as unknown as { declarativeNetRequest?: DeclarativeNetRequest; webRequest?: WebRequestApi };
  if (!api.declarativeNetRequest?.updateSessionRules) throw new Error('the declarativeNetRequest API is not available');
  if (!api.webRequest?.onResponseStarted) throw new Error('the webRequest API is not available');
  if (platform.screensRequests && !platform.dns()?.resolve) throw new Error('the dns API is not available');
  return { dnr: api.declarativeNetRequest, webRequest: api.webRequest };
}

export function createRequestGuards(platform: Platform) {
  const ownOrigin = browser.runtime.getURL('/').replace(/\/$/, '');
  let addressGuard: AddressGuard | null = null;
  /** Fetchers open (one per run; a run winding down may overlap the next one's start). */
  let openFetchers = 0;
  const listeners = new Map<string, (d: WebRequestDetails) => unknown>();

  /** The address guard's webRequest listeners: on before a run's first request, off once no fetcher is open. */
  function watchRequests(on: boolean): void {
    const { webRequest } = guardApis(platform);
    const dns = platform.dns();
    const events = webRequest as unknown as Record<string, WebRequestEvent>;
    if (on && listeners.size === 0) {
      for (const [event, phase] of Object.entries(platform.webRequestEvents)) {
        const listener = (d: WebRequestDetails) => {
          if (addressGuard && isOwnRequest(d, ownOrigin)) addressGuard.report(toReport(phase, d));
        };
        // Firefox refuses an extraInfoSpec argument (even undefined) on events that take none.
        if (event === 'onHeadersReceived') events[event].addListener(listener, WATCH_FILTER, ['responseHeaders']);
        else events[event].addListener(listener, WATCH_FILTER);
        listeners.set(event, listener);
      }
      if (platform.screensRequests && dns) {
        // Hold each request until its host name is resolved: screen every one before it is sent.
        const screen = async (d: WebRequestDetails) => {
          const guard = addressGuard;
          if (!guard || !isOwnRequest(d, ownOrigin)) return {};
          const verdict = await guard.screen(d.requestId, d.url, async (host) => (await dns.resolve(host)).addresses);
          return verdict.ok ? {} : { cancel: true };
        };
        events.onBeforeRequest.addListener(screen, WATCH_FILTER, ['blocking']);
        listeners.set('screen', screen);
      }
    } else if (!on) {
      for (const [event, listener] of listeners) events[event === 'screen' ? 'onBeforeRequest' : event].removeListener(listener);
      listeners.clear();
    }
  }

  return {
    /** The run's address guard, while one is open (tests read its bans). */
    current: () => addressGuard,

    /** Installs the session rules for a run's policy; the runner starts no crawl unless this succeeded. */
    async guardNetwork(policy: UrlPolicy): Promise<void> {
      const { dnr } = guardApis(platform);
      const ownDomain = new URL(browser.runtime.getURL('/')).host;
      const addRules = networkGuardRules(ownDomain, policy.privateHosts);
      const removeRuleIds = (await dnr.getSessionRules()).map((r) => r.id);
      await dnr.updateSessionRules({ removeRuleIds, addRules });
      watchRequests(true);
    },

    /** Removes the session rules (the allow rules name the private hosts the user ticked): "Delete all data". */
    async release(): Promise<void> {
      const { dnr } = guardApis(platform);
      const removeRuleIds = (await dnr.getSessionRules()).map((r) => r.id);
      if (removeRuleIds.length) await dnr.updateSessionRules({ removeRuleIds });
    },

    /**
     * A run's fetcher: every request goes through a new address guard, fed by the browser's reports while open, and
     * the host admission, which bounds the new host names tried before their address is known (the seeds' are trusted).
     */
    makeFetcher(settings: CrawlSettings, urlPolicy: UrlPolicy, seeds: string[]): Fetcher {
      const admission = new HostAdmission(seeds);
      const guard = new AddressGuard({
        policy: urlPolicy,
        fetch: (input, init) => globalThis.fetch(input, init),
        onBan: (ban) => {
          admission.privateAnswer(ban.host, ban.detail);
          console.warn('[forager] refused', ban.detail);
        },
      });
      const admitted = admission.guardFetch(guard.fetch);
      addressGuard = guard;
      openFetchers++;
      watchRequests(true); // already on (guardNetwork), unless an earlier run's fetcher closed since
      const pages = createFetcher({
        politenessDelayMs: settings.politenessDelayMs,
        maxInFlight: 6,
        // Well below the 30 s after which Chrome kills a service worker waiting on one fetch.
        timeoutMs: 10_000,
        respectRobots: true,
        urlPolicy,
        fetch: admitted,
      });
      // Seeds that are an engine's opaque redirect link are resolved with one guarded request first.
      const fetcher = withRedirectSeeds(pages, { fetch: admitted, policy: urlPolicy });
      let closed = false;
      return admission.guardFetcher({
        ...fetcher,
        close() {
          const refused = describeRefusedHosts(admission.report());
          if (refused && !closed) console.warn('[forager]', refused);
          fetcher.close();
          if (closed) return;
          closed = true;
          if (--openFetchers === 0) {
            watchRequests(false);
            if (addressGuard === guard) addressGuard = null;
          }
        },
      });
    },
  };
}
