/**
 * URL rules: which URLs a crawl may fetch at all. Pure string work on WHATWG `URL`; no DNS.
 *
 * Hosts are judged by name or literal address here ({@link checkHost}); a DNS name's addresses are judged with the
 * same rules by {@link checkAddress} where they are known: the command line's dispatcher checks every address it
 * connects to (lib/app/adapters/guarded-fetch.ts), the extension every address the browser reports or resolves
 * (lib/app/adapters/address-guard.ts).
 */

export interface UrlPolicy {
  /**
   * Allow loopback and private addresses and local names (intranet crawls): true. Only loopback (127.0.0.0/8, ::1,
   * localhost) while every other private address stays refused: 'loopback' (test webs, the lab). Default false.
   * Link-local addresses (169.254.0.0/16, fe80::/10) stay refused either way unless named in `privateHosts`, and
   * cloud metadata addresses (169.254.169.254, fd00:ec2::254, metadata.google.internal ...) are never allowed.
   */
  allowPrivate?: boolean | 'loopback';
  /**
   * Hosts allowed by name and port although their kind is refused: a crawl seeded on the user's own intranet host
   * may fetch that host, while 10.0.0.1 or 169.254.169.254 linked from its pages stay refused. Entries are written
   * as URL.host writes them: `192.168.1.20:8080`, `intranet`, `[fd00::1]:8443`; an entry without a port means the
   * scheme's default port (80 for http, 443 for https), so the host's other ports stay refused. A named host is
   * allowed whatever its name resolves to, except a cloud metadata address.
   */
  privateHosts?: string[];
  /** When given, only these hosts and their subdomains. */
  allowedHosts?: string[];
  /** Longest URL accepted. Default 2048. */
  maxUrlLength?: number;
  /** Most path segments accepted. Default 16. */
  maxPathSegments?: number;
  /** Most times one path segment may occur in a path. Default 3. */
  maxRepeatedSegment?: number;
}

export type UrlCheck = { ok: true } | { ok: false; detail: string };

/** Extensions that are never HTML pages: images, audio, video, archives, documents, fonts, code, data and feeds. */
const NON_HTML_EXTENSIONS = new Set([
  // images
  'jpg',
  'jpeg',
  'png',
  'gif',
  'webp',
  'avif',
  'bmp',
  'ico',
  'svg',
  'svgz',
  'tif',
  'tiff',
  'heic',
  'psd',
  'eps',
  // audio / video
  'mp3',
  'wav',
  'ogg',
  'oga',
  'flac',
  'aac',
  'm4a',
  'opus',
  'mid',
  'midi',
  'mp4',
  'm4v',
  'webm',
  'mkv',
  'avi',
  'mov',
  'wmv',
  'flv',
  'mpg',
  'mpeg',
  '3gp',
  'm3u8',
  'ts',
  // archives / binaries / packages
  'zip',
  'gz',
  'tgz',
  'bz2',
  'xz',
  'zst',
  '7z',
  'rar',
  'tar',
  'jar',
  'war',
  'iso',
  'dmg',
  'exe',
  'msi',
  'deb',
  'rpm',
  'apk',
  'bin',
  'img',
  'whl',
  // documents
  'pdf',
  'doc',
  'docx',
  'xls',
  'xlsx',
  'ppt',
  'pptx',
  'odt',
  'ods',
  'odp',
  'rtf',
  'epub',
  'mobi',
  'ps',
  // fonts
  'woff',
  'woff2',
  'ttf',
  'otf',
  'eot',
  // code and data (feeds and sitemaps are XML: refused, the evaluator reads HTML only)
  'css',
  'js',
  'mjs',
  'map',
  'json',
  'xml',
  'rss',
  'atom',
  'csv',
  'tsv',
  'txt',
  'wasm',
  'swf',
]);

/** Query parameter names that carry a session id. */
const SESSION_PARAMS = new Set([
  'jsessionid',
  'phpsessid',
  'sessionid',
  'session_id',
  'sessid',
  'sid',
  'cfid',
  'cftoken',
  'zenid',
  'oscsid',
]);
/** A value that looks like a session token: 16+ hex digits, or 20+ mixed alphanumerics containing a digit. */
const SESSION_VALUE = /^(?:[0-9a-f]{16,}|(?=.*\d)[0-9a-z_-]{20,})$/i;

/** Years outside this range in a date-like path or query are treated as a calendar trap. */
const MIN_YEAR = 1900;
const FUTURE_YEARS = 2;
/** More consecutive all-number path segments than this is a generated (calendar-like) path. */
const MAX_NUMERIC_RUN = 4;

function parseIPv4(host: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  return parts.every((p) => p <= 255) ? parts : null;
}

/**
 * Cloud metadata services and their relatives (instance identity, credentials, the host agent): never fetched,
 * whatever the policy names. AWS, GCP, Azure, Oracle, DigitalOcean and OpenStack use 169.254.169.254; AWS ECS and
 * EKS 169.254.170.2 and .23, AWS over IPv6 fd00:ec2::254 (and ::23 for pod identity), Alibaba 100.100.100.200,
 * Oracle also 192.0.0.192, Azure's host agent (WireServer) 168.63.129.16, a public address.
 */
const METADATA_IPV4 = new Set([
  '169.254.169.254',
  '169.254.170.2',
  '169.254.170.23',
  '100.100.100.200',
  '192.0.0.192',
  '168.63.129.16',
]);
const METADATA_IPV6 = new Set(['fd00:ec2::254', 'fd00:ec2::23']);
const METADATA_NAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
]);

/**
 * What a host or address is, for the private-network rules:
 * - 'public': anything else (a DNS name here is judged by its name only; its addresses are checked where they are known);
 * - 'loopback': this machine (127.0.0.0/8, ::1, localhost and *.localhost);
 * - 'private': the user's networks and reserved space (RFC 1918, CGNAT, unique-local, multicast, documentation,
 *   "this network", local names such as single labels, *.local, *.internal, *.home.arpa);
 * - 'link-local': 169.254.0.0/16 and fe80::/10, where cloud metadata services live;
 * - 'metadata': a cloud metadata address or name ({@link METADATA_IPV4}), never fetched.
 */
export type HostKind = 'public' | 'loopback' | 'private' | 'link-local' | 'metadata';

function ipv4Kind(v4: number[]): HostKind {
  const [a, b, c] = v4;
  if (METADATA_IPV4.has(v4.join('.'))) return 'metadata';
  if (a === 127) return 'loopback';
  if (a === 169 && b === 254) return 'link-local';
  const reserved =
    a === 0 || // 0.0.0.0/8 "this network" (0.0.0.0 itself reaches this machine)
    a === 10 || // private
    (a === 100 && b >= 64 && b <= 127) || // CGNAT 100.64/10
    (a === 172 && b >= 16 && b <= 31) || // private
    (a === 192 && b === 0 && (c === 0 || c === 2)) || // IETF protocol assignments, TEST-NET-1
    (a === 192 && b === 168) || // private
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    (a === 198 && b === 51 && c === 100) || // TEST-NET-2
    (a === 203 && b === 0 && c === 113) || // TEST-NET-3
    a >= 224; // multicast 224/4, reserved 240/4, broadcast
  return reserved ? 'private' : 'public';
}

/**
 * Expands a WHATWG-serialized IPv6 address (no brackets) into 8 16-bit groups, or null. URL always serializes
 * IPv6 in hex groups (an embedded dotted IPv4 such as ::ffff:127.0.0.1 becomes ::ffff:7f00:1), so no dotted form.
 */
function parseIPv6(host: string): number[] | null {
  const halves = host.split('::');
  if (halves.length > 2) return null;
  const toGroups = (s: string) => (s === '' ? [] : s.split(':').map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN)));
  const head = toGroups(halves[0]);
  const tail = halves.length === 2 ? toGroups(halves[1]) : [];
  const fill = 8 - head.length - tail.length;
  if (fill < 0 || (halves.length === 1 && fill !== 0)) return null;
  const groups = [...head, ...new Array<number>(fill).fill(0), ...tail];
  return groups.some((g) => Number.isNaN(g)) ? null : groups;
}

/**
 * IPv6: the forms that carry an IPv4 address (mapped ::ffff:0:0/96, translated ::ffff:0:0:0/96, compatible ::/96,
 * NAT64 64:ff9b::/96, 6to4 2002::/16) are what that IPv4 address is (a NAT64 network reaches public sites through
 * 64:ff9b::a.b.c.d); everything else outside global unicast 2000::/3, and the special blocks inside it, is not public.
 */
function ipv6Kind(g: number[], text: string): HostKind {
  if (METADATA_IPV6.has(text)) return 'metadata';
  const v4 = (hi: number, lo: number) => ipv4Kind([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zero(0, 7) && g[7] === 1) return 'loopback'; // ::1
  if (zero(0, 8)) return 'private'; // :: unspecified (reaches this machine)
  if (zero(0, 5) && g[5] === 0xffff) return v4(g[6], g[7]); // IPv4-mapped ::ffff:a.b.c.d
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return v4(g[6], g[7]); // IPv4-translated ::ffff:0:a.b.c.d
  if (zero(0, 6)) return v4(g[6], g[7]); // deprecated IPv4-compatible ::a.b.c.d
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return v4(g[6], g[7]); // NAT64 well-known prefix
  if (g[0] === 0x2002) return v4(g[1], g[2]); // 6to4
  if ((g[0] & 0xffc0) === 0xfe80) return 'link-local'; // fe80::/10
  if (g[0] < 0x2000 || g[0] > 0x3fff) return 'private'; // outside global unicast: unique-local, site-local, multicast, NAT64 local-use 64:ff9b:1::/48, discard 100::/64 ...
  if (g[0] === 0x2001 && g[1] < 0x200) return 'private'; // 2001::/23 IETF protocol assignments (Teredo, ORCHID ...)
  if (g[0] === 0x2001 && g[1] === 0x0db8) return 'private'; // documentation
  if (g[0] === 0x3fff && g[1] < 0x1000) return 'private'; // documentation 3fff::/20
  return 'public';
}

/** Reserved or internal-only names. Single-label names (no dot) only resolve through local search domains. */
function nameKind(host: string): HostKind {
  const h = host.endsWith('.') ? host.slice(0, -1) : host;
  if (METADATA_NAMES.has(h)) return 'metadata';
  if (h === 'localhost' || h.endsWith('.localhost')) return 'loopback';
  const local =
    !h.includes('.') || // intranet names
    h.endsWith('.local') || // mDNS
    h.endsWith('.internal') || // ICANN private-use TLD
    h.endsWith('.home.arpa') ||
    h.endsWith('.localdomain');
  return local ? 'private' : 'public';
}

/**
 * What `hostname` is (see {@link HostKind}). Accepts what `URL.hostname` gives (IPv6 in brackets), bare IPv6 (as a
 * resolver or a socket reports it, an embedded dotted IPv4 included), and any IPv4 spelling WHATWG URL understands
 * (decimal 2130706433, hex 0x7f.1, octal 0177.0.0.1). Anything that is not a valid host is 'private' (refused).
 */
export function hostKind(hostname: string): HostKind {
  let host = hostname.trim().toLowerCase();
  if (!host) return 'private';
  // A zone id (fe80::1%lo, as resolvers and sockets write scoped addresses) names a link: the address without it is
  // judged, and anything scoped that would otherwise pass as private or public is link-local (refused even with
  // private addresses allowed).
  const zoned = /^\[?([0-9a-f:.]+)%(?:25)?[^\]%]+\]?$/.exec(host);
  if (zoned) {
    const kind = hostKind(zoned[1]);
    return kind === 'public' || kind === 'private' ? 'link-local' : kind;
  }
  if (host.includes(':') && !host.startsWith('[')) host = `[${host}]`;
  let normalized: string;
  try {
    // Let URL apply the WHATWG host parser: IPv4 number forms, IPv6 compression, IDNA.
    normalized = new URL(`http://${host}/`).hostname;
  } catch {
    return 'private'; // not a valid host at all: refuse rather than guess
  }
  if (normalized.startsWith('[')) {
    const text = normalized.slice(1, -1);
    const groups = parseIPv6(text);
    return groups ? ipv6Kind(groups, text) : 'private';
  }
  const v4 = parseIPv4(normalized);
  if (v4) return ipv4Kind(v4);
  return nameKind(normalized);
}

/**
 * Whether a hostname is a loopback, private, link-local, unique-local, CGNAT, "this network", multicast,
 * documentation or cloud-metadata address, or a reserved local name (see {@link hostKind}).
 * DNS names are judged by name only: their addresses are checked where they are known (the command line's
 * connections, the extension's webRequest and dns checks; {@link checkAddress}).
 */
export function isPrivateHost(hostname: string): boolean {
  return hostKind(hostname) !== 'public';
}

/** 127.0.0.0/8, ::1 and localhost names: this machine only. */
export function isLoopbackHost(hostname: string): boolean {
  return hostKind(hostname) === 'loopback';
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/**
 * A privateHosts entry as URL.host writes it: lower case, IPv4 in dotted decimal, IPv6 bracketed and compressed,
 * the port only when given (an explicit :80 or :443 is kept, and matches that port under either scheme).
 * Null when it is not a host.
 */
export function normalizeNamedHost(entry: string): string | null {
  const text = entry.trim();
  if (!text || /[/?#@\s]/.test(text)) return null;
  try {
    const u = new URL(`http://${text}/`);
    const port = /:(\d+)$/.exec(text)?.[1];
    return port !== undefined && !u.port ? `${u.hostname}:${Number(port)}` : u.host;
  } catch {
    return null;
  }
}

/** Whether `policy.privateHosts` names this URL's host and port (an entry without a port: the scheme's default port). */
export function isNamedHost(url: URL, policy: UrlPolicy): boolean {
  if (!policy.privateHosts?.length) return false;
  const port = url.port || DEFAULT_PORTS[url.protocol] || '';
  const withPort = `${url.hostname}:${port}`;
  for (const entry of policy.privateHosts) {
    const named = normalizeNamedHost(entry);
    if (named === url.host || named === withPort) return true;
  }
  return false;
}

/**
 * Whether `policy` lets a crawl reach a server of this kind for `url`: public always; metadata never; loopback with
 * allowPrivate true or 'loopback'; private with allowPrivate true; link-local only when named; and every kind but
 * metadata when `privateHosts` names the URL's host and port.
 */
function kindAllowed(kind: HostKind, url: URL, policy: UrlPolicy): boolean {
  if (kind === 'public') return true;
  if (kind === 'metadata') return false;
  if (isNamedHost(url, policy)) return true;
  if (kind === 'loopback') return policy.allowPrivate === true || policy.allowPrivate === 'loopback';
  if (kind === 'private') return policy.allowPrivate === true;
  return false; // link-local: only by name
}

/** How a refusal names each kind (every detail says "private", which the UI and the tests look for). */
const KIND_WORDS: Record<Exclude<HostKind, 'public'>, string> = {
  loopback: 'loopback: this computer',
  private: 'a private network or a local name',
  'link-local': 'link-local',
  metadata: 'cloud metadata: never fetched',
};

/** The URL rules' verdict on the host of `url` (already parsed), judged by name or literal address. */
export function checkHost(url: URL, policy: UrlPolicy): UrlCheck {
  const kind = hostKind(url.hostname);
  if (kindAllowed(kind, url, policy)) return { ok: true };
  return { ok: false, detail: `private host ${url.host} (${KIND_WORDS[kind as Exclude<HostKind, 'public'>]})` };
}

/**
 * The verdict on a server address for a request to `url`: what a resolver returned for its host name, or the
 * address the connection actually reached (the command line's dispatcher, the browser's webRequest `ip`). The
 * same rules as {@link checkHost}, applied to the address: a public-looking name that resolves to 127.0.0.2 is
 * refused unless the policy allows loopback or names that host and port.
 */
export function checkAddress(address: string, url: string | URL, policy: UrlPolicy): UrlCheck {
  let u: URL;
  try {
    u = typeof url === 'string' ? new URL(url) : url;
  } catch {
    return { ok: false, detail: 'unparsable URL' };
  }
  const kind = hostKind(address);
  if (kindAllowed(kind, u, policy)) return { ok: true };
  return {
    ok: false,
    detail: `${u.hostname} is at ${address}, a private address (${KIND_WORDS[kind as Exclude<HostKind, 'public'>]})`,
  };
}

function normalizeHost(h: string): string | null {
  try {
    return new URL(`http://${h.trim().replace(/^\*\./, '')}/`).hostname;
  } catch {
    return null;
  }
}

function hostAllowed(host: string, allowed: string[]): boolean {
  for (const entry of allowed) {
    const a = normalizeHost(entry);
    if (!a) continue;
    if (host === a || host.endsWith(`.${a}`)) return true;
  }
  return false;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function yearOutOfRange(year: number): boolean {
  return year < MIN_YEAR || year > new Date().getUTCFullYear() + FUTURE_YEARS;
}

/** Calendar traps: date-like paths or query values with absurd years, or long runs of numeric segments. */
function calendarTrap(segments: string[], params: [string, string][]): string | null {
  let run = 0;
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i];
    if (/^\d+$/.test(s)) {
      run++;
      if (run > MAX_NUMERIC_RUN) return `more than ${MAX_NUMERIC_RUN} numeric path segments in a row`;
      // /YYYY/MM...: a year followed by a month-like segment.
      if (/^\d{4}$/.test(s) && /^\d{1,2}$/.test(segments[i + 1] ?? '') && yearOutOfRange(+s)) {
        return `calendar-like path with year ${s}`;
      }
    } else run = 0;
    const date = /(?:^|\D)(\d{4})-(\d{1,2})(?:-\d{1,2})?(?:\D|$)/.exec(s);
    if (date && +date[2] >= 1 && +date[2] <= 12 && yearOutOfRange(+date[1])) return `calendar-like path with year ${date[1]}`;
  }
  for (const [k, v] of params) {
    const key = k.toLowerCase();
    if ((key === 'year' || key === 'yr' || key === 'y') && /^\d{4}$/.test(v) && yearOutOfRange(+v)) {
      return `calendar-like query ${key}=${v}`;
    }
    const date = /^(\d{4})-(\d{1,2})(?:-\d{1,2})?$/.exec(v);
    if (date && yearOutOfRange(+date[1])) return `calendar-like query ${key}=${v}`;
  }
  return null;
}

/** Verdicts kept per rules object by {@link urlChecker}, and the end of the year they were given in. */
const keptVerdicts = new WeakMap<UrlPolicy, { verdicts: Map<string, UrlCheck>; yearEndsMs: number }>();
/** Verdicts kept per rules object (then it starts over). */
const VERDICTS_KEPT = 100_000;

/**
 * {@link checkUrl} under fixed rules, with its verdicts kept: a verdict depends on the URL, the rules and the year
 * (calendar traps), and a crawl checks the same URLs again and again (a site's pages share their navigation; the
 * lab's thousands of crawls share one web). Verdicts are kept per `policy` object, so callers that share a rules
 * object share them; a rules object must not be changed once checked against.
 */
export function urlChecker(policy: UrlPolicy): (url: string) => UrlCheck {
  let kept = keptVerdicts.get(policy);
  if (!kept) {
    kept = { verdicts: new Map(), yearEndsMs: 0 };
    keptVerdicts.set(policy, kept);
  }
  const k = kept;
  return (url) => {
    if (Date.now() >= k.yearEndsMs) {
      k.verdicts.clear();
      k.yearEndsMs = Date.UTC(new Date().getUTCFullYear() + 1, 0, 1);
    }
    let verdict = k.verdicts.get(url);
    if (verdict === undefined) {
      verdict = checkUrl(url, policy);
      if (k.verdicts.size >= VERDICTS_KEPT) k.verdicts.clear();
      k.verdicts.set(url, verdict);
    }
    return verdict;
  };
}

/**
 * Decides whether the crawl may fetch `url`. Refuses: non-http(s) and unparsable URLs; URLs longer than
 * `maxUrlLength` (2048); URLs with credentials; obvious non-HTML by extension (images, media, archives, PDF,
 * office documents, fonts, CSS/JS/JSON, XML feeds); more than `maxPathSegments` (16) path segments; a path segment
 * occurring more than `maxRepeatedSegment` (3) times (/a/b/a/b/a/b/a/b); session ids (jsessionid, phpsessid,
 * sessionid, sid=<token>, ;jsessionid= path parameters, ASP.NET /(S(...))/ segments); calendar traps (a 4-digit
 * year before 1900 or more than 2 years ahead in a /YYYY/MM path, a YYYY-MM(-DD) segment or a year/date query
 * value, or more than 4 consecutive numeric path segments; depth and repetition limits catch the rest); hosts outside
 * `allowedHosts` (a host matches itself and its subdomains); private and reserved addresses and local names
 * as {@link checkHost} says (a DNS name is judged here by its name; its addresses by {@link checkAddress}).
 */
export function checkUrl(url: string, policy: UrlPolicy = {}): UrlCheck {
  const maxUrlLength = policy.maxUrlLength ?? 2048;
  const maxPathSegments = policy.maxPathSegments ?? 16;
  const maxRepeated = policy.maxRepeatedSegment ?? 3;
  if (typeof url !== 'string') return { ok: false, detail: 'not a string' };
  if (url.length > maxUrlLength) return { ok: false, detail: `URL longer than ${maxUrlLength} characters` };
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { ok: false, detail: 'unparsable URL' };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return { ok: false, detail: `scheme ${u.protocol} not crawlable` };
  if (u.href.length > maxUrlLength) return { ok: false, detail: `URL longer than ${maxUrlLength} characters` };
  if (u.username || u.password) return { ok: false, detail: 'URL carries credentials' };
  const host = u.hostname;
  if (policy.allowedHosts && !hostAllowed(host, policy.allowedHosts)) return { ok: false, detail: `host ${host} not allowed` };
  const hostCheck = checkHost(u, policy);
  if (!hostCheck.ok) return hostCheck;

  const rawSegments = u.pathname.split('/').filter((s) => s !== '');
  const segments = rawSegments.map((s) => safeDecode(s).toLowerCase());
  const last = segments[segments.length - 1] ?? '';
  const lastName = last.split(';')[0];
  const dot = lastName.lastIndexOf('.');
  if (dot > 0 && !u.pathname.endsWith('/')) {
    const ext = lastName.slice(dot + 1);
    if (NON_HTML_EXTENSIONS.has(ext)) return { ok: false, detail: `non-HTML extension .${ext}` };
  }
  if (segments.length > maxPathSegments) return { ok: false, detail: `more than ${maxPathSegments} path segments` };
  const counts = new Map<string, number>();
  for (const s of segments) {
    const n = (counts.get(s) ?? 0) + 1;
    if (n > maxRepeated) return { ok: false, detail: `path segment "${s}" repeated more than ${maxRepeated} times` };
    counts.set(s, n);
  }

  const pathLower = u.pathname.toLowerCase();
  if (/;\s*(?:jsessionid|phpsessid|sid|sessionid)=/.test(pathLower)) return { ok: false, detail: 'session id in path' };
  if (/\/\(s\([a-z0-9]+\)\)/.test(pathLower)) return { ok: false, detail: 'session id in path' };
  const params: [string, string][] = [];
  for (const raw of u.search.slice(1).split('&')) {
    if (!raw) continue;
    const eq = raw.indexOf('=');
    const k = safeDecode((eq < 0 ? raw : raw.slice(0, eq)).replace(/\+/g, ' '));
    const v = eq < 0 ? '' : safeDecode(raw.slice(eq + 1).replace(/\+/g, ' '));
    params.push([k, v]);
    const key = k.toLowerCase();
    if (key.startsWith('aspsessionid')) return { ok: false, detail: `session id in query (${k})` };
    if (SESSION_PARAMS.has(key)) {
      // "sid" is also a plain id on some sites: refuse it only with a token-like value.
      if (key !== 'sid' || SESSION_VALUE.test(v)) return { ok: false, detail: `session id in query (${k})` };
    }
  }
  const trap = calendarTrap(segments, params);
  if (trap) return { ok: false, detail: trap };
  return { ok: true };
}
