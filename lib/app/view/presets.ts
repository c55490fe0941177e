/**
 * Quick / Standard / Deep: what the popup offers instead of raw numbers. Each is a page budget (and the frontier that
 * suits it); the strategy and its parameters come from the user's defaults (the options page).
 */
import type { CrawlSettings } from '../model/records';

export type PresetName = 'quick' | 'standard' | 'deep';

export const PRESETS: Record<PresetName, Pick<CrawlSettings, 'maxPages' | 'maxBuffer'>> = {
  quick: { maxPages: 50, maxBuffer: 256 },
  standard: { maxPages: 200, maxBuffer: 256 },
  deep: { maxPages: 1000, maxBuffer: 1000 },
};

export const PRESET_NAMES: PresetName[] = ['quick', 'standard', 'deep'];

/** The preset a budget matches, or null (a budget typed under More settings). */
export function presetOf(maxPages: number): PresetName | null {
  return PRESET_NAMES.find((p) => PRESETS[p].maxPages === maxPages) ?? null;
}

/** The settings with a preset applied. */
export function applyPreset(settings: CrawlSettings, preset: PresetName): CrawlSettings {
  return { ...settings, ...PRESETS[preset] };
}
