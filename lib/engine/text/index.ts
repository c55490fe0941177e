export { tokenize, tokenizeInto, words, stopwordLanguage, TermCounter, TermStream } from './tokenize';
export { termVector, cosine, norm, topicVector } from './vector';
