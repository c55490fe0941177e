/**
 * Adapters: the application's ports bound to browser APIs. IndexedDB for the store, declarativeNetRequest and
 * webRequest for the network guards, the offscreen document and its Worker for evaluation. The file store (Node) is
 * behind the Node door (lib/app/node.ts), so the extension never bundles it.
 */
export * from './address-guard';
export * from './evaluator/evaluator-host';
export * from './evaluator/guarded-evaluator';
export * from './evaluator/port-evaluator';
export * from './idb-store';
export * from './network-guard';
export * from './host-admission';
