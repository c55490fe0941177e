/** The e2e specs' driver of both browsers lives in harness/driver.ts (the screenshots script uses it too). */
export * from '../../harness/driver';
