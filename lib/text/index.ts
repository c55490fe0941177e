export { tokenize, tokenizeInto, words, stopwordLanguage, TermCounter } from './tokenize';
export { termVector, cosine, norm, topicVector } from './vector';
