/**
 * The bounds every crawl setting must keep, wherever it comes from: the start form and the command line clamp or
 * refuse at the door (settings.ts, cli/args.ts); a setting read back from storage or from an imported file is checked
 * against the same bounds here, and a crawl whose settings break them is refused with the reason, never run.
 */
import type { CrawlSettings } from '../model/records';

/** Bounds of the numeric settings (inclusive), all whole numbers. */
export const SETTING_BOUNDS = {
  maxPages: { min: 1, max: 100_000 },
  maxBuffer: { min: 1, max: 100_000 },
  politenessDelayMs: { min: 0, max: 60_000 },
  /** The RNG seed: a positive 31-bit integer. */
  seed: { min: 1, max: 2_147_483_647 },
} as const;

/**
 * The most times a URL may be fetched again after a transient failure (`--retries`): the waits grow fourfold (2 s, 8 s,
 * ... 512 s before the fifth), and a site that fails that long is down, not busy.
 */
export const MAX_RETRIES = 5;

/** Bounds of the command line's request options (kept with its crawls as `settings.fetch`). */
export const FETCH_BOUNDS = {
  concurrency: { min: 1, max: 256 },
  timeoutMs: { min: 1, max: 600_000 },
  maxBytes: { min: 1024, max: 1024 * 1024 * 1024 },
  retries: { min: 0, max: MAX_RETRIES },
} as const;

type Bounds = { readonly min: number; readonly max: number };

function check(problems: string[], name: string, value: unknown, { min, max }: Bounds): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    const shown = typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value));
    problems.push(`${name} is ${shown.slice(0, 40)}, not a whole number from ${min} to ${max}`);
  }
}

/** What is out of bounds in `settings`, one phrase each ('maxPages is 1000000000000, not a whole number from 1 to 100000'). */
export function settingsProblems(settings: Partial<CrawlSettings>): string[] {
  const problems: string[] = [];
  for (const key of Object.keys(SETTING_BOUNDS) as (keyof typeof SETTING_BOUNDS)[]) {
    check(problems, key, settings[key], SETTING_BOUNDS[key]);
  }
  const fetch = settings.fetch;
  if (fetch !== undefined) {
    for (const key of Object.keys(FETCH_BOUNDS) as (keyof typeof FETCH_BOUNDS)[]) {
      if (key === 'retries' && fetch.retries === undefined) continue;
      check(problems, `fetch.${key}`, fetch[key], FETCH_BOUNDS[key]);
    }
  }
  return problems;
}
