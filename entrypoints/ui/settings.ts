/**
 * The user's defaults, set on the options page and kept in storage.local: the strategy, its parameters, the frontier
 * size and the politeness delay a new crawl starts with, and whether a notice shows when a crawl ends. The background
 * still validates and clamps every start request (lib/app/rules/settings.ts), so a stored value out of bounds cannot harm.
 */
import type { CrawlSettings } from '../../lib/app';
import { request } from './api';

export const USER_SETTINGS_KEY = 'forager.settings';
export const NOTIFY_KEY = 'forager.notifyOnEnd';

export type UserDefaults = Partial<
  Pick<CrawlSettings, 'strategy' | 'params' | 'maxBuffer' | 'politenessDelayMs' | 'stayOnSeedSites' | 'maxPages'>
>;

export async function loadUserDefaults(): Promise<UserDefaults> {
  const value = (await browser.storage.local.get(USER_SETTINGS_KEY))[USER_SETTINGS_KEY];
  return typeof value === 'object' && value !== null ? (value as UserDefaults) : {};
}

export async function saveUserDefaults(defaults: UserDefaults): Promise<void> {
  await browser.storage.local.set({ [USER_SETTINGS_KEY]: defaults });
}

/** The background's defaults with the user's on top. */
export async function loadDefaults(): Promise<CrawlSettings> {
  const [base, user] = await Promise.all([
    request({ type: 'forager/defaults' }),
    loadUserDefaults().catch((): UserDefaults => ({})),
  ]);
  const merged: CrawlSettings = { ...base, ...user, params: { ...base.params } };
  if (user.strategy === undefined || user.strategy === base.strategy) merged.params = { ...base.params, ...(user.params ?? {}) };
  else merged.params = { ...(user.params ?? {}) };
  return merged;
}
