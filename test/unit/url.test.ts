import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  canonicalizeUrl,
  checkAddress,
  checkUrl,
  hostKind,
  isPrivateHost,
  isTrackingParam,
  urlChecker,
} from '../../lib/engine/url';
import {
  MAX_GUARD_HOSTS,
  namedHostUrlFilters,
  networkGuardRules,
  PRIVATE_URL_FILTERS,
} from '../../lib/app/adapters/network-guard';

describe('canonicalizeUrl', () => {
  it('lowercases scheme and host, drops default ports and the fragment', () => {
    expect(canonicalizeUrl('HTTP://Example.COM:80/Path#top')).toBe('http://example.com/Path');
    expect(canonicalizeUrl('https://example.com:443/')).toBe('https://example.com/');
    expect(canonicalizeUrl('https://example.com:8443/a')).toBe('https://example.com:8443/a');
  });

  it('resolves relative references and dot segments against a base', () => {
    expect(canonicalizeUrl('../c/./d.html', 'https://example.com/a/b/index.html')).toBe('https://example.com/a/c/d.html');
    expect(canonicalizeUrl('//other.org/x', 'https://example.com/')).toBe('https://other.org/x');
    expect(canonicalizeUrl('?q=1', 'https://example.com/p')).toBe('https://example.com/p?q=1');
    expect(canonicalizeUrl('https://example.com')).toBe('https://example.com/');
  });

  it('decodes escapes of unreserved characters and uppercases the hex of the others', () => {
    expect(canonicalizeUrl('https://example.com/%7euser/%41b%2dc/a%2fb%3f')).toBe('https://example.com/~user/Ab-c/a%2Fb%3F');
    expect(canonicalizeUrl('https://example.com/?q=%e2%82%ac&x=%7E')).toBe('https://example.com/?q=%E2%82%AC&x=~');
  });

  it('sorts query parameters stably and keeps repeated names in order', () => {
    expect(canonicalizeUrl('https://example.com/s?z=1&a=2&m=3&a=1')).toBe('https://example.com/s?a=2&a=1&m=3&z=1');
  });

  it('drops tracking parameters and an empty query', () => {
    expect(
      canonicalizeUrl(
        'https://example.com/p?utm_source=x&UTM_Medium=y&gclid=1&fbclid=2&msclkid=3&mc_cid=4&mc_eid=5&_ga=6&igshid=7&yclid=8&ref_src=9',
      ),
    ).toBe('https://example.com/p');
    expect(canonicalizeUrl('https://example.com/p?id=5&utm_campaign=z')).toBe('https://example.com/p?id=5');
    expect(canonicalizeUrl('https://example.com/p?')).toBe('https://example.com/p');
    expect(canonicalizeUrl('https://example.com/p?&&')).toBe('https://example.com/p');
    expect(isTrackingParam('utm_term')).toBe(true);
    expect(isTrackingParam('page')).toBe(false);
  });

  it('keeps www. and spaces as escapes (no form re-encoding)', () => {
    expect(canonicalizeUrl('https://www.example.com/a b?q=a b')).toBe('https://www.example.com/a%20b?q=a%20b');
    expect(canonicalizeUrl('https://example.com/?q=a+b')).toBe('https://example.com/?q=a+b');
  });

  it('converts international host names to punycode', () => {
    expect(canonicalizeUrl('https://BÜCHER.example/')).toBe('https://xn--bcher-kva.example/');
  });

  it('is idempotent', () => {
    for (const u of [
      'HTTP://Example.COM:80/a/../b/%7e?b=2&a=1&utm_source=x#f',
      'https://example.com/%e2%82%ac?q=%2f',
      'https://user:pw@example.com/x',
    ]) {
      const once = canonicalizeUrl(u)!;
      expect(canonicalizeUrl(once)).toBe(once);
    }
  });

  it('returns null for unparsable and non-http(s) URLs', () => {
    expect(canonicalizeUrl('javascript:alert(1)')).toBeNull();
    expect(canonicalizeUrl('mailto:a@example.com')).toBeNull();
    expect(canonicalizeUrl('data:text/html,<b>x</b>')).toBeNull();
    expect(canonicalizeUrl('tel:+123')).toBeNull();
    expect(canonicalizeUrl('ftp://example.com/x')).toBeNull();
    expect(canonicalizeUrl('http://')).toBeNull();
    expect(canonicalizeUrl('not a url')).toBeNull();
    expect(canonicalizeUrl('relative/only')).toBeNull();
    expect(canonicalizeUrl('x', 'not a base')).toBeNull();
    expect(canonicalizeUrl(undefined as unknown as string)).toBeNull();
  });
});

describe('isPrivateHost', () => {
  it('refuses loopback, private, link-local, CGNAT, this-network, multicast and metadata IPv4', () => {
    for (const h of [
      '127.0.0.1',
      '127.1.2.3',
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '100.100.100.200',
      '0.0.0.0',
      '0.1.2.3',
      '224.0.0.1',
      '239.255.255.250',
      '255.255.255.255',
    ]) {
      expect(isPrivateHost(h), h).toBe(true);
    }
  });

  it('recognises IPv4 written in decimal, hex and octal forms', () => {
    expect(isPrivateHost('2130706433')).toBe(true); // 127.0.0.1
    expect(isPrivateHost('0x7f.1')).toBe(true);
    expect(isPrivateHost('0177.0.0.1')).toBe(true);
    expect(isPrivateHost('0xa9fea9fe')).toBe(true); // 169.254.169.254
  });

  it('refuses private IPv6: loopback, unspecified, link-local, unique-local, IPv4-mapped private', () => {
    for (const h of [
      '[::1]',
      '::1',
      '[::]',
      '[fe80::1]',
      '[febf::1]',
      '[fc00::1]',
      '[fd00:ec2::254]',
      '[::ffff:127.0.0.1]',
      '[::ffff:10.1.2.3]',
      '[::ffff:7f00:1]',
      '[ff02::1]',
      '[64:ff9b::a00:1]',
    ]) {
      expect(isPrivateHost(h), h).toBe(true);
    }
  });

  it('refuses localhost and reserved local names', () => {
    for (const h of [
      'localhost',
      'LOCALHOST',
      'foo.localhost',
      'printer.local',
      'metadata.google.internal',
      'intranet',
      'router.home.arpa',
    ]) {
      expect(isPrivateHost(h), h).toBe(true);
    }
  });

  it('accepts public addresses and names', () => {
    for (const h of [
      '8.8.8.8',
      '1.1.1.1',
      '172.32.0.1',
      '100.128.0.1',
      '192.169.0.1',
      'example.com',
      'www.example.org',
      '[2606:4700:4700::1111]',
      '2001:4860:4860::8888',
      '[::ffff:8.8.8.8]',
    ]) {
      expect(isPrivateHost(h), h).toBe(false);
    }
  });
});

describe('checkUrl', () => {
  const ok = (u: string, p?: Parameters<typeof checkUrl>[1]) => expect(checkUrl(u, p), u).toEqual({ ok: true });
  const refused = (u: string, detail: RegExp, p?: Parameters<typeof checkUrl>[1]) => {
    const r = checkUrl(u, p);
    expect(r.ok, u).toBe(false);
    if (!r.ok) expect(r.detail, u).toMatch(detail);
  };

  it('accepts ordinary pages', () => {
    ok('https://example.com/');
    ok('https://example.com/blog/2024/05/my-post.html');
    ok('https://example.com/search?q=coffee&page=2');
    ok('https://example.com/docs/v1.2/');
    ok('https://example.com/page.php?id=7');
  });

  it('refuses non-http(s) and unparsable URLs', () => {
    refused('ftp://example.com/', /scheme/);
    refused('javascript:alert(1)', /scheme/);
    refused('file:///etc/passwd', /scheme/);
    refused('::::', /unparsable/);
  });

  it('refuses URLs longer than the maximum', () => {
    refused(`https://example.com/${'a'.repeat(2100)}`, /longer/);
    refused(`https://example.com/${'a'.repeat(100)}`, /longer/, { maxUrlLength: 50 });
    ok(`https://example.com/${'a'.repeat(100)}`, { maxUrlLength: 500 });
  });

  it('refuses URLs with credentials', () => {
    refused('https://user:secret@example.com/', /credentials/);
  });

  it('refuses obvious non-HTML by extension', () => {
    for (const ext of [
      'jpg',
      'PNG',
      'gif',
      'svg',
      'mp4',
      'mp3',
      'zip',
      'tar.gz',
      'pdf',
      'docx',
      'xlsx',
      'woff2',
      'css',
      'js',
      'json',
      'xml',
      'rss',
      'exe',
    ]) {
      refused(`https://example.com/files/thing.${ext}`, /extension/);
    }
    refused('https://example.com/a.pdf?download=1', /extension/);
    ok('https://example.com/report.pdf/'); // a directory named like a file
    ok('https://example.com/page.html');
    ok('https://example.com/v2.0');
  });

  it('refuses too many path segments', () => {
    refused(`https://example.com/${Array.from({ length: 17 }, (_, i) => `s${i}`).join('/')}`, /segments/);
    ok(`https://example.com/${Array.from({ length: 16 }, (_, i) => `s${i}`).join('/')}`);
    refused('https://example.com/a/b/c/d', /segments/, { maxPathSegments: 3 });
  });

  it('refuses a path segment repeated too often (link loops)', () => {
    refused('https://example.com/a/b/a/b/a/b/a/b', /repeated/);
    ok('https://example.com/a/b/a/b/a/b');
    refused('https://example.com/x/x/x', /repeated/, { maxRepeatedSegment: 2 });
  });

  it('refuses session ids in the query and the path', () => {
    refused('https://example.com/p?PHPSESSID=abc123', /session/);
    refused('https://example.com/p?jsessionid=abc', /session/);
    refused('https://example.com/p?sessionid=1', /session/);
    refused('https://example.com/p?sid=0123456789abcdef0123', /session/);
    refused('https://example.com/shop;jsessionid=ABCDEF0123?x=1', /session/);
    refused('https://example.com/(S(lit3py55t21z5v55vlm25s55))/page.aspx', /session/);
    refused('https://example.com/p?ASPSESSIONIDQQGGQGPC=ABC', /session/);
    ok('https://example.com/p?sid=7'); // a short sid is an ordinary id
  });

  it('refuses calendar traps: absurd years and long numeric paths', () => {
    refused('https://example.com/calendar/2150/01/', /calendar/);
    refused('https://example.com/events/1850/12/01', /calendar/);
    refused('https://example.com/cal/2999-01-15', /calendar/);
    refused('https://example.com/cal?year=2300&month=1', /calendar/);
    refused('https://example.com/cal?date=2199-05-01', /calendar/);
    refused('https://example.com/a/1/2/3/4/5', /numeric/);
    ok(`https://example.com/blog/${new Date().getUTCFullYear()}/01/post`);
    ok('https://example.com/archive/1999/12/31/party');
    ok('https://example.com/cal?year=2020');
  });

  it('refuses private and local hosts unless allowed', () => {
    refused('http://127.0.0.1/', /private/);
    refused('http://localhost:8080/', /private/);
    refused('http://2130706433/', /private/);
    refused('http://0x7f.0.0.1/', /private/);
    refused('http://[::1]/', /private/);
    refused('http://[::ffff:127.0.0.1]/', /private/);
    refused('http://169.254.169.254/latest/meta-data/', /private/);
    refused('http://api.localhost/', /private/);
    ok('http://127.0.0.1:3000/page', { allowPrivate: true });
    ok('http://localhost/', { allowPrivate: true });
  });

  it('limits crawling to allowed hosts and their subdomains', () => {
    const p = { allowedHosts: ['example.com', 'Docs.Other.org'] };
    ok('https://example.com/', p);
    ok('https://blog.example.com/x', p);
    ok('https://docs.other.org/', p);
    refused('https://other.org/', /not allowed/, p);
    refused('https://notexample.com/', /not allowed/, p);
    refused('https://example.com.evil.net/', /not allowed/, p);
  });

  it('never throws on hostile input', () => {
    for (const u of ['', ' ', 'http://[', 'http://%', 'https://exa mple.com', '\u0000', 'http://example.com/%ZZ/%']) {
      expect(() => checkUrl(u)).not.toThrow();
    }
    expect(checkUrl(42 as unknown as string).ok).toBe(false);
  });
});

describe('urlChecker: checkUrl with its verdicts kept', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("gives checkUrl's verdicts, asked once or again, kept per rules object", () => {
    const urls = [
      'https://example.com/a',
      'https://example.com/a',
      'https://other.org/b',
      'http://192.168.1.1/',
      'https://example.com/logo.png',
      'ftp://example.com/',
      'https://example.com/;jsessionid=abc',
      'not a url',
    ];
    const onlyExample = { allowedHosts: ['example.com'] };
    const anyHost = {};
    const a = urlChecker(onlyExample);
    const b = urlChecker(anyHost);
    for (const u of [...urls, ...urls]) {
      expect(a(u), u).toEqual(checkUrl(u, onlyExample));
      expect(b(u), u).toEqual(checkUrl(u, anyHost));
    }
    // the two rules objects keep their own verdicts: other.org is refused by one, allowed by the other
    expect(a('https://other.org/b').ok).toBe(false);
    expect(b('https://other.org/b').ok).toBe(true);
    // a checker made later for the same rules object shares what the first kept (the same verdict object)
    expect(urlChecker(onlyExample)('https://other.org/b')).toBe(a('https://other.org/b'));
    // an equal but distinct rules object does not
    expect(urlChecker({ allowedHosts: ['example.com'] })('https://other.org/b')).not.toBe(a('https://other.org/b'));
  });

  it('starts over when the year changes (calendar traps are judged against the current year)', () => {
    vi.useFakeTimers();
    vi.setSystemTime(Date.UTC(2026, 11, 31, 23, 59));
    const check = urlChecker({});
    const url = 'https://example.com/archive/2029/01/';
    expect(check(url).ok).toBe(false); // more than 2 years ahead
    vi.setSystemTime(Date.UTC(2027, 0, 1, 0, 1));
    expect(check(url)).toEqual({ ok: true });
    expect(check(url)).toEqual(checkUrl(url));
  });
});

describe('UrlPolicy.privateHosts', () => {
  it('allows the named private hosts only, on the named port, whatever allowPrivate says about the rest', () => {
    const policy = { privateHosts: ['192.168.1.20:8080', 'intranet'] };
    expect(checkUrl('http://192.168.1.20:8080/wiki/', policy)).toEqual({ ok: true });
    expect(checkUrl('https://192.168.1.20:8080/wiki/', policy)).toEqual({ ok: true });
    expect(checkUrl('http://192.168.1.20/', policy).ok).toBe(false); // the same host on another port
    expect(checkUrl('http://192.168.1.20:22/', policy).ok).toBe(false);
    expect(checkUrl('http://intranet/docs/', policy)).toEqual({ ok: true }); // no port named: 80 (and 443 for https)
    expect(checkUrl('https://intranet/docs/', policy)).toEqual({ ok: true });
    expect(checkUrl('http://intranet:8080/docs/', policy).ok).toBe(false);
    expect(checkUrl('http://192.168.1.21/', policy).ok).toBe(false);
    expect(checkUrl('http://10.0.0.1/', policy).ok).toBe(false);
    expect(checkUrl('http://169.254.169.254/latest/meta-data/', policy).ok).toBe(false);
    expect(checkUrl('http://0xc0a80114:8080/', policy)).toEqual({ ok: true }); // 192.168.1.20 in hex, as URL normalizes it
    expect(checkUrl('http://127.0.0.1/', { ...policy, allowPrivate: 'loopback' })).toEqual({ ok: true });
  });

  it('an explicit default port names that port under either scheme', () => {
    const policy = { privateHosts: ['nas.local:80'] };
    expect(checkUrl('http://nas.local/', policy)).toEqual({ ok: true });
    expect(checkUrl('https://nas.local:80/', policy)).toEqual({ ok: true });
    expect(checkUrl('https://nas.local/', policy).ok).toBe(false); // 443 was not named
  });

  it('link-local hosts only by name; cloud metadata never, not even by name or with allowPrivate', () => {
    expect(checkUrl('http://169.254.10.1/', { allowPrivate: true }).ok).toBe(false);
    expect(checkUrl('http://[fe80::1]/', { allowPrivate: true }).ok).toBe(false);
    expect(checkUrl('http://169.254.10.1/', { privateHosts: ['169.254.10.1'] })).toEqual({ ok: true });
    expect(checkUrl('http://10.0.0.1/', { allowPrivate: true })).toEqual({ ok: true });
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00:ec2::254]/latest/',
      'http://metadata.google.internal/computeMetadata/v1/',
      'http://metadata/computeMetadata/v1/',
      'http://100.100.100.200/latest/',
      'http://168.63.129.16/machine',
      'http://[::ffff:169.254.169.254]/',
    ]) {
      const host = new URL(url).host;
      const r = checkUrl(url, { allowPrivate: true, privateHosts: [host] });
      expect(r.ok, url).toBe(false);
      if (!r.ok) expect(r.detail, url).toContain('cloud metadata');
    }
  });
});

describe('hostKind and checkAddress (the addresses a name resolves to, or the one a connection reached)', () => {
  it('classifies addresses as a resolver or a socket reports them', () => {
    const cases: [string, ReturnType<typeof hostKind>][] = [
      ['127.0.0.2', 'loopback'],
      ['::1', 'loopback'],
      ['::ffff:127.0.0.2', 'loopback'],
      ['::ffff:0:7f00:2', 'loopback'], // IPv4-translated
      ['0.0.0.0', 'private'],
      ['::', 'private'],
      ['10.1.2.3', 'private'],
      ['fd12:3456::1', 'private'],
      ['64:ff9b:1::7f00:2', 'private'], // NAT64 local-use prefix
      ['100::1', 'private'], // discard-only
      ['2001::1', 'private'], // Teredo, inside 2001::/23
      ['2001:db8::1', 'private'],
      ['3fff::1', 'private'],
      ['fe80::1', 'link-local'],
      ['fe80::1%eth0', 'link-local'], // a zone id names a link: refused even with private addresses allowed
      ['fe80::1%lo', 'link-local'],
      ['[fe80::1%25lo]', 'link-local'],
      ['fd00::1%eth0', 'link-local'],
      ['::1%lo', 'loopback'],
      ['169.254.1.1', 'link-local'],
      ['169.254.169.254', 'metadata'],
      ['::ffff:169.254.169.254', 'metadata'],
      ['fd00:ec2::254', 'metadata'],
      ['metadata.google.internal', 'metadata'],
      ['8.8.8.8', 'public'],
      ['64:ff9b::808:808', 'public'], // NAT64 of a public address: how an IPv6-only network reaches the web
      ['::ffff:8.8.8.8', 'public'],
      ['2606:4700:4700::1111', 'public'],
      ['2002:808:808::1', 'public'],
      ['2002:7f00:1::1', 'loopback'], // 6to4 of 127.0.0.1
      ['example.com', 'public'],
    ];
    for (const [address, kind] of cases) expect(hostKind(address), address).toBe(kind);
  });

  it('refuses a scoped link-local address (a zone id) even with private addresses allowed', () => {
    for (const address of ['fe80::1%lo', 'fe80::1%eth0']) {
      expect(checkAddress(address, 'http://router.example/', { allowPrivate: true }).ok, address).toBe(false);
    }
  });

  it('refuses a public-looking name at a private address unless the policy allows that kind or names the host', () => {
    const url = 'http://127-0-0-2.example-dns.net:8080/x';
    expect(checkAddress('8.8.8.8', url, {})).toEqual({ ok: true });
    const refused = checkAddress('127.0.0.2', url, {});
    expect(refused.ok).toBe(false);
    if (!refused.ok)
      expect(refused.detail).toBe('127-0-0-2.example-dns.net is at 127.0.0.2, a private address (loopback: this computer)');
    expect(checkAddress('::ffff:0:7f00:2', url, {}).ok).toBe(false);
    expect(checkAddress('64:ff9b:1::7f00:2', url, {}).ok).toBe(false);
    expect(checkAddress('127.0.0.2', url, { allowPrivate: 'loopback' })).toEqual({ ok: true });
    expect(checkAddress('10.0.0.2', url, { allowPrivate: 'loopback' }).ok).toBe(false);
    expect(checkAddress('10.0.0.2', url, { allowPrivate: true })).toEqual({ ok: true });
    expect(checkAddress('169.254.3.4', url, { allowPrivate: true }).ok).toBe(false);
    expect(checkAddress('169.254.169.254', url, { allowPrivate: true }).ok).toBe(false);
    // Named host and port: allowed at any address but a metadata one; another port of that name is not named.
    const named = { privateHosts: ['127-0-0-2.example-dns.net:8080'] };
    expect(checkAddress('192.168.7.7', url, named)).toEqual({ ok: true });
    expect(checkAddress('169.254.3.4', url, named)).toEqual({ ok: true });
    expect(checkAddress('169.254.169.254', url, named).ok).toBe(false);
    expect(checkAddress('192.168.7.7', 'http://127-0-0-2.example-dns.net:9090/', named).ok).toBe(false);
  });
});

describe('network guard rules (declarativeNetRequest session rules for redirect hops)', () => {
  const filters = PRIVATE_URL_FILTERS.map((f) => new RegExp(f));
  const privateRe = { test: (href: string) => filters.some((re) => re.test(href)) };
  /** IPv6 literals the rules block although lib may allow them: outside 2000::/3, or 6to4 (see network-guard.ts). */
  const overBlockedIPv6 = (host: string) =>
    (host.startsWith('[') && !/^\[[23][0-9a-f]{3}:/.test(host)) || host.startsWith('[2002:');
  const check = (spelling: string) => {
    let url: URL;
    try {
      url = new URL(`http://${spelling}/x?y#z`);
    } catch {
      return; // not a URL a browser would request
    }
    const privateHost = isPrivateHost(url.hostname);
    for (const href of [url.href, `http://user:pw@${url.host}/`, `https://${url.hostname}:8443/a`]) {
      const blocked = privateRe.test(href);
      if (privateHost) expect(blocked, `${href} (private) must be blocked`).toBe(true);
      else if (!overBlockedIPv6(url.hostname)) expect(blocked, `${href} (public) must not be blocked`).toBe(false);
    }
  };

  it('blocks every private host lib refuses, in every spelling, and no public one', () => {
    const spellings = [
      'localhost',
      'LOCALHOST.',
      'foo.localhost',
      'router',
      'printer.local',
      'metadata.google.internal',
      'nas.home.arpa',
      'box.localdomain',
      'example.com',
      'example.com.',
      '10.example.com',
      'local.example.com',
      'internal.example.org',
      '127.0.0.1.nip.io',
      'sub.domain.co.uk',
      'xn--bcher-kva.example',
      '0x7f.1',
      '2130706433',
      '017700000001',
      '127.1',
      '0.0.0.0',
      '0',
      '10.1.2.3',
      '100.63.255.255',
      '100.64.0.0',
      '100.127.255.255',
      '100.128.0.0',
      '169.254.169.254',
      '169.253.1.1',
      '172.15.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '172.32.0.1',
      '192.0.0.1',
      '192.0.1.1',
      '192.0.2.1',
      '192.167.1.1',
      '192.168.0.1',
      '198.17.0.1',
      '198.18.0.1',
      '198.19.255.255',
      '198.20.0.1',
      '198.51.100.7',
      '198.51.101.7',
      '203.0.113.9',
      '203.0.114.9',
      '223.255.255.255',
      '224.0.0.1',
      '255.255.255.255',
      '8.8.8.8',
      '1.1.1.1',
      '[::1]',
      '[::]',
      '[::ffff:127.0.0.1]',
      '[::ffff:8.8.8.8]',
      '[::127.0.0.1]',
      '[64:ff9b::10.0.0.1]',
      '[64:ff9b::8.8.8.8]',
      '[fe80::1]',
      '[febf::1]',
      '[fec0::1]',
      '[fc00::1]',
      '[fd00:ec2::254]',
      '[ff02::1]',
      '[2001:db8::1]',
      '[2001:db9::1]',
      '[2002:c0a8:101::1]',
      '[2002:808:808::1]',
      '[2a00:1450:4001::1]',
      '[2600::]',
      '[3fff::1]',
      '[2::1]',
      '[4000::1]',
      '[2001::1]',
      '[2001:1ff::1]',
      '[2001:200::1]',
      '[2001:db8::]',
      '[3fff:fff::1]',
      '[3fff:1000::1]',
      '[::ffff:0:7f00:2]',
      '[64:ff9b:1::7f00:2]',
      '168.63.129.16',
      '168.63.129.17',
      'metadata.goog',
      'metadata.goog.example.com',
    ];
    for (const s of spellings) check(s);
    // Every IPv4 address class boundary is above; now a deterministic sweep of 20,000 addresses.
    let state = 987654321;
    for (let i = 0; i < 20_000; i++) {
      state = (state * 1664525 + 1013904223) % 2 ** 32;
      check([state >>> 24, (state >>> 16) & 255, (state >>> 8) & 255, state & 255].join('.'));
    }
    // And 5,000 IPv6 literals inside and around 2000::/3, where the special blocks (2001::/23, 2001:db8::/32,
    // 3fff::/20) sit in the first two groups.
    const hex = (n: number) => n.toString(16);
    for (let i = 0; i < 5_000; i++) {
      state = (state * 1664525 + 1013904223) % 2 ** 32;
      const first = [0x2001, 0x3fff, 0x2000 + (state >>> 20), 0x1fff, 0x4000][i % 5];
      const second = [0, state & 0x3ff, state & 0xfff, 0xdb8, state & 0xffff][(state >>> 12) % 5];
      check(`[${hex(first)}:${hex(second)}::${hex(state & 0xffff)}]`);
    }
  });

  it('lets the crawl reach its own ticked private hosts, on their ports, and nothing next to them', () => {
    const rules = networkGuardRules('abcdefghijklmnop', ['127.0.0.1:4000', 'example.com', 'nas.local', '[fd00::1]:8443']);
    const blocks = rules.filter((r) => r.action.type === 'block');
    const allows = rules.filter((r) => r.action.type === 'allow');
    expect(blocks.map((r) => ('regexFilter' in r.condition ? r.condition.regexFilter : ''))).toEqual(PRIVATE_URL_FILTERS);
    expect(allows.length).toBe(6); // http and https for each of the three private hosts
    expect(Math.min(...allows.map((r) => r.priority))).toBeGreaterThan(Math.max(...blocks.map((r) => r.priority)));
    expect(new Set(rules.map((r) => r.id)).size).toBe(rules.length);
    expect(rules.every((r) => r.condition.initiatorDomains.join() === 'abcdefghijklmnop')).toBe(true);
    // declarativeNetRequest's urlFilter "|literal": the URL starts with the literal (hosts and schemes are lower case).
    const allowed = (href: string) =>
      allows.some((r) => 'urlFilter' in r.condition && href.startsWith(r.condition.urlFilter.replace(/^\|/, '')));
    expect(allowed('http://127.0.0.1:4000/a.html')).toBe(true);
    expect(allowed('https://127.0.0.1:4000/')).toBe(true);
    expect(allowed('http://127.0.0.1:4001/')).toBe(false); // another port of a named host
    expect(allowed('http://127.0.0.1/')).toBe(false);
    expect(allowed('http://127.0.0.10:4000/')).toBe(false);
    expect(allowed('http://127.0.0.1:40000/')).toBe(false);
    expect(allowed('http://nas.local/')).toBe(true);
    expect(allowed('https://nas.local/')).toBe(true);
    expect(allowed('http://nas.local:8080/')).toBe(false);
    expect(allowed('http://nas.local.evil.example/')).toBe(false);
    expect(allowed('http://[fd00::1]:8443/x')).toBe(true);
    expect(allowed('http://example.com/')).toBe(false); // public: needs no allow rule
    expect(networkGuardRules('x', ['example.com']).some((r) => r.action.type === 'allow')).toBe(false);
    expect(namedHostUrlFilters('Router.Local:80')).toEqual(['|http://router.local/', '|https://router.local:80/']);
  });

  it('keeps every rule small whatever the seeds: 500 private seed hosts make 1000 short urlFilter rules', () => {
    const hosts = Array.from({ length: 500 }, (_, i) => `10.${i >> 8}.${i & 255}.1:${8000 + i}`);
    const rules = networkGuardRules('abcdefghijklmnop', hosts);
    const allows = rules.filter((r) => r.action.type === 'allow');
    expect(allows.length).toBe(1000);
    expect(rules.filter((r) => 'regexFilter' in r.condition).length).toBe(PRIVATE_URL_FILTERS.length);
    for (const r of rules) {
      const filter = 'regexFilter' in r.condition ? r.condition.regexFilter : r.condition.urlFilter;
      expect(filter.length).toBeLessThan(300);
    }
    expect(new Set(rules.map((r) => r.id)).size).toBe(rules.length);
    expect(() =>
      networkGuardRules(
        'x',
        Array.from({ length: MAX_GUARD_HOSTS + 1 }, (_, i) => `h${i}`),
      ),
    ).toThrow(/at most/);
  });
});
