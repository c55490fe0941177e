/**
 * The options page's crawl settings: the strategy and its parameters (fields generated from the strategy registry's
 * ParamSpecs, bounds from the same specs), the frontier size and politeness delay (bounds from SETTING_BOUNDS), and the
 * notice when a crawl ends (asks for the optional `notifications` permission when turned on). Saved as the user's
 * defaults (entrypoints/ui/settings.ts); every new crawl starts from them.
 */
import { useEffect, useState } from 'preact/hooks';
import { type CrawlSettings, SETTING_BOUNDS, type StrategyDescription } from '../../lib/app';
import { errorMessage } from '../../lib/engine';
import { request } from './api';
import { t } from './i18n';
import { loadDefaults, NOTIFY_KEY, saveUserDefaults } from './settings';

function clampTo(value: number, min?: number, max?: number, integer?: boolean): number {
  let v = Number.isFinite(value) ? value : (min ?? 0);
  if (min !== undefined) v = Math.max(min, v);
  if (max !== undefined) v = Math.min(max, v);
  return integer ? Math.round(v) : v;
}

export function StrategySettings() {
  const [strategies, setStrategies] = useState<StrategyDescription[] | null>(null);
  const [settings, setSettings] = useState<CrawlSettings | null>(null);
  const [notify, setNotify] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => {
    Promise.all([request({ type: 'forager/strategies' }), loadDefaults(), browser.storage.local.get(NOTIFY_KEY)]).then(
      ([s, d, n]) => {
        setStrategies(s);
        setSettings(d);
        setNotify(!!n[NOTIFY_KEY]);
      },
      (e: unknown) => setMessage(errorMessage(e)),
    );
  }, []);
  if (!strategies || !settings) return <p class="muted">{message ?? t('loading')}</p>;
  const strategy = strategies.find((s) => s.name === settings.strategy) ?? strategies[0];

  const save = async (next: CrawlSettings) => {
    setSettings(next);
    try {
      await saveUserDefaults({
        strategy: next.strategy,
        params: next.params,
        maxBuffer: next.maxBuffer,
        politenessDelayMs: next.politenessDelayMs,
      });
      setMessage(t('optionsSaved'));
    } catch (e) {
      setMessage(errorMessage(e));
    }
  };
  const toggleNotify = async (on: boolean) => {
    // The permission prompt needs this click's user gesture: asked first. Firefox refuses to ask for a permission the
    // manifest requires (the e2e build's): then what counts is whether it is held.
    const granted = on
      ? await browser.permissions
          .request({ permissions: ['notifications'] })
          .catch(() => browser.permissions.contains({ permissions: ['notifications'] }).catch(() => false))
      : true;
    const value = on && granted;
    setNotify(value);
    await browser.storage.local.set({ [NOTIFY_KEY]: value });
  };

  return (
    <section class="card column" data-testid="strategy-settings">
      <h2>{t('optionsCrawling')}</h2>
      <label class="check">
        <input
          type="checkbox"
          checked={notify}
          data-testid="notify-on-end"
          onChange={(e) => void toggleNotify(e.currentTarget.checked)}
        />
        {t('optionsNotify')}
      </label>
      <div class="row-fields">
        <label class="field">
          <span>{t('politeness')}</span>
          <input
            type="number"
            value={settings.politenessDelayMs}
            min={SETTING_BOUNDS.politenessDelayMs.min}
            max={SETTING_BOUNDS.politenessDelayMs.max}
            step={100}
            data-testid="politeness"
            onChange={(e) =>
              void save({
                ...settings,
                politenessDelayMs: clampTo(
                  Number(e.currentTarget.value),
                  SETTING_BOUNDS.politenessDelayMs.min,
                  SETTING_BOUNDS.politenessDelayMs.max,
                  true,
                ),
              })
            }
          />
        </label>
      </div>
      <details class="advanced" data-testid="options-advanced">
        <summary>{t('optionsAdvanced')}</summary>
        <p class="muted">{t('optionsStrategyHint')}</p>
        <label class="field">
          <span>{t('optionsStrategy')}</span>
          <select
            value={strategy.name}
            data-testid="strategy"
            onChange={(e) => void save({ ...settings, strategy: e.currentTarget.value, params: {} })}
          >
            {strategies.map((s) => (
              <option key={s.name} value={s.name}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <p class="muted small-text">{strategy.description}</p>
        <div class="row-fields">
          {strategy.params.map((p) =>
            p.type === 'boolean' ? (
              <label key={p.name} class="check" title={p.description}>
                <input
                  type="checkbox"
                  checked={Boolean(settings.params[p.name] ?? p.default)}
                  data-testid={`param-${p.name}`}
                  onChange={(e) => void save({ ...settings, params: { ...settings.params, [p.name]: e.currentTarget.checked } })}
                />
                {p.label}
              </label>
            ) : p.type === 'number' ? (
              <label key={p.name} class="field" title={p.description}>
                <span>{p.label}</span>
                <input
                  type="number"
                  value={Number(settings.params[p.name] ?? p.default)}
                  min={p.min}
                  max={p.max}
                  step={p.integer ? 1 : 'any'}
                  data-testid={`param-${p.name}`}
                  onChange={(e) =>
                    void save({
                      ...settings,
                      params: {
                        ...settings.params,
                        [p.name]: clampTo(Number(e.currentTarget.value), p.min, p.max, p.integer),
                      },
                    })
                  }
                />
              </label>
            ) : null,
          )}
          <label class="field">
            <span>{t('optionsFrontier')}</span>
            <input
              type="number"
              value={settings.maxBuffer}
              min={SETTING_BOUNDS.maxBuffer.min}
              max={SETTING_BOUNDS.maxBuffer.max}
              data-testid="max-buffer"
              onChange={(e) =>
                void save({
                  ...settings,
                  maxBuffer: clampTo(
                    Number(e.currentTarget.value),
                    SETTING_BOUNDS.maxBuffer.min,
                    SETTING_BOUNDS.maxBuffer.max,
                    true,
                  ),
                })
              }
            />
          </label>
        </div>
      </details>
      <div class="controls">
        <button
          type="button"
          data-testid="reset-settings"
          onClick={() =>
            void saveUserDefaults({}).then(async () => {
              setSettings(await loadDefaults());
              setMessage(t('optionsSaved'));
            })
          }
        >
          {t('optionsReset')}
        </button>
        {message && (
          <span class="muted" role="status" data-testid="options-message">
            {message}
          </span>
        )}
      </div>
    </section>
  );
}
