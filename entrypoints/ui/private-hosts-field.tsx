/** The start form's list of start pages on the user's own network. */
import { useMemo } from 'preact/hooks';
import { type PrivateSeedHost, privateSeedHosts } from '../../lib/app';
import { type MessageKey, t } from './i18n';

const PRIVATE_KIND_LABEL: Record<PrivateSeedHost['kind'], MessageKey> = {
  loopback: 'privateKindLoopback',
  private: 'privateKindPrivate',
  'link-local': 'privateKindLinkLocal',
  metadata: 'privateKindMetadata',
};

/**
 * The start pages on the user's own network or computer: listed, unticked, and crawled only when ticked (a results
 * page can list any address, the user's router included). Metadata addresses are shown but cannot be ticked.
 */
export function PrivateHostsField(props: { seeds: string[]; ticked: string[]; onChange(hosts: string[]): void }) {
  const hosts = useMemo(() => privateSeedHosts(props.seeds), [props.seeds.join('\n')]);
  if (hosts.length === 0) return null;
  const toggle = (host: string, on: boolean) =>
    props.onChange(on ? [...props.ticked.filter((h) => h !== host), host] : props.ticked.filter((h) => h !== host));
  return (
    <fieldset class="private-hosts" data-testid="private-hosts">
      <legend>{t('privateHostsLegend')}</legend>
      <p class="muted">{hosts.length === 1 ? t('privateHostsNoteOne') : t('privateHostsNote')}</p>
      <ul>
        {hosts.map((h) => (
          <li key={h.host}>
            <label class="check">
              <input
                type="checkbox"
                data-testid="private-host"
                data-host={h.host}
                data-kind={h.kind}
                disabled={!h.tickable}
                checked={h.tickable && props.ticked.includes(h.host)}
                onChange={(e) => toggle(h.host, e.currentTarget.checked)}
              />
              <span class="host">{h.host}</span> <span class="muted">({t(PRIVATE_KIND_LABEL[h.kind])})</span>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
