/**
 * The background put together without the browser: the app (runner, live hub, handlers, recovery), the request
 * handler table, live updates and the toolbar badge. entrypoints/background.ts connects it to the extension APIs.
 */
export * from './background-app';
export * from './badge';
export * from './handlers';
export * from './live';
