/**
 * The application layer's door for Node (the command line, the lab, benchmarks): the front door plus the file store,
 * and the guarded fetch (connections only to addresses the crawl allows), which use node: modules and so never
 * enter the extension.
 */
export * from './index';
export { openFileStore } from './adapters/file-store';
export { createGuardedFetch, type Resolver } from './adapters/guarded-fetch';
