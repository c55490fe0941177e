/**
 * Language data: what text analysis reads per language (a stop list, a stemmer) and the language detector, taken
 * from ./language-sources.ts. Text analysis is synchronous, so the data must be at hand when it runs: where a source
 * is a dynamic import (the extension's Worker, ./language-sources.lazy.ts), asking for data not loaded yet throws
 * {@link MissingLanguageData}, and {@link withLanguageData} loads what it names and runs the work again. Analysis is
 * a pure function of its input and the data, so the second run gives what one run with all data at hand gives.
 */
import { detectorSource, STEMMER_SOURCES, stopListSource } from './language-sources';
import type { Detector, Source, Stemmer } from './language-types';

export type { Detector, Source, Stemmer };

/** Data not loaded yet: `needs` names it ('stop:deu', 'stem:de', 'detector'). */
export class MissingLanguageData extends Error {
  constructor(readonly needs: string) {
    super(`language data not loaded: ${needs}`);
    this.name = 'MissingLanguageData';
  }
}

/** Data at hand, pending loads and failed ones, by the name MissingLanguageData uses. */
const loaded = new Map<string, unknown>();
const loading = new Map<string, Promise<void>>();
const failed = new Map<string, unknown>();

function get<T>(name: string, source: Source<T>): T {
  if (loaded.has(name)) return loaded.get(name) as T;
  if (!loading.has(name)) {
    const value = source();
    if (!(value instanceof Promise)) {
      loaded.set(name, value);
      return value;
    }
    loading.set(
      name,
      value.then(
        (v) => {
          loaded.set(name, v);
          loading.delete(name);
        },
        (error: unknown) => {
          // Kept for the one waiting; the next ask loads again (a failed fetch may succeed next time).
          failed.set(name, error);
          loading.delete(name);
        },
      ),
    );
  }
  throw new MissingLanguageData(name);
}

/** ISO 639-1 bases that have a stemmer. */
export const STEMMED_LANGUAGES: readonly string[] = Object.keys(STEMMER_SOURCES).sort();

/** Whether the ISO 639-1 base `base` has a stemmer (whether or not it is loaded). */
export function hasStemmer(base: string): boolean {
  return Object.hasOwn(STEMMER_SOURCES, base);
}

/** The stemmer of an ISO 639-1 base, or null when it has none; throws MissingLanguageData when it is not loaded. */
export function loadedStemmer(base: string): Stemmer | null {
  return hasStemmer(base) ? get(`stem:${base}`, STEMMER_SOURCES[base]) : null;
}

/** A `stopword` list ('eng', 'deu'), or null when there is none; throws MissingLanguageData when it is not loaded. */
export function loadedStopList(name: string): readonly string[] | null {
  const source = stopListSource(name);
  return source ? get(`stop:${name}`, source) : null;
}

/** The language detector; throws MissingLanguageData when it is not loaded. */
export function loadedDetector(): Detector {
  return get('detector', detectorSource);
}

/** Most loads one piece of work may need (its text's language, the detector, the detected language, the topic's). */
const MAX_LOADS = 8;

/**
 * Runs `work` (synchronous text analysis: an evaluation, a tokenization), loading the language data it asks for and
 * running it again, until it runs through. Its result is what it gives with all data at hand. Where all data is at
 * hand (Node), it is `work()` at once.
 */
export async function withLanguageData<T>(work: () => T): Promise<T> {
  for (let loads = 0; ; loads++) {
    try {
      return work();
    } catch (error) {
      if (!(error instanceof MissingLanguageData) || loads >= MAX_LOADS) throw error;
      await loading.get(error.needs);
      const failure = failed.get(error.needs);
      if (failed.delete(error.needs)) throw failure;
    }
  }
}
