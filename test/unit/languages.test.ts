import { describe, expect, it } from 'vitest';
import { evaluatePage, OTHER_LANGUAGE_WEIGHT } from '../../lib/engine/html/evaluate';
import { baseLanguage, detectLanguage, STEMMED_LANGUAGES, topicLanguage } from '../../lib/engine/text/language';
import { tokenize } from '../../lib/engine/text/tokenize';
import type { Topic } from '../../lib/engine/types';

const enc = (s: string) => new TextEncoder().encode(s);

/** About 40 words of running text per language (written for these tests). */
const TEXT = {
  de: 'Die Katzen schlafen gern in der Sonne. Eine Katze braucht frisches Wasser, gutes Futter und einen ruhigen Platz zum Schlafen. Junge Katzen spielen viel und lernen dabei, wie man jagt. Ältere Tiere werden ruhiger und suchen die Nähe ihrer Menschen.',
  fr: 'Les chats dorment volontiers au soleil. Un chat a besoin d’eau fraîche, d’une bonne nourriture et d’un endroit calme pour dormir. Les jeunes chats jouent beaucoup et apprennent ainsi à chasser. Les animaux plus âgés deviennent calmes et cherchent la compagnie de leurs maîtres.',
  es: 'Los gatos duermen con gusto al sol. Un gato necesita agua fresca, buena comida y un lugar tranquilo para dormir. Los gatos jóvenes juegan mucho y así aprenden a cazar. Los animales mayores se vuelven más tranquilos y buscan la cercanía de sus dueños.',
  ru: 'Кошки любят спать на солнце. Кошке нужна свежая вода, хорошая еда и тихое место для сна. Молодые кошки много играют и так учатся охотиться. Пожилые животные становятся спокойнее и ищут близости своих хозяев.',
  ja: '猫は日なたで眠るのが好きです。猫には新鮮な水と良い食事、そして静かな寝場所が必要です。子猫はよく遊び、遊びながら狩りを覚えます。年を取った猫は落ち着いて、飼い主のそばにいたがります。',
  en: 'Cats like to sleep in the sun. A cat needs fresh water, good food and a quiet place to sleep. Young cats play a lot and learn to hunt that way. Older animals become calmer and seek the company of their owners.',
};

function page(lang: string | null, text: string, title = 'Page'): Uint8Array {
  const attr = lang === null ? '' : ` lang="${lang}"`;
  return enc(`<!doctype html><html${attr}><head><title>${title}</title></head><body><main><p>${text}</p></main></body></html>`);
}

function evaluate(body: Uint8Array, topic: Topic) {
  return evaluatePage({ url: 'https://example.com/p.html', body, contentType: 'text/html; charset=utf-8', topic });
}

describe('stemming in the page’s language (Snowball)', () => {
  it('stems German, French, Spanish and Russian inflections to one term; English stays Porter', () => {
    expect(tokenize('Katze Katzen', 'de')).toEqual(['katz', 'katz']);
    expect(tokenize('chat chats', 'fr')).toEqual(['chat', 'chat']);
    expect(tokenize('gato gatos', 'es')).toEqual(['gat', 'gat']);
    expect(tokenize('кошка кошки кошке', 'ru')).toEqual(['кошк', 'кошк', 'кошк']);
    expect(tokenize('running runs', 'en')).toEqual(['run', 'run']);
    expect(tokenize('generalization', 'en')).toEqual(['gener']); // Porter (1980), not Porter2 ("general")
  });

  it('covers at least the 15 most used European languages but Polish and Czech, which Snowball lacks', () => {
    for (const l of [
      'ru',
      'de',
      'en',
      'fr',
      'it',
      'es',
      'uk',
      'ro',
      'nl',
      'tr',
      'el',
      'hu',
      'pt',
      'sv',
      'bg',
      'sr',
      'da',
      'fi',
      'no',
    ]) {
      expect(STEMMED_LANGUAGES, l).toContain(l);
    }
  });

  it('keeps CJK in bigrams and drops the stop words of each language', () => {
    expect(tokenize('子猫', 'ja')).toEqual(['子猫']);
    expect(tokenize('猫は日なたで', 'ja')).toEqual(['猫は', 'は日', '日な', 'なた', 'たで']);
    expect(tokenize('der und die Katze', 'de')).toEqual(['katz']);
    expect(tokenize('и в на кошка', 'ru')).toEqual(['кошк']);
  });

  it('stems a language that has a stemmer but no stop list (Serbian), and treats an unknown language as English', () => {
    expect(tokenize('mačke mačka', 'sr')).toEqual(['mačk', 'mačk']);
    expect(tokenize('the cats', 'xx')).toEqual(['cat']);
  });
});

describe('language tags and detection', () => {
  it('reduces tags to their ISO 639-1 base', () => {
    expect(baseLanguage('de-DE')).toBe('de');
    expect(baseLanguage('pt_BR')).toBe('pt');
    expect(baseLanguage('EN')).toBe('en');
    expect(baseLanguage('nb')).toBe('no');
    expect(baseLanguage('iw')).toBe('he');
    expect(baseLanguage('zh-Hant-TW')).toBe('zh');
    expect(baseLanguage('')).toBeUndefined();
    expect(baseLanguage('x-klingon')).toBeUndefined();
    expect(baseLanguage(undefined)).toBeUndefined();
  });

  it('detects German, French, Spanish, Russian, Japanese and English from a few sentences', () => {
    for (const [lang, text] of Object.entries(TEXT)) expect(detectLanguage(text), lang).toBe(lang);
  });

  it('says nothing when unsure', () => {
    expect(detectLanguage('')).toBeUndefined();
    expect(detectLanguage('12 34 !!')).toBeUndefined();
    expect(detectLanguage('Coffee brewing text.')).toBeUndefined(); // too short to be sure of
    expect(detectLanguage('Katzen schlafen gern')).toBeUndefined();
  });

  it('reads a topic’s language from the query and snippets first, then the page’s lang, then the query alone', () => {
    const snippets = [TEXT.de.slice(0, 120), TEXT.de.slice(120)];
    // A German query on an English interface: the snippets decide.
    expect(topicLanguage({ keywords: 'Katzen Futter', context: snippets, pageLang: 'en-US' })).toBe('de');
    // Two words and no snippets: the results page's lang.
    expect(topicLanguage({ keywords: 'Katzen Futter', pageLang: 'de-AT' })).toBe('de');
    expect(topicLanguage({ keywords: 'python', context: [] })).toBeUndefined();
    expect(topicLanguage({ keywords: TEXT.fr })).toBe('fr');
  });
});

describe('pages in another language than the topic’s', () => {
  const cats: Record<string, Topic> = {
    de: { keywords: 'Katzen schlafen', language: 'de' },
    fr: { keywords: 'chats dormir', language: 'fr' },
    es: { keywords: 'gatos dormir', language: 'es' },
    ru: { keywords: 'кошки спать', language: 'ru' },
    ja: { keywords: '子猫 遊び', language: 'ja' },
    en: { keywords: 'cats sleep', language: 'en' },
  };

  it('scores each page against a topic in its language, through inflections', () => {
    for (const lang of ['de', 'fr', 'es', 'ru', 'ja'] as const) {
      const r = evaluate(page(lang, TEXT[lang]), cats[lang]);
      expect(r.language, lang).toBe(lang);
      expect(r.score, lang).toBeGreaterThan(0.1);
    }
    // "Katzen schlafen" finds "Katze", "Katzen" and "Schlafen" alike.
    const de = evaluate(page('de', TEXT.de), cats.de);
    expect(de.terms.katz).toBe(3);
  });

  it('scores a page in another language low, unless the topic takes all languages', () => {
    const body = page('de', `${TEXT.de} Python Python`);
    const topic: Topic = { keywords: 'python', language: 'en' };
    const other = evaluate(body, topic);
    const all = evaluate(body, { ...topic, allLanguages: true });
    expect(other.language).toBe('de');
    expect(all.score).toBeGreaterThan(0);
    expect(other.score).toBeCloseTo(all.score * OTHER_LANGUAGE_WEIGHT, 12);
    // A topic without a language filters nothing (as before languages were detected).
    expect(evaluate(body, { keywords: 'python' }).score).toBe(all.score);
  });

  it('detects the language of a page that declares none, and analyses its text in it', () => {
    for (const lang of ['de', 'fr', 'es', 'ru', 'ja'] as const) {
      const r = evaluate(page(null, TEXT[lang]), { keywords: 'cats', language: 'en' });
      expect(r.language, lang).toBe(lang);
      expect(r.lang, lang).toBeUndefined();
    }
    // Read again in French: French stop words are gone ("les" is not an English one), French stems.
    const fr = evaluate(page(null, TEXT.fr), { keywords: 'cats', language: 'en' });
    expect(fr.terms.les).toBeUndefined();
    expect(fr.terms.chat).toBe(3);
    expect(fr.terms.dorm).toBe(1); // "dormir" (English Porter would leave it whole)
    const en = evaluate(page(null, TEXT.en), cats.en);
    expect(en.language).toBe('en');
    expect(en.score).toBeGreaterThan(0.1);
  });

  it('takes the first lang attribute in the page when <html> has none (the handbook’s chapter div)', () => {
    const body = enc(`<html><body><ul><li>Home</li></ul><div lang="de-DE"><p>${TEXT.de}</p></div></body></html>`);
    const r = evaluate(body, { keywords: 'cats', language: 'en' });
    expect(r.language).toBe('de');
    expect(r.terms.katz).toBe(3);
  });
});
