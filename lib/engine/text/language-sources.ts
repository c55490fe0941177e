/**
 * Where each language's data comes from: the stop lists (`stopword`), the stemmers (Porter from `stemmer` for English,
 * Snowball from `@orama/stemmers` for the others) and the language detector (`eld`, its smallest n-gram database).
 *
 * Here every source is at hand at once (static imports): Node (command line, lab, tests) and the extension's service
 * worker and pages, which cannot or need not wait. The extension's evaluator Worker is built with
 * ./language-sources.lazy.ts in this module's place (wxt.config.ts): there, all but English is a dynamic import, a
 * chunk of its own fetched when a page's language first needs it. Both modules export the same names.
 */
import { stemmer as arabic } from '@orama/stemmers/arabic';
import { stemmer as armenian } from '@orama/stemmers/armenian';
import { stemmer as bulgarian } from '@orama/stemmers/bulgarian';
import { stemmer as danish } from '@orama/stemmers/danish';
import { stemmer as dutch } from '@orama/stemmers/dutch';
import { stemmer as finnish } from '@orama/stemmers/finnish';
import { stemmer as french } from '@orama/stemmers/french';
import { stemmer as german } from '@orama/stemmers/german';
import { stemmer as greek } from '@orama/stemmers/greek';
import { stemmer as hindi } from '@orama/stemmers/indian';
import { stemmer as hungarian } from '@orama/stemmers/hungarian';
import { stemmer as indonesian } from '@orama/stemmers/indonesian';
import { stemmer as irish } from '@orama/stemmers/irish';
import { stemmer as italian } from '@orama/stemmers/italian';
import { stemmer as lithuanian } from '@orama/stemmers/lithuanian';
import { stemmer as nepali } from '@orama/stemmers/nepali';
import { stemmer as norwegian } from '@orama/stemmers/norwegian';
import { stemmer as portuguese } from '@orama/stemmers/portuguese';
import { stemmer as romanian } from '@orama/stemmers/romanian';
import { stemmer as russian } from '@orama/stemmers/russian';
import { stemmer as serbian } from '@orama/stemmers/serbian';
import { stemmer as spanish } from '@orama/stemmers/spanish';
import { stemmer as swedish } from '@orama/stemmers/swedish';
import { stemmer as tamil } from '@orama/stemmers/tamil';
import { stemmer as turkish } from '@orama/stemmers/turkish';
import { stemmer as ukrainian } from '@orama/stemmers/ukrainian';
import { eld } from 'eld/extrasmall';
import { stemmer as porter } from 'stemmer';
import * as stopword from 'stopword';
import type { Detector, Source, Stemmer } from './language-types';

const lists = stopword as unknown as Record<string, readonly string[]>;

/** ISO 639-1 code -> its stemmer. Languages without one (Chinese, Japanese, Korean: bigrams; Polish, Czech...) stay unstemmed. */
export const STEMMER_SOURCES: Readonly<Record<string, Source<Stemmer>>> = {
  ar: () => arabic,
  bg: () => bulgarian,
  da: () => danish,
  de: () => german,
  el: () => greek,
  en: () => porter,
  es: () => spanish,
  fi: () => finnish,
  fr: () => french,
  ga: () => irish,
  hi: () => hindi,
  hu: () => hungarian,
  hy: () => armenian,
  id: () => indonesian,
  it: () => italian,
  lt: () => lithuanian,
  ne: () => nepali,
  nl: () => dutch,
  no: () => norwegian,
  pt: () => portuguese,
  ro: () => romanian,
  ru: () => russian,
  sr: () => serbian,
  sv: () => swedish,
  ta: () => tamil,
  tr: () => turkish,
  uk: () => ukrainian,
};

/** The stop list of a `stopword` list name ('eng', 'deu', 'porBr'), or undefined when the package has none. */
export function stopListSource(name: string): Source<readonly string[]> | undefined {
  const list = Object.hasOwn(lists, name) ? lists[name] : undefined;
  return list ? () => list : undefined;
}

/** The language detector. */
export const detectorSource: Source<Detector> = () => eld;
