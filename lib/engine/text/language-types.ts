/** The shapes of language data, shared by its loader (language-data.ts) and its two sources. */
export type Stemmer = (word: string) => string;

/** What the detector answers (eld's result, as far as it is read). */
export interface Detector {
  detect(text: string): { language: string; isReliable(): boolean };
}

/** A piece of language data: at hand (returned), or loaded (a promise). */
export type Source<T> = () => T | Promise<T>;
