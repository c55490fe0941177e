/** A row's actions on its link: open it in a background tab, copy it (the result rows and the library's hits). */
import { useState } from 'preact/hooks';
import { copyText, openInBackground } from './api';
import { t } from './i18n';
import { IconButton } from './icon';
import { safeHref } from './safe-href';

export function LinkActions({ url }: { url: string }) {
  const [copied, setCopied] = useState(false);
  const href = safeHref(url);
  return (
    <>
      <IconButton
        icon="M14 3h7v7M21 3l-9 9M19 14v5a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V7a2 2 0 0 1 2-2h5"
        testid="open-background"
        tip={t('openInBackgroundShort')}
        label={t('openInBackground')}
        disabled={!href}
        onClick={() => href && void openInBackground([href])}
      />
      <IconButton
        icon={copied ? 'M5 12l5 5L20 7' : 'M9 9h11v11H9zM5 15H4V4h11v1'}
        testid="copy-link"
        tip={copied ? t('copied') : t('copyLink')}
        label={copied ? t('copied') : t('copyLink')}
        onClick={() =>
          void copyText(url).then(() => {
            setCopied(true);
            setTimeout(() => setCopied(false), 1500);
          })
        }
      />
    </>
  );
}
