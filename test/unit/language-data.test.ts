import { afterEach, describe, expect, it } from 'vitest';
import { restoreLanguageSources, useLanguageSources } from './language-builds';
import { generateWeb, renderPage } from '../../harness/testweb/generate';
import type { EvaluationInput, Topic } from '../../lib/engine/types';

/**
 * Language data loaded when a language needs it (the extension's Worker: lib/engine/text/language-sources.lazy.ts)
 * gives the evaluations and terms that data at hand gives (Node: language-sources.ts). Two copies of the engine
 * are compared: one as Node runs it, one built on the lazy sources, as the Worker is.
 */
type Engine = typeof import('../../lib/engine');

async function engineWith(sources: 'static' | 'lazy'): Promise<Engine> {
  useLanguageSources(sources);
  return import('../../lib/engine');
}

afterEach(restoreLanguageSources);

const enc = (s: string) => new TextEncoder().encode(s);

/** About 40 words of running text per language (as in languages.test.ts). */
const TEXT: Record<string, string> = {
  de: 'Die Katzen schlafen gern in der Sonne. Eine Katze braucht frisches Wasser, gutes Futter und einen ruhigen Platz zum Schlafen. Junge Katzen spielen viel und lernen dabei, wie man jagt. Ältere Tiere werden ruhiger und suchen die Nähe ihrer Menschen.',
  fr: 'Les chats dorment volontiers au soleil. Un chat a besoin d’eau fraîche, d’une bonne nourriture et d’un endroit calme pour dormir. Les jeunes chats jouent beaucoup et apprennent ainsi à chasser. Les animaux plus âgés deviennent calmes et cherchent la compagnie de leurs maîtres.',
  ru: 'Кошки любят спать на солнце. Кошке нужна свежая вода, хорошая еда и тихое место для сна. Молодые кошки много играют и так учатся охотиться. Пожилые животные становятся спокойнее и ищут близости своих хозяев.',
  ja: '猫は日なたで眠るのが好きです。猫には新鮮な水と良い食事、そして静かな寝場所が必要です。子猫はよく遊び、遊びながら狩りを覚えます。年を取った猫は落ち着いて、飼い主のそばにいたがります。',
  en: 'Cats like to sleep in the sun. A cat needs fresh water, good food and a quiet place to sleep. Young cats play a lot and learn to hunt that way. Older animals become calmer and seek the company of their owners.',
};

/** Pages in five languages, declared or not (then detected), scored for topics in two; and pages of the test web. */
function samplePages(): EvaluationInput[] {
  const inputs: EvaluationInput[] = [];
  const topics: Topic[] = [
    { keywords: 'Katzen Futter', language: 'de' },
    { keywords: 'cats sleeping', language: 'en', context: ['Why cats sleep so much — Pets', 'Cat sleep | Vets'] },
  ];
  for (const [lang, text] of Object.entries(TEXT)) {
    for (const declared of [true, false]) {
      const attr = declared ? ` lang="${lang}"` : '';
      const body = enc(
        `<!doctype html><html${attr}><head><title>${lang}</title></head><body><main><p>${text}</p>` +
          `<a href="/katzen-futter/${lang}">${text.slice(0, 40)}</a></main></body></html>`,
      );
      for (const topic of topics) inputs.push({ url: `https://example.com/${lang}.html`, body, topic, contentType: 'text/html' });
    }
  }
  const web = generateWeb({ seed: 3 });
  const origin = (site: string) => `http://${site}.test`;
  const topic: Topic = { keywords: web.topics[0].keywords, language: 'en' };
  for (const page of [...web.pages.values()].slice(0, 40)) {
    inputs.push({ url: origin(page.site) + page.path, body: enc(renderPage(page, origin)), topic, contentType: 'text/html' });
  }
  return inputs;
}

describe('language data loaded on demand', () => {
  it('asks for the data it lacks, and withLanguageData loads it', async () => {
    const lazy = await engineWith('lazy');
    expect(lazy.tokenize('running cats', 'en')).toEqual(['run', 'cat']); // English is at hand
    expect(() => lazy.tokenize('Katzen', 'de')).toThrow(lazy.MissingLanguageData);
    expect(await lazy.withLanguageData(() => lazy.tokenize('Die Katzen', 'de'))).toEqual(['katz']);
    expect(() => lazy.detectLanguage(TEXT.fr)).toThrow(/detector/);
    expect(await lazy.withLanguageData(() => lazy.detectLanguage(TEXT.fr))).toBe('fr');
  });

  it('evaluates pages exactly as with all data at hand (scores, terms, links, languages)', async () => {
    const pages = samplePages();
    const atHand = await engineWith('static');
    const expected = pages.map((input) => atHand.evaluatePage(input));
    const lazy = await engineWith('lazy');
    let missing = 0;
    for (const [i, input] of pages.entries()) {
      try {
        lazy.evaluatePage(input);
      } catch (error) {
        if (!(error instanceof lazy.MissingLanguageData)) throw error;
        missing++;
      }
      expect(await lazy.withLanguageData(() => lazy.evaluatePage(input)), input.url).toEqual(expected[i]);
    }
    expect(missing).toBeGreaterThan(0); // the lazy engine did load data on the way
    expect(expected.some((e) => e.language === 'ru') && expected.some((e) => e.score > 0)).toBe(true);
  });
});
