/**
 * Crawl strategies: one file each, exporting its class and its registry entry; registry.ts lists them.
 * To add one: create lib/engine/strategies/<name>.ts exporting a StrategyInfo, and add it to registry.ts.
 */
export * from './registry';
export { BestNFirst, DEFAULT_N } from './best-n-first';
export { BreadthFirst, DEFAULT_BATCH } from './breadth-first';
export { PageRankCrawler } from './pagerank';
export { SharkSearch } from './shark-search';
export { InfoSpiders } from './infospiders';
export { AnchorTextCrawler } from './anchor-text';
export { AdaptiveBestNFirst } from './adaptive-bnf';
export { ForagerStrategy, OnlineLogistic, SectionBandit } from './forager';
export { ForagerClassic } from './forager-classic';
