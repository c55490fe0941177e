/**
 * URL rules: which URLs a crawl may fetch at all. Pure string work on WHATWG `URL`; no DNS.
 *
 * Limitation: a DNS name that resolves to a private address (DNS rebinding, internal names in public zones) cannot be
 * recognised here, because lib/ has no resolver. Only literal addresses and reserved names are refused; a Node
 * fetcher that wants full protection must check the resolved address at connect time.
 */

export interface UrlPolicy {
  /**
   * Allow loopback, private, link-local ... addresses and localhost names (intranet crawls): true. Only loopback
   * (127.0.0.0/8, ::1, localhost) while every other private address stays refused: 'loopback' (test webs, the lab).
   * Default false.
   */
  allowPrivate?: boolean | 'loopback';
  /**
   * Private or local hosts allowed by name although `allowPrivate` is off: a crawl seeded on the user's own
   * intranet host may fetch that host, while 10.0.0.1 or 169.254.169.254 linked from its pages stay refused.
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

function isPrivateIPv4([a, b, c]: number[]): boolean {
  return (
    a === 0 || // 0.0.0.0/8 "this network"
    a === 10 || // private
    (a === 100 && b >= 64 && b <= 127) || // CGNAT 100.64/10 (also Alibaba's metadata 100.100.100.200)
    a === 127 || // loopback
    (a === 169 && b === 254) || // link-local, cloud metadata 169.254.169.254
    (a === 172 && b >= 16 && b <= 31) || // private
    (a === 192 && b === 0 && (c === 0 || c === 2)) || // IETF protocol assignments, TEST-NET-1
    (a === 192 && b === 168) || // private
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    (a === 198 && b === 51 && c === 100) || // TEST-NET-2
    (a === 203 && b === 0 && c === 113) || // TEST-NET-3
    a >= 224 // multicast 224/4, reserved 240/4, broadcast
  );
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

function isPrivateIPv6(g: number[]): boolean {
  const zeros5 = g[0] === 0 && g[1] === 0 && g[2] === 0 && g[3] === 0 && g[4] === 0;
  const v4 = () => [g[6] >> 8, g[6] & 0xff, g[7] >> 8, g[7] & 0xff];
  if (zeros5 && g[5] === 0 && g[6] === 0 && (g[7] === 0 || g[7] === 1)) return true; // :: and ::1
  if (zeros5 && g[5] === 0xffff) return isPrivateIPv4(v4()); // IPv4-mapped ::ffff:a.b.c.d
  if (zeros5 && g[5] === 0) return isPrivateIPv4(v4()); // deprecated IPv4-compatible ::a.b.c.d
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 0 && g[3] === 0 && g[4] === 0 && g[5] === 0) return isPrivateIPv4(v4()); // NAT64
  if (g[0] === 0x2002) return isPrivateIPv4([g[1] >> 8, g[1] & 0xff, g[2] >> 8, g[2] & 0xff]); // 6to4
  if ((g[0] & 0xffc0) === 0xfe80) return true; // link-local fe80::/10
  if ((g[0] & 0xffc0) === 0xfec0) return true; // site-local (deprecated) fec0::/10
  if ((g[0] & 0xfe00) === 0xfc00) return true; // unique-local fc00::/7 (incl. AWS metadata fd00:ec2::254)
  if ((g[0] & 0xff00) === 0xff00) return true; // multicast
  if (g[0] === 0x2001 && g[1] === 0x0db8) return true; // documentation
  return false;
}

/** Reserved or internal-only names. Single-label names (no dot) only resolve through local search domains. */
function isPrivateName(host: string): boolean {
  const h = host.endsWith('.') ? host.slice(0, -1) : host;
  if (!h.includes('.')) return true; // localhost, intranet names, "metadata"
  return (
    h.endsWith('.localhost') ||
    h.endsWith('.local') || // mDNS
    h.endsWith('.internal') || // ICANN private-use TLD; metadata.google.internal
    h.endsWith('.home.arpa') ||
    h.endsWith('.localdomain')
  );
}

/** Whether `policy` lets a crawl reach `host` (a URL.hostname): public hosts always; private ones as the policy says. */
export function privateHostAllowed(host: string, policy: UrlPolicy): boolean {
  if (policy.allowPrivate === true || !isPrivateHost(host)) return true;
  if (policy.allowPrivate === 'loopback' && isLoopbackHost(host)) return true;
  return policy.privateHosts?.some((h) => h.toLowerCase() === host) ?? false;
}

/** 127.0.0.0/8, ::1 and localhost names: this machine only. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  return (
    h === 'localhost' || h.endsWith('.localhost') || h === '[::1]' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)
  );
}

/**
 * Whether a hostname is a loopback, private, link-local, unique-local, CGNAT, "this network", multicast,
 * documentation or cloud-metadata address, or a reserved local name (localhost, *.localhost, *.local, *.internal,
 * single-label names). Accepts what `URL.hostname` gives (IPv6 in brackets) as well as bare IPv6, and any IPv4
 * spelling WHATWG URL understands (decimal 2130706433, hex 0x7f.1, octal 0177.0.0.1).
 * DNS names are judged by name only (no resolver in lib/).
 */
export function isPrivateHost(hostname: string): boolean {
  let host = hostname.trim().toLowerCase();
  if (!host) return true;
  if (host.includes(':') && !host.startsWith('[')) host = `[${host}]`;
  let normalized: string;
  try {
    // Let URL apply the WHATWG host parser: IPv4 number forms, IPv6 compression, IDNA.
    normalized = new URL(`http://${host}/`).hostname;
  } catch {
    return true; // not a valid host at all: refuse rather than guess
  }
  if (normalized.startsWith('[')) {
    const groups = parseIPv6(normalized.slice(1, -1));
    return groups ? isPrivateIPv6(groups) : true;
  }
  const v4 = parseIPv4(normalized);
  if (v4) return isPrivateIPv4(v4);
  return isPrivateName(normalized);
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

/**
 * Decides whether the crawl may fetch `url`. Refuses: non-http(s) and unparsable URLs; URLs longer than
 * `maxUrlLength` (2048); URLs with credentials; obvious non-HTML by extension (images, media, archives, PDF,
 * office documents, fonts, CSS/JS/JSON, XML feeds); more than `maxPathSegments` (16) path segments; a path segment
 * occurring more than `maxRepeatedSegment` (3) times (/a/b/a/b/a/b/a/b); session ids (jsessionid, phpsessid,
 * sessionid, sid=<token>, ;jsessionid= path parameters, ASP.NET /(S(...))/ segments); calendar traps (a 4-digit
 * year before 1900 or more than 2 years ahead in a /YYYY/MM path, a YYYY-MM(-DD) segment or a year/date query
 * value, or more than 4 consecutive numeric path segments; depth and repetition limits catch the rest); hosts outside
 * `allowedHosts` (a host matches itself and its subdomains); private and reserved addresses and local names
 * unless `allowPrivate` (see {@link isPrivateHost}; DNS names resolving to private addresses are not detected).
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
  if (!privateHostAllowed(host, policy)) return { ok: false, detail: `private or local host ${host}` };

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
