/**
 * The `stopword` package's lists, one module each (`export { deu }`): its own typings cover the package's index only.
 * Read as arrays of words by ./language-sources.lazy.ts.
 */
declare module 'stopword/src/*';
