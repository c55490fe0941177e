/**
 * What differs between the browsers Forager runs in, behind one shape: background.ts asks for the platform and never
 * tests which browser it is in. One file per browser (chrome.ts, firefox.ts), as uBlock Origin keeps its platform
 * folders; the build's `import.meta.env.FIREFOX` picks one, so each package carries only its own.
 */
import type { BatteryAnswer, watchedEvents } from '../../lib/app';
import type { Evaluator } from '../../lib/engine';

/** Firefox's dns API (the polyfill's types do not cover it). */
export interface DnsApi {
  resolve(hostname: string): Promise<{ addresses: string[] }>;
}

export interface Platform {
  /** Where pages are parsed and scored: a Worker of Chrome's offscreen document, or Firefox's own Worker. */
  makeEvaluator(): Evaluator;
  /** The battery, when the background cannot read it itself (Chrome's worker asks its offscreen document). */
  battery(): Promise<BatteryAnswer>;
  /** Resolves host names before a request is sent (Firefox); absent where the browser has no such API. */
  dns(): DnsApi | undefined;
  /** The webRequest events that report each answer's address and each redirect's target in this browser. */
  webRequestEvents: ReturnType<typeof watchedEvents>;
  /** True where requests can be screened before they are sent (a blocking webRequest listener). */
  screensRequests: boolean;
}
