/**
 * Crawl strategies: one file each, exporting its class and its registry entry; registry.ts lists them.
 * To add one: create lib/engine/strategies/<name>.ts exporting a StrategyInfo (most strategies extend
 * FrontierStrategy and write only their scoring and choice), and add it to registry.ts.
 */
export * from './registry';
export { BestNFirst, DEFAULT_N } from './best-n-first';
export { BreadthFirst } from './breadth-first';
export { FrontierStrategy } from './frontier-strategy';
export { PageRankCrawler } from './pagerank';
export { SharkSearch } from './shark-search';
export { InfoSpiders } from './infospiders';
export { AnchorTextCrawler } from './anchor-text';
export { AdaptiveBestNFirst } from './adaptive-bnf';
export { ForagerStrategy } from './forager';
export { OnlineLogistic } from './link-classifier';
export { SectionBandit } from './section-bandit';
export { ForagerClassic } from './forager-classic';
export { ForagerLeads } from './forager-leads';
