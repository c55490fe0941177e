/** The actions on a whole result list: open the top 10, copy as Markdown. */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { markdownList } from '../../lib/app';
import type { PageResult } from '../../lib/engine';
import { copyText, openInGroup } from './api';
import { t } from './i18n';
import { safeHref } from './safe-href';

/** Open the top 10 (offered once there is a result) in background tabs (in a tab group where the browser has them); copy the list as Markdown. */
export function ListActions({ pages, children }: { pages: PageResult[]; children?: ComponentChildren }) {
  const [copied, setCopied] = useState(false);
  const top = pages.slice(0, 10);
  return (
    <div class="list-actions">
      {top.length > 0 && (
        <button
          type="button"
          data-testid="open-top"
          onClick={() => void openInGroup(top.map((p) => p.url).filter((u) => safeHref(u)))}
        >
          {t('openTop', top.length)}
        </button>
      )}
      <button
        type="button"
        data-testid="copy-markdown"
        disabled={pages.length === 0}
        onClick={() =>
          void copyText(markdownList(pages)).then(() => {
            setCopied(true);
            setTimeout(() => setCopied(false), 1500);
          })
        }
      >
        {copied ? t('copied') : t('copyMarkdown')}
      </button>
      {children}
    </div>
  );
}
