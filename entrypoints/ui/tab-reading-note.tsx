/**
 * What the popup read on the tab, above its start form: the engine and how many results ("Google · 9 results"), or,
 * where nothing could be read, why in plain words and a choice of what to start from instead (the links the user
 * can see on the page, or the page itself).
 */
import type { SerpBlocked, TabReading } from '../../lib/app';
import { type MessageKey, t, tn } from './i18n';

const WHY_KEY: Record<SerpBlocked, MessageKey> = {
  challenge: 'serpWhyChallenge',
  consent: 'serpWhyConsent',
  'no-results': 'serpWhyNoResults',
  unreadable: 'serpWhyUnreadable',
};

export type SeedChoice = 'links' | 'page';

export function TabReadingNote(props: { reading: TabReading; choice: SeedChoice; onChoose(choice: SeedChoice): void }) {
  const r = props.reading;
  if (r.kind === 'page') return null;
  if (r.kind === 'results') {
    return (
      <p class="note serp-line" data-testid="serp-line">
        {r.engineName
          ? tn(r.count, 'serpReadEngineOne', 'serpReadEngine', r.engineName)
          : tn(r.count, 'serpReadUnknownOne', 'serpReadUnknown')}
      </p>
    );
  }
  return (
    <div class="note" data-testid="serp-nothing">
      <p class="serp-line" data-testid="serp-line">
        {r.engineName ? t('serpNothingEngine', r.engineName) : t('serpNothing')}
      </p>
      <p data-testid="serp-why">{t(WHY_KEY[r.why])}</p>
      {r.links > 0 && (
        <fieldset class="seed-choice" data-testid="seed-choice">
          <legend>{t('seedChoiceLabel')}</legend>
          {(['links', 'page'] as const).map((c) => (
            <label key={c} class="check">
              <input
                type="radio"
                name="seed-choice"
                value={c}
                checked={props.choice === c}
                data-testid={`seed-choice-${c}`}
                onChange={() => props.onChoose(c)}
              />
              {c === 'links' ? tn(r.links, 'seedChoiceLinksOne', 'seedChoiceLinks') : t('seedChoicePage')}
            </label>
          ))}
        </fieldset>
      )}
    </div>
  );
}
