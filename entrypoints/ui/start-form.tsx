/** The start form of the popup and the results page's start view. */
import { useState } from 'preact/hooks';
import {
  applyPreset,
  type CrawlRecord,
  type CrawlSettings,
  displayLocation,
  MAX_TOPIC_LENGTH,
  oneLine,
  PRESET_NAMES,
  type PresetName,
  presetOf,
  PRESETS,
  SETTING_BOUNDS,
  type StartDraft,
  type StrategyDescription,
} from '../../lib/app';
import { errorMessage } from '../../lib/engine';
import { request, requestSiteAccess } from './api';
import { type MessageKey, t, tn } from './i18n';
import { Location } from './location';
import { NumberField } from './number-field';
import { PrivateHostsField } from './private-hosts-field';

const PRESET_KEY: Record<PresetName, MessageKey> = { quick: 'presetQuick', standard: 'presetStandard', deep: 'presetDeep' };

/**
 * The topic, the start pages, how far (Quick / Standard / Deep) and the main button. The strategy and its parameters
 * are the user's defaults (options page); "More settings" holds the few a crawl may want changed.
 * `editableSeeds` shows the seeds as a textarea (start view); else a summary and a list of titles.
 */
export function StartForm(props: {
  draft: StartDraft;
  strategies: StrategyDescription[];
  defaults: CrawlSettings;
  editableSeeds: boolean;
  /** e.g. "on this Bing page" */
  seedNote?: string;
  /** Titles of the seeds, when known (a results page gives them). */
  seedTitles?: Record<string, string>;
  /** Another crawl runs: starting is refused up front, not after the form is filled. */
  busyWith?: string | null;
  onStarted(record: CrawlRecord): void;
}) {
  const [topic, setTopic] = useState(props.draft.topic);
  const [seedText, setSeedText] = useState(props.draft.seeds.join('\n'));
  const [settings, setSettings] = useState<CrawlSettings>(() => ({ ...props.defaults, params: { ...props.defaults.params } }));
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [allLanguages, setAllLanguages] = useState(false);
  const seeds = props.editableSeeds
    ? seedText
        .split(/\s+/)
        .map((s) => s.trim())
        .filter(Boolean)
    : props.draft.seeds;
  const set = (patch: Partial<CrawlSettings>) => setSettings((s) => ({ ...s, ...patch }));
  const preset = presetOf(settings.maxPages);
  const strategy = props.strategies.find((s) => s.name === settings.strategy);

  const start = async (event: Event) => {
    event.preventDefault();
    // First thing in the click: the permission prompt needs the user gesture (an await before it would lose it).
    const access = requestSiteAccess();
    setBusy(true);
    setMessage(null);
    try {
      if (!(await access)) {
        setMessage(t('needSiteAccess'));
        return;
      }
      const record = await request({
        type: 'forager/start',
        start: {
          topic,
          seeds,
          source: props.draft.source,
          settings,
          context: props.draft.context,
          ...(props.draft.pageLang ? { pageLang: props.draft.pageLang } : {}),
          ...(allLanguages ? { allLanguages: true } : {}),
        },
      });
      props.onStarted(record);
    } catch (error) {
      setMessage(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="start" data-testid="start-form" onSubmit={start}>
      <label class="field wide">
        <span>{t('topicLabel')}</span>
        <input
          type="text"
          value={topic}
          data-testid="topic"
          required
          maxLength={MAX_TOPIC_LENGTH}
          onInput={(e) => setTopic(e.currentTarget.value)}
        />
      </label>
      {props.editableSeeds ? (
        <label class="field wide">
          <span>{t('seedsLabel')}</span>
          <textarea rows={4} value={seedText} data-testid="seeds" onInput={(e) => setSeedText(e.currentTarget.value)} />
        </label>
      ) : (
        <details class="seeds">
          <summary data-testid="seed-count">
            {tn(seeds.length, 'startPagesOne', 'startPages')}
            {props.seedNote ? ` ${props.seedNote}` : ''}
          </summary>
          <ol data-testid="seed-list">
            {seeds.map((s) => (
              <li key={s} data-url={s}>
                <span class="seed-title">{oneLine(props.seedTitles?.[s] ?? '') || displayLocation(s).site}</span>{' '}
                <Location url={s} />
              </li>
            ))}
          </ol>
        </details>
      )}
      <fieldset class="presets" data-testid="depth">
        <legend>{t('depthLabel')}</legend>
        {PRESET_NAMES.map((p) => (
          <label key={p} class={preset === p ? 'preset on' : 'preset'}>
            <input
              type="radio"
              name="depth"
              value={p}
              checked={preset === p}
              data-testid={`preset-${p}`}
              onChange={() => setSettings((s) => applyPreset(s, p))}
            />
            <span class="preset-name">{t(PRESET_KEY[p])}</span>
            <span class="preset-pages">{t('presetPages', PRESETS[p].maxPages)}</span>
          </label>
        ))}
      </fieldset>
      <PrivateHostsField seeds={seeds} ticked={settings.privateHosts ?? []} onChange={(privateHosts) => set({ privateHosts })} />
      {props.busyWith ? (
        <p class="note" data-testid="crawl-busy">
          {t('crawlBusy', oneLine(props.busyWith))}
        </p>
      ) : null}
      <button
        type="submit"
        class="primary big"
        data-testid="crawl-button"
        disabled={busy || !!props.busyWith || seeds.length === 0 || !topic.trim()}
      >
        {t('findMore')}
      </button>
      {message && (
        <p class="message error" role="alert" data-testid="start-message">
          {message}
        </p>
      )}
      <details class="advanced" data-testid="advanced">
        <summary>{t('moreSettings')}</summary>
        <div class="row-fields">
          <NumberField
            label={t('pageBudget')}
            value={settings.maxPages}
            min={SETTING_BOUNDS.maxPages.min}
            max={SETTING_BOUNDS.maxPages.max}
            testid="max-pages"
            onInput={(v) => set({ maxPages: v })}
          />
          <NumberField
            label={t('politeness')}
            title={t('politenessTitle')}
            value={settings.politenessDelayMs}
            min={SETTING_BOUNDS.politenessDelayMs.min}
            max={SETTING_BOUNDS.politenessDelayMs.max}
            step={100}
            testid="politeness"
            onInput={(v) => set({ politenessDelayMs: v })}
          />
        </div>
        <label class="check">
          <input
            type="checkbox"
            checked={settings.stayOnSeedSites}
            data-testid="stay-on-sites"
            onChange={(e) => set({ stayOnSeedSites: e.currentTarget.checked })}
          />
          {t('stayOnSites')}
        </label>
        <label class="check" title={t('allLanguagesTitle')}>
          <input
            type="checkbox"
            checked={allLanguages}
            data-testid="all-languages"
            onChange={(e) => setAllLanguages(e.currentTarget.checked)}
          />
          {t('allLanguages')}
        </label>
        <p class="muted small-text" data-testid="strategy-note">
          {t('strategyNote', strategy?.label ?? settings.strategy)}{' '}
          <button type="button" class="link" data-testid="open-options" onClick={() => void browser.runtime.openOptionsPage()}>
            {t('openOptions')}
          </button>
        </p>
      </details>
    </form>
  );
}
