/**
 * The simulated network's model: draws are deterministic (same seed, same numbers, bit for bit), independent of the
 * order in which they are asked for, and their statistics match the model's parameters.
 */
import { describe, expect, it } from 'vitest';
import { NETWORK_MODELS, networkModel, normal, SimulatedNetwork, uniform } from '../../lab/network';

const wan = NETWORK_MODELS.wan;
const sites = (n: number) => Array.from({ length: n }, (_, i) => `site${i}`);

function quantile(sorted: number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  return sorted[lo] + (sorted[Math.min(lo + 1, sorted.length - 1)] - sorted[lo]) * (at - lo);
}
const sortNum = (xs: number[]) => [...xs].sort((a, b) => a - b);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const sd = (xs: number[]) => {
  const m = mean(xs);
  return Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1));
};

describe('simulated network: determinism', () => {
  it('gives the same numbers for the same seed, whatever the order of requests, and others for another seed', () => {
    const names = sites(35);
    const a = new SimulatedNetwork(wan, 7, names);
    const b = new SimulatedNetwork(wan, 7, [...names].reverse());
    const c = new SimulatedNetwork(wan, 8, names);
    const urls = Array.from({ length: 500 }, (_, i) => `http://127.0.0.1:4000${i % 10}/p${i}.html`);
    const forward = urls.map((u, i) => a.request(names[i % 35], u));
    const backward = [...urls]
      .reverse()
      .map((u, i) => b.request(names[(urls.length - 1 - i) % 35], u))
      .reverse();
    expect(backward).toEqual(forward);
    expect(a.sites.map((s) => s.medianLatencyMs)).toEqual(names.map((n) => b.profile(n).medianLatencyMs));
    const other = urls.map((u, i) => c.request(names[i % 35], u));
    expect(other).not.toEqual(forward);
    // a second attempt of the same URL is a new draw
    expect(a.request('site0', urls[0], 1)).not.toEqual(a.request('site0', urls[0], 0));
    expect(() => a.request('nope', urls[0])).toThrow(/no site "nope"/);
    expect(() => networkModel('moon')).toThrow(/unknown network model "moon" \(known: wan, lan\)/);
  });

  it('draws uniforms and normals with the right moments', () => {
    const us = Array.from({ length: 20_000 }, (_, i) => uniform(`u${i}`, 3));
    expect(Math.min(...us)).toBeGreaterThan(0);
    expect(Math.max(...us)).toBeLessThan(1);
    expect(mean(us)).toBeCloseTo(0.5, 2);
    const deciles = new Array(10).fill(0);
    for (const u of us) deciles[Math.floor(u * 10)]++;
    for (const d of deciles) expect(Math.abs(d - 2000)).toBeLessThan(200); // ~4.7 binomial SDs
    const zs = Array.from({ length: 20_000 }, (_, i) => normal(`z${i}`, 3));
    expect(mean(zs)).toBeCloseTo(0, 1);
    expect(sd(zs)).toBeCloseTo(1, 1);
    expect(zs.filter((z) => Math.abs(z) < 1.96).length / zs.length).toBeCloseTo(0.95, 2);
  });
});

describe('simulated network: statistics match the wan model', () => {
  const n = 2000;
  const net = new SimulatedNetwork(wan, 1, sites(n));

  it('site medians: lognormal around 100 ms (sigma 0.5), and exactly 10% of sites 5x slower', () => {
    const slow = net.sites.filter((s) => s.slow);
    expect(slow.length).toBe(Math.round(wan.slowSites.share * n));
    const baseLogs = net.sites.map((s) => Math.log(s.slow ? s.medianLatencyMs / wan.slowSites.factor : s.medianLatencyMs));
    expect(Math.exp(quantile(sortNum(baseLogs), 0.5))).toBeGreaterThan(95);
    expect(Math.exp(quantile(sortNum(baseLogs), 0.5))).toBeLessThan(105);
    expect(sd(baseLogs)).toBeGreaterThan(0.47);
    expect(sd(baseLogs)).toBeLessThan(0.53);
    const bandwidthLogs = net.sites.map((s) => Math.log(s.bytesPerSecond / wan.bandwidth.medianBytesPerSecond));
    expect(Math.abs(mean(bandwidthLogs))).toBeLessThan(0.05);
    expect(sd(bandwidthLogs)).toBeCloseTo(wan.bandwidth.sigma, 1);
    expect(net.transferMs('site0', 100_000)).toBeCloseTo((100_000 / net.profile('site0').bytesPerSecond) * 1000, 9);
  });

  it('requests: lognormal around their site (sigma 0.4) with a 3% Pareto tail; 5% no answer and 5% 5xx on 10% of sites', () => {
    const few = new SimulatedNetwork(wan, 2, sites(40));
    const profiles = few.sites;
    const timeoutSites = profiles.filter((p) => p.timeoutProbability > 0);
    const errorSites = profiles.filter((p) => p.errorProbability > 0);
    expect(timeoutSites.length).toBe(4);
    expect(errorSites.length).toBe(4);
    const perSite = 5000;
    let noAnswer = 0;
    let errors = 0;
    let tails = 0;
    let answered = 0;
    const statuses = new Set<number>();
    for (const p of profiles) {
      const logs: number[] = [];
      for (let i = 0; i < perSite; i++) {
        const fate = few.request(p.site, `http://x/${i}.html`);
        if (fate.kind === 'no-answer') {
          expect(p.timeoutProbability).toBeGreaterThan(0);
          noAnswer++;
          continue;
        }
        if (fate.kind === 'server-error') {
          expect(p.errorProbability).toBeGreaterThan(0);
          statuses.add(fate.status);
          errors++;
        }
        answered++;
        // The tail adds at least scaleMs; lognormal(sigma 0.4) alone exceeds median x e^(0.4 x 4.5) = 6x once in 300,000.
        if (fate.latencyMs > p.medianLatencyMs * 6) tails++;
        logs.push(Math.log(fate.latencyMs / p.medianLatencyMs));
      }
      // median of the per-request latency = the site's median (the 3% tail moves it by about 0.04 sigma)
      expect(Math.abs(quantile(sortNum(logs), 0.5))).toBeLessThan(0.05);
      const core = sortNum(logs).slice(0, Math.floor(logs.length * 0.9));
      expect(quantile(core, 0.25 / 0.9)).toBeCloseTo(-0.4 * 0.6745, 1); // lower quartile of the lognormal core
    }
    const rate = (k: number, sitesN: number) => k / (sitesN * perSite);
    expect(rate(noAnswer, timeoutSites.length)).toBeGreaterThan(0.043);
    expect(rate(noAnswer, timeoutSites.length)).toBeLessThan(0.057);
    expect(errors / (errorSites.length * perSite)).toBeGreaterThan(0.043);
    expect(errors / (errorSites.length * perSite)).toBeLessThan(0.057);
    expect([...statuses].sort()).toEqual([500, 503]);
    // tails: P(extra > 6 x median) = P(Pareto(200) > 6m - ...) is at most the tail probability 3%
    expect(tails / answered).toBeGreaterThan(0.01);
    expect(tails / answered).toBeLessThan(0.03);
  });

  it('the tail is Pareto(200 ms, alpha 1.2): survival (200 / x)^1.2, capped at 60 s', () => {
    const one = new SimulatedNetwork(
      { ...wan, requestSigma: 0, siteLatency: { medianMs: 100, sigma: 0 }, slowSites: { share: 0, factor: 1 } },
      5,
      ['s'],
    );
    const extras: number[] = [];
    for (let i = 0; i < 100_000; i++) {
      const fate = one.request('s', `u${i}`);
      if (fate.kind !== 'answer' && fate.kind !== 'server-error') continue;
      if (fate.latencyMs > 100 + 1e-9) extras.push(fate.latencyMs - 100);
    }
    expect(extras.length / 100_000).toBeGreaterThan(0.027);
    expect(extras.length / 100_000).toBeLessThan(0.033);
    expect(Math.min(...extras)).toBeGreaterThanOrEqual(200);
    expect(Math.max(...extras)).toBeLessThanOrEqual(60_000);
    for (const x of [400, 1000, 5000]) {
      const observed = extras.filter((e) => e > x).length / extras.length;
      const expected = (200 / x) ** 1.2;
      expect(Math.abs(observed - expected)).toBeLessThan(4 * Math.sqrt((expected * (1 - expected)) / extras.length) + 1e-3);
    }
  });

  it('the pooled latency of a crawl-sized sample: median near 100 ms, heavy tail', () => {
    const pooled: number[] = [];
    for (const p of net.sites.slice(0, 200))
      for (let i = 0; i < 50; i++) {
        const fate = net.request(p.site, `http://y/${i}`);
        if (fate.kind !== 'no-answer') pooled.push(fate.latencyMs);
      }
    const s = sortNum(pooled);
    expect(quantile(s, 0.5)).toBeGreaterThan(85);
    expect(quantile(s, 0.5)).toBeLessThan(140);
    expect(quantile(s, 0.99) / quantile(s, 0.5)).toBeGreaterThan(8);
  });
});
