import { cyrb53 } from '../lib/engine';

/**
 * A simulated wide-area network for the lab: per-site latency drawn from a seeded heavy-tailed distribution, transfer
 * time by size, a few slow sites, a few sites that sometimes never answer and a few that sometimes answer 5xx.
 *
 * Every draw is a pure function of (network seed, site, URL, what is drawn): no state, no call order. The same seed
 * gives the same numbers bit for bit, and every strategy meets the same network (a URL is as slow for breadth-first
 * as for best-first), which makes paired comparisons of crawlers fairer (common random numbers).
 */

/** The parameters of a network model. Times in milliseconds, sizes in bytes. */
export interface NetworkModel {
  name: string;
  description: string;
  /** Each site's median latency (time to response headers) is drawn lognormally: median, and sigma of its log. */
  siteLatency: { medianMs: number; sigma: number };
  /** This share of the sites (the ones whose hash ranks first) is slow: its median latency is multiplied by `factor`. */
  slowSites: { share: number; factor: number };
  /** A request's latency is lognormal around its site's median with this sigma of the log. */
  requestSigma: number;
  /** Heavy tail: with this probability a request waits an extra Pareto(scaleMs, alpha) time, at most capMs. */
  tail: { probability: number; scaleMs: number; alpha: number; capMs: number };
  /** This share of the sites never answers `probability` of its requests (the crawler's own timeout ends them). */
  timeouts: { siteShare: number; probability: number };
  /** This share of the sites answers `probability` of its requests with one of `statuses` instead of the page. */
  serverErrors: { siteShare: number; probability: number; statuses: number[] };
  /** Each site's bandwidth (bytes per second), drawn lognormally: median, and sigma of its log. */
  bandwidth: { medianBytesPerSecond: number; sigma: number };
}

/** The named models `run --network` takes. */
export const NETWORK_MODELS: Record<string, NetworkModel> = {
  wan: {
    name: 'wan',
    description:
      'wide-area web: site medians lognormal around 100 ms (sigma 0.5), 10% of sites 5x slower, requests lognormal around ' +
      'their site (sigma 0.4) plus a 3% Pareto tail (200 ms, alpha 1.2, up to 60 s); 10% of sites never answer 5% of ' +
      'requests, 10% answer 5% with 500/503; bandwidth lognormal around 2 MB/s (sigma 0.7)',
    siteLatency: { medianMs: 100, sigma: 0.5 },
    slowSites: { share: 0.1, factor: 5 },
    requestSigma: 0.4,
    tail: { probability: 0.03, scaleMs: 200, alpha: 1.2, capMs: 60_000 },
    timeouts: { siteShare: 0.1, probability: 0.05 },
    serverErrors: { siteShare: 0.1, probability: 0.05, statuses: [500, 503] },
    bandwidth: { medianBytesPerSecond: 2_000_000, sigma: 0.7 },
  },
  lan: {
    name: 'lan',
    description: 'a fast local network: every site 2 ms (sigma 0.2), no tail, no failures, 100 MB/s',
    siteLatency: { medianMs: 2, sigma: 0 },
    slowSites: { share: 0, factor: 1 },
    requestSigma: 0.2,
    tail: { probability: 0, scaleMs: 1, alpha: 1, capMs: 0 },
    timeouts: { siteShare: 0, probability: 0 },
    serverErrors: { siteShare: 0, probability: 0, statuses: [500] },
    bandwidth: { medianBytesPerSecond: 100_000_000, sigma: 0 },
  },
};

/** The model of that name. @throws Error naming the known models. */
export function networkModel(name: string): NetworkModel {
  const m = Object.hasOwn(NETWORK_MODELS, name) ? NETWORK_MODELS[name] : undefined;
  if (!m) throw new Error(`unknown network model "${name}" (known: ${Object.keys(NETWORK_MODELS).join(', ')})`);
  return m;
}

/** What the network makes of one site. */
export interface SiteProfile {
  site: string;
  medianLatencyMs: number;
  slow: boolean;
  /** Share of requests that never answer. */
  timeoutProbability: number;
  /** Share of requests answered with a server error. */
  errorProbability: number;
  bytesPerSecond: number;
}

/** What the network does with one request. */
export type RequestFate =
  | { kind: 'answer'; latencyMs: number }
  | { kind: 'server-error'; latencyMs: number; status: number }
  | { kind: 'no-answer' };

/**
 * cyrb53 (lib/engine/text/hash.ts): the hash of a key is its uniform draw, so draws need no state and no order.
 */
export const hash53 = cyrb53;

/** A uniform draw in (0, 1) for a key. */
export function uniform(key: string, seed: number): number {
  return (hash53(key, seed) + 0.5) / 2 ** 53;
}

/** A standard normal draw for a key (Box-Muller on two independent uniforms). */
export function normal(key: string, seed: number): number {
  const u1 = uniform(`${key}\0n1`, seed);
  const u2 = uniform(`${key}\0n2`, seed);
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}

/** The simulated network of one seed over a list of sites. */
export class SimulatedNetwork {
  private readonly profiles = new Map<string, SiteProfile>();

  constructor(
    readonly model: NetworkModel,
    readonly seed: number,
    sites: string[],
  ) {
    const ranked = (purpose: string) =>
      [...sites].sort((a, b) => uniform(`${purpose}\0${a}`, seed) - uniform(`${purpose}\0${b}`, seed) || (a < b ? -1 : 1));
    const pick = (purpose: string, share: number) => new Set(ranked(purpose).slice(0, Math.round(share * sites.length)));
    const slow = pick('slow', model.slowSites.share);
    const timeouts = pick('timeouts', model.timeouts.siteShare);
    const errors = pick('errors', model.serverErrors.siteShare);
    for (const site of sites) {
      const base = model.siteLatency.medianMs * Math.exp(model.siteLatency.sigma * normal(`latency\0${site}`, seed));
      this.profiles.set(site, {
        site,
        medianLatencyMs: slow.has(site) ? base * model.slowSites.factor : base,
        slow: slow.has(site),
        timeoutProbability: timeouts.has(site) ? model.timeouts.probability : 0,
        errorProbability: errors.has(site) ? model.serverErrors.probability : 0,
        bytesPerSecond:
          model.bandwidth.medianBytesPerSecond * Math.exp(model.bandwidth.sigma * normal(`bandwidth\0${site}`, seed)),
      });
    }
  }

  /** The site's profile. @throws Error for a site the network does not know. */
  profile(site: string): SiteProfile {
    const p = this.profiles.get(site);
    if (!p) throw new Error(`the simulated network has no site "${site}"`);
    return p;
  }

  get sites(): SiteProfile[] {
    return [...this.profiles.values()];
  }

  /** The fate of the `attempt`-th request (from 0) for `url` on `site`. */
  request(site: string, url: string, attempt = 0): RequestFate {
    const p = this.profile(site);
    const key = `${site}\0${url}\0${attempt}`;
    const m = this.model;
    if (p.timeoutProbability > 0 && uniform(`${key}\0timeout`, this.seed) < p.timeoutProbability) return { kind: 'no-answer' };
    let latencyMs = p.medianLatencyMs * Math.exp(m.requestSigma * normal(`${key}\0latency`, this.seed));
    if (m.tail.probability > 0 && uniform(`${key}\0tail`, this.seed) < m.tail.probability) {
      // Pareto by inversion: scale / u^(1/alpha)
      const extra = m.tail.scaleMs / uniform(`${key}\0tail-size`, this.seed) ** (1 / m.tail.alpha);
      latencyMs += Math.min(extra, m.tail.capMs);
    }
    if (p.errorProbability > 0 && uniform(`${key}\0error`, this.seed) < p.errorProbability) {
      const statuses = m.serverErrors.statuses;
      const status = statuses[Math.floor(uniform(`${key}\0status`, this.seed) * statuses.length)];
      return { kind: 'server-error', latencyMs, status };
    }
    return { kind: 'answer', latencyMs };
  }

  /** Milliseconds to transfer `bytes` from `site` once the headers are in. */
  transferMs(site: string, bytes: number): number {
    return (bytes / this.profile(site).bytesPerSecond) * 1000;
  }
}
