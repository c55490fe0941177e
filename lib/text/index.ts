export { tokenize, tokenizeInto, words, stopwordLanguage } from './tokenize';
export { termVector, cosine, norm, topicVector } from './vector';
