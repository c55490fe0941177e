/**
 * Where each language's data comes from, in the extension's evaluator Worker (wxt.config.ts builds the Worker with
 * this module in place of ./language-sources.ts; both export the same names). English, the default and the fallback
 * of languages without a stop list, is at hand at once; every other stop list and stemmer, and the language detector,
 * is a dynamic import: a chunk of its own, fetched the first time a page's language needs it
 * (./language-data.ts withLanguageData).
 */
import { stemmer as porter } from 'stemmer';
import { eng } from 'stopword/src/stopwords_eng.js';
import type { Detector, Source, Stemmer } from './language-types';

/** ISO 639-1 code -> its stemmer (the same table as ./language-sources.ts). */
export const STEMMER_SOURCES: Readonly<Record<string, Source<Stemmer>>> = {
  ar: () => import('@orama/stemmers/arabic').then((m) => m.stemmer),
  bg: () => import('@orama/stemmers/bulgarian').then((m) => m.stemmer),
  da: () => import('@orama/stemmers/danish').then((m) => m.stemmer),
  de: () => import('@orama/stemmers/german').then((m) => m.stemmer),
  el: () => import('@orama/stemmers/greek').then((m) => m.stemmer),
  en: () => porter,
  es: () => import('@orama/stemmers/spanish').then((m) => m.stemmer),
  fi: () => import('@orama/stemmers/finnish').then((m) => m.stemmer),
  fr: () => import('@orama/stemmers/french').then((m) => m.stemmer),
  ga: () => import('@orama/stemmers/irish').then((m) => m.stemmer),
  hi: () => import('@orama/stemmers/indian').then((m) => m.stemmer),
  hu: () => import('@orama/stemmers/hungarian').then((m) => m.stemmer),
  hy: () => import('@orama/stemmers/armenian').then((m) => m.stemmer),
  id: () => import('@orama/stemmers/indonesian').then((m) => m.stemmer),
  it: () => import('@orama/stemmers/italian').then((m) => m.stemmer),
  lt: () => import('@orama/stemmers/lithuanian').then((m) => m.stemmer),
  ne: () => import('@orama/stemmers/nepali').then((m) => m.stemmer),
  nl: () => import('@orama/stemmers/dutch').then((m) => m.stemmer),
  no: () => import('@orama/stemmers/norwegian').then((m) => m.stemmer),
  pt: () => import('@orama/stemmers/portuguese').then((m) => m.stemmer),
  ro: () => import('@orama/stemmers/romanian').then((m) => m.stemmer),
  ru: () => import('@orama/stemmers/russian').then((m) => m.stemmer),
  sr: () => import('@orama/stemmers/serbian').then((m) => m.stemmer),
  sv: () => import('@orama/stemmers/swedish').then((m) => m.stemmer),
  ta: () => import('@orama/stemmers/tamil').then((m) => m.stemmer),
  tr: () => import('@orama/stemmers/turkish').then((m) => m.stemmer),
  uk: () => import('@orama/stemmers/ukrainian').then((m) => m.stemmer),
};

/** `stopword` list name -> its list. */
const STOP_LISTS: Readonly<Record<string, Source<readonly string[]>>> = {
  eng: () => eng,
  afr: () => import('stopword/src/stopwords_afr.js').then((m) => m.afr),
  ara: () => import('stopword/src/stopwords_ara.js').then((m) => m.ara),
  ben: () => import('stopword/src/stopwords_ben.js').then((m) => m.ben),
  bre: () => import('stopword/src/stopwords_bre.js').then((m) => m.bre),
  bul: () => import('stopword/src/stopwords_bul.js').then((m) => m.bul),
  cat: () => import('stopword/src/stopwords_cat.js').then((m) => m.cat),
  ces: () => import('stopword/src/stopwords_ces.js').then((m) => m.ces),
  dan: () => import('stopword/src/stopwords_dan.js').then((m) => m.dan),
  deu: () => import('stopword/src/stopwords_deu.js').then((m) => m.deu),
  ell: () => import('stopword/src/stopwords_ell.js').then((m) => m.ell),
  epo: () => import('stopword/src/stopwords_epo.js').then((m) => m.epo),
  est: () => import('stopword/src/stopwords_est.js').then((m) => m.est),
  eus: () => import('stopword/src/stopwords_eus.js').then((m) => m.eus),
  fas: () => import('stopword/src/stopwords_fas.js').then((m) => m.fas),
  fin: () => import('stopword/src/stopwords_fin.js').then((m) => m.fin),
  fra: () => import('stopword/src/stopwords_fra.js').then((m) => m.fra),
  gle: () => import('stopword/src/stopwords_gle.js').then((m) => m.gle),
  glg: () => import('stopword/src/stopwords_glg.js').then((m) => m.glg),
  guj: () => import('stopword/src/stopwords_guj.js').then((m) => m.guj),
  hau: () => import('stopword/src/stopwords_hau.js').then((m) => m.hau),
  heb: () => import('stopword/src/stopwords_heb.js').then((m) => m.heb),
  hin: () => import('stopword/src/stopwords_hin.js').then((m) => m.hin),
  hrv: () => import('stopword/src/stopwords_hrv.js').then((m) => m.hrv),
  hun: () => import('stopword/src/stopwords_hun.js').then((m) => m.hun),
  hye: () => import('stopword/src/stopwords_hye.js').then((m) => m.hye),
  ind: () => import('stopword/src/stopwords_ind.js').then((m) => m.ind),
  ita: () => import('stopword/src/stopwords_ita.js').then((m) => m.ita),
  jpn: () => import('stopword/src/stopwords_jpn.js').then((m) => m.jpn),
  kor: () => import('stopword/src/stopwords_kor.js').then((m) => m.kor),
  kur: () => import('stopword/src/stopwords_kur.js').then((m) => m.kur),
  lat: () => import('stopword/src/stopwords_lat.js').then((m) => m.lat),
  lav: () => import('stopword/src/stopwords_lav.js').then((m) => m.lav),
  lit: () => import('stopword/src/stopwords_lit.js').then((m) => m.lit),
  mar: () => import('stopword/src/stopwords_mar.js').then((m) => m.mar),
  msa: () => import('stopword/src/stopwords_msa.js').then((m) => m.msa),
  mya: () => import('stopword/src/stopwords_mya.js').then((m) => m.mya),
  nld: () => import('stopword/src/stopwords_nld.js').then((m) => m.nld),
  nob: () => import('stopword/src/stopwords_nob.js').then((m) => m.nob),
  panGu: () => import('stopword/src/stopwords_panGu.js').then((m) => m.panGu),
  pol: () => import('stopword/src/stopwords_pol.js').then((m) => m.pol),
  por: () => import('stopword/src/stopwords_por.js').then((m) => m.por),
  porBr: () => import('stopword/src/stopwords_porBr.js').then((m) => m.porBr),
  ron: () => import('stopword/src/stopwords_ron.js').then((m) => m.ron),
  rus: () => import('stopword/src/stopwords_rus.js').then((m) => m.rus),
  slk: () => import('stopword/src/stopwords_slk.js').then((m) => m.slk),
  slv: () => import('stopword/src/stopwords_slv.js').then((m) => m.slv),
  som: () => import('stopword/src/stopwords_som.js').then((m) => m.som),
  sot: () => import('stopword/src/stopwords_sot.js').then((m) => m.sot),
  spa: () => import('stopword/src/stopwords_spa.js').then((m) => m.spa),
  swa: () => import('stopword/src/stopwords_swa.js').then((m) => m.swa),
  swe: () => import('stopword/src/stopwords_swe.js').then((m) => m.swe),
  tgl: () => import('stopword/src/stopwords_tgl.js').then((m) => m.tgl),
  tha: () => import('stopword/src/stopwords_tha.js').then((m) => m.tha),
  tur: () => import('stopword/src/stopwords_tur.js').then((m) => m.tur),
  ukr: () => import('stopword/src/stopwords_ukr.js').then((m) => m.ukr),
  urd: () => import('stopword/src/stopwords_urd.js').then((m) => m.urd),
  vie: () => import('stopword/src/stopwords_vie.js').then((m) => m.vie),
  yor: () => import('stopword/src/stopwords_yor.js').then((m) => m.yor),
  zho: () => import('stopword/src/stopwords_zho.js').then((m) => m.zho),
  zul: () => import('stopword/src/stopwords_zul.js').then((m) => m.zul),
};

/** The stop list of a `stopword` list name ('eng', 'deu', 'porBr'), or undefined when there is none. */
export function stopListSource(name: string): Source<readonly string[]> | undefined {
  return Object.hasOwn(STOP_LISTS, name) ? STOP_LISTS[name] : undefined;
}

/** The language detector. */
export const detectorSource: Source<Detector> = () => import('eld/extrasmall').then((m) => m.eld);
