/** Build-time constants (wxt.config.ts `define`). */

/** True only in the e2e build (FORAGER_E2E=1): the background then exposes its test handle, `globalThis.forager`. */
declare const __FORAGER_TEST_HANDLE__: boolean;
