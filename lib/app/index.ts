/**
 * The application layer's front door for the extension's entrypoints: everything they use, from the floors below
 * (bottom first). Each floor imports only floors beneath it (biome.json: noRestrictedImports per folder):
 *
 *   background/   the background without the browser: app, request handlers, live hub, badge
 *   adapters/     IndexedDB store, network guards, offscreen evaluator
 *   library/ watch/     services over crawls: search and retention; topic watches
 *   runner/       running crawls: commands, the run driver, progress writes
 *   store/ export/ serp/ view/   storage backends' shared parts, export formats, results-page reading, UI models
 *   rules/        domain rules: relevance, feedback, settings validation, text safety
 *   model/        records, wire protocol, view shapes
 *
 * The command line and the lab use the Node door (./node.ts), which adds the file store.
 */
export * from './model';
export * from './rules';
export * from './store';
export * from './export';
export * from './serp';
export * from './view';
export * from './runner';
export * from './library';
export * from './watch';
export * from './adapters';
export * from './background';
