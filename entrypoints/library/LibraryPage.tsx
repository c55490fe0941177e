/**
 * The library page (library.html): search over every page Forager found, and the library's settings: storage used
 * (navigator.storage.estimate), retention (keep N crawls / M MB, pinned crawls kept), pins, import of a JSON export.
 * Self-contained: it talks to the background through ui/api's typed requests only.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { type CrawlRecord, type LibraryHit, type LibraryInfo, oneLine, type RetentionPolicy } from '../../lib/app';
import { errorMessage } from '../../lib/engine';
import { request } from '../ui/api';
import { t, tn } from '../ui/i18n';
import { LibraryHits } from './library-hits';

/** Largest file offered to the background (lib/app/library/import.ts MAX_IMPORT_BYTES; checked there again). */
const MAX_IMPORT_BYTES = 32 * 1024 * 1024;

const megabytes = (bytes: number): string => t('megabytes', (bytes / 1024 / 1024).toFixed(1));

function SearchBox({ crawlNames }: { crawlNames: Map<string, string> }) {
  const [query, setQuery] = useState('');
  const [hits, setHits] = useState<LibraryHit[]>([]);
  const [error, setError] = useState('');
  const latest = useRef(0);
  useEffect(() => {
    const ask = ++latest.current;
    const timer = setTimeout(() => {
      request({ type: 'forager/search', query, limit: 100 }).then(
        (found) => {
          if (ask !== latest.current) return; // an answer to an older query
          setHits(found);
          setError('');
        },
        (e: unknown) => ask === latest.current && setError(errorMessage(e)),
      );
    }, 120);
    return () => clearTimeout(timer);
  }, [query]);
  return (
    <div>
      <input
        type="search"
        placeholder={t('librarySearchPlaceholder')}
        aria-label={t('librarySearchLabel')}
        data-testid="library-search"
        value={query}
        onInput={(e) => setQuery((e.target as HTMLInputElement).value)}
      />
      {error && <p class="library-error">{error}</p>}
      {query.trim() && !error && (
        <p class="library-note">
          {hits.length === 0 ? t('libraryNothingFound') : tn(hits.length, 'libraryHitsOne', 'libraryHits')}
        </p>
      )}
      <LibraryHits hits={hits} crawlNames={crawlNames} query={query} />
    </div>
  );
}

function Storage({ info }: { info: LibraryInfo | null }) {
  const [estimate, setEstimate] = useState<{ usage?: number; quota?: number } | null>(null);
  useEffect(() => {
    navigator.storage?.estimate?.().then(setEstimate, () => setEstimate(null));
  }, [info]);
  return (
    <p class="library-note" data-testid="library-storage">
      {info ? `${t('librarySize', info.crawls, info.pages, megabytes(info.bytes))} ` : ''}
      {estimate?.usage === undefined
        ? t('libraryUsageUnknown')
        : estimate.quota === undefined
          ? t('libraryUsageNoQuota', megabytes(estimate.usage))
          : t('libraryUsage', megabytes(estimate.usage), megabytes(estimate.quota))}
    </p>
  );
}

/** Retention settings: empty fields are "no limit"; nothing is deleted unless a limit is set and saved. */
function RetentionForm({ policy, onSaved }: { policy: RetentionPolicy; onSaved(deleted: string[]): void }) {
  const [crawls, setCrawls] = useState(policy.keepCrawls?.toString() ?? '');
  const [mb, setMb] = useState(policy.maxMegabytes?.toString() ?? '');
  const [message, setMessage] = useState('');
  const limit = (s: string): number | null => (s.trim() === '' ? null : Number(s));
  const save = async (e: Event) => {
    e.preventDefault();
    try {
      const { deleted } = await request({
        type: 'forager/setRetention',
        policy: { keepCrawls: limit(crawls), maxMegabytes: limit(mb) },
      });
      setMessage(
        deleted.length ? tn(deleted.length, 'retentionSavedDeletedOne', 'retentionSavedDeleted') : t('retentionSavedNone'),
      );
      onSaved(deleted);
    } catch (error) {
      setMessage(errorMessage(error));
    }
  };
  return (
    <form onSubmit={save}>
      <label>
        {t('retentionKeepCrawls')}{' '}
        <input type="number" min={1} value={crawls} onInput={(e) => setCrawls((e.target as HTMLInputElement).value)} />
      </label>
      <label>
        {t('retentionMaxMegabytes')}{' '}
        <input type="number" min={1} value={mb} onInput={(e) => setMb((e.target as HTMLInputElement).value)} />
      </label>
      <p class="library-note">{t('retentionNote')}</p>
      <button type="submit">{t('retentionSave')}</button> <span role="status">{message}</span>
    </form>
  );
}

function ImportForm({ onImported }: { onImported(): void }) {
  const [message, setMessage] = useState('');
  const pick = async (e: Event) => {
    const input = e.target as HTMLInputElement;
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    if (file.size > MAX_IMPORT_BYTES) {
      setMessage(t('importTooLarge', megabytes(MAX_IMPORT_BYTES)));
      return;
    }
    try {
      const record = await request({ type: 'forager/import', json: await file.text() });
      setMessage(t('imported', oneLine(record.name)));
      onImported();
    } catch (error) {
      setMessage(t('importFailed', errorMessage(error)));
    }
  };
  return (
    <div>
      <label>
        {t('importLabel')} <input type="file" accept=".json,application/json" onChange={pick} />
      </label>
      <p role="status">{message}</p>
    </div>
  );
}

function Pins({ crawls, onChange }: { crawls: CrawlRecord[]; onChange(): void }) {
  return (
    <ul>
      {crawls.map((c) => (
        <li key={c.id}>
          <label>
            <input
              type="checkbox"
              checked={!!c.pinned}
              onChange={(e) =>
                request({ type: 'forager/pin', id: c.id, pinned: (e.target as HTMLInputElement).checked }).then(
                  onChange,
                  onChange,
                )
              }
            />{' '}
            {oneLine(c.name) || oneLine(c.topic.keywords)} ({new Date(c.createdAt).toLocaleDateString()})
          </label>
        </li>
      ))}
    </ul>
  );
}

export function LibraryPage() {
  const [info, setInfo] = useState<LibraryInfo | null>(null);
  const [crawls, setCrawls] = useState<CrawlRecord[]>([]);
  const [error, setError] = useState('');
  const reload = () => {
    Promise.all([request({ type: 'forager/library' }), request({ type: 'forager/list' })]).then(
      ([i, list]) => {
        setInfo(i);
        setCrawls(list);
      },
      (e: unknown) => setError(errorMessage(e)),
    );
  };
  useEffect(reload, []);
  const names = new Map(crawls.map((c) => [c.id, oneLine(c.name) || oneLine(c.topic.keywords)]));
  return (
    <main class="library">
      <h1>{t('libraryTitle')}</h1>
      {error && <p class="library-error">{error}</p>}
      <SearchBox crawlNames={names} />
      <section>
        <h2>{t('libraryStorage')}</h2>
        <Storage info={info} />
        {info && <RetentionForm policy={info.retention} onSaved={reload} />}
      </section>
      <section>
        <h2>{t('libraryPinned')}</h2>
        <Pins crawls={crawls} onChange={reload} />
      </section>
      <section>
        <h2>{t('libraryImport')}</h2>
        <ImportForm onImported={reload} />
      </section>
    </main>
  );
}
