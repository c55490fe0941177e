/**
 * The options page: the crawl settings new crawls start from (strategy, its parameters, notices), Forager's data (how much there is, "Delete all Forager data" with a confirmation) and the privacy
 * statement (PRIVACY.md, built in).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import privacy from '../../PRIVACY.md?raw';
import { request } from '../ui/api';
import { t, tn } from '../ui/i18n';
import { StrategySettings } from '../ui/strategy-settings';
import { Markdown } from './markdown';

type Stage = 'idle' | 'confirm' | 'deleting' | 'deleted';

export function App() {
  const [stage, setStage] = useState<Stage>('idle');
  const [crawls, setCrawls] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);

  const count = () =>
    request({ type: 'forager/list' }).then(
      (list) => setCrawls(list.length),
      (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
    );
  useEffect(() => void count(), []);
  // Keyboard users land on what they can do next: the confirmation, then back on the button.
  useEffect(() => {
    if (stage === 'confirm') confirmButton.current?.focus();
    if (stage === 'deleted') deleteButton.current?.focus();
  }, [stage]);

  const deleteAll = async () => {
    setStage('deleting');
    setError(null);
    try {
      await request({ type: 'forager/deleteAll' });
      // The count first: "has been deleted" never shows beside the count of the crawls that were there.
      await count();
      setStage('deleted');
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setStage('idle');
      await count();
    }
  };

  const saved = crawls === null ? t('optionsCounting') : tn(crawls, 'optionsKeptOne', 'optionsKept');

  return (
    <main class="options" data-testid="options">
      <h1>
        <img src="/icon/32.png" alt="" /> {t('optionsTitle')}
      </h1>

      <StrategySettings />

      <section aria-labelledby="data-heading">
        <h2 id="data-heading">{t('optionsDataHeading')}</h2>
        <p data-testid="crawl-total">
          {saved} {t('optionsNothingLeaves')} <a href="#privacy">{t('privacyStatement')}</a>
        </p>
        {stage === 'confirm' ? (
          <div
            class="confirm"
            role="alertdialog"
            aria-labelledby="confirm-title"
            aria-describedby="confirm-text"
            data-testid="delete-all-dialog"
          >
            <p id="confirm-title">
              <strong>{t('deleteAllQuestion')}</strong>
            </p>
            <p id="confirm-text">{t('deleteAllExplain')}</p>
            <div class="buttons">
              <button type="button" class="danger" ref={confirmButton} data-testid="delete-all-confirm" onClick={deleteAll}>
                {t('deleteEverything')}
              </button>
              <button type="button" data-testid="delete-all-cancel" onClick={() => setStage('idle')}>
                {t('cancel')}
              </button>
            </div>
          </div>
        ) : (
          <button
            type="button"
            class="danger"
            ref={deleteButton}
            data-testid="delete-all"
            disabled={stage === 'deleting'}
            onClick={() => setStage('confirm')}
          >
            {t('deleteAll')}
          </button>
        )}
        <p role="status" data-testid="delete-all-status">
          {stage === 'deleting' ? t('deleting') : stage === 'deleted' ? t('deletedAll') : ''}
        </p>
        {error && (
          <p class="message error" role="alert" data-testid="options-error">
            {error}
          </p>
        )}
      </section>

      <section id="privacy" class="privacy" aria-label={t('privacyStatementLabel')} data-testid="privacy">
        <Markdown source={privacy} />
      </section>
    </main>
  );
}
