/**
 * The application layer's door for Node (the command line, the lab, benchmarks): the front door plus the file store,
 * which uses node:fs and so never enters the extension.
 */
export * from './index';
export { openFileStore } from './adapters/file-store';
