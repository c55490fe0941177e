/**
 * Crawl strategies. Each strategy is one file that registers itself with the registry; this list loads them all,
 * and its order is the order listStrategies() shows them in.
 * To add one: create lib/strategies/<name>.ts calling registerStrategy(...), and import it below.
 */
export * from './registry';
import './best-n-first';
import './breadth-first';
import './pagerank';
import './shark-search';
import './infospiders';
import './anchor-text';
import './adaptive-bnf';
import './forager';

export { BestNFirst, DEFAULT_N } from './best-n-first';
export { BreadthFirst, DEFAULT_BATCH } from './breadth-first';
export { PageRankCrawler } from './pagerank';
export { SharkSearch } from './shark-search';
export { InfoSpiders } from './infospiders';
export { AnchorTextCrawler } from './anchor-text';
export { AdaptiveBestNFirst } from './adaptive-bnf';
export { ForagerStrategy } from './forager';
