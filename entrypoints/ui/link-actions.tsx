/** A row's actions on its link: open it in a background tab, copy it (the result rows and the library's hits). */
import { useState } from 'preact/hooks';
import { copyText, openInBackground } from './api';
import { t } from './i18n';
import { Icon } from './icon';
import { safeHref } from './safe-href';

export function LinkActions({ url }: { url: string }) {
  const [copied, setCopied] = useState(false);
  const href = safeHref(url);
  return (
    <>
      <button
        type="button"
        class="icon tip"
        data-testid="open-background"
        data-tip={t('openInBackgroundShort')}
        disabled={!href}
        title={t('openInBackground')}
        aria-label={t('openInBackground')}
        onClick={() => href && void openInBackground([href])}
      >
        <Icon path="M14 3h7v7M21 3l-9 9M19 14v5a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V7a2 2 0 0 1 2-2h5" />
      </button>
      <button
        type="button"
        class="icon tip"
        data-testid="copy-link"
        data-tip={copied ? t('copied') : t('copyLink')}
        title={copied ? t('copied') : t('copyLink')}
        aria-label={copied ? t('copied') : t('copyLink')}
        onClick={() =>
          void copyText(url).then(() => {
            setCopied(true);
            setTimeout(() => setCopied(false), 1500);
          })
        }
      >
        <Icon path={copied ? 'M5 12l5 5L20 7' : 'M9 9h11v11H9zM5 15H4V4h11v1'} />
      </button>
    </>
  );
}
