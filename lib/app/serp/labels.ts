/**
 * Words results pages use to label what is not an organic result, in the languages of the engines people use
 * (English, German, French, Spanish, Italian, Portuguese, Dutch, Czech, Polish, Turkish, Russian, Chinese, Japanese,
 * Korean). The structural fallback reads unknown engines' pages with them: a result carrying an ad label is an ad,
 * a block opened by a module heading ("People also ask", "相关搜索") holds no organic results. Matching is on the
 * whole, whitespace-collapsed, lower-cased text of one element (a trailing ':' or '·' ignored), never on a substring:
 * a result titled "Ad hoc networks" or "News of the world" stays a result.
 */

/** Labels that mark a result as paid. */
export const AD_LABELS: readonly string[] = [
  'ad',
  'ads',
  'advertisement',
  'sponsored',
  'sponsored link',
  'sponsored links',
  'sponsored result',
  'promoted',
  'anzeige',
  'anzeigen',
  'gesponsert',
  'annonce',
  'annonces',
  'sponsorisé',
  'publicité',
  'anuncio',
  'anuncios',
  'publicidad',
  'patrocinado',
  'anúncio',
  'annuncio',
  'annunci',
  'sponsorizzato',
  'advertentie',
  'gesponsord',
  'reklama',
  'sponzorováno',
  'sponzorovaný odkaz',
  'reklam',
  'sponsorlu',
  'реклама',
  'промо',
  '广告',
  '廣告',
  '推广',
  '推廣',
  '赞助',
  '商业推广',
  '広告',
  'スポンサー',
  '광고',
  '파워링크',
  '비즈사이트',
];

/** Headings of an engine's own modules: the block each opens holds no organic results. */
export const MODULE_LABELS: readonly string[] = [
  // English
  'people also ask',
  'people also search for',
  'related searches',
  'related questions',
  'searches related to',
  'top stories',
  'news',
  'videos',
  'images',
  'discussions and forums',
  'things to know',
  'perspectives',
  'ai overview',
  'shopping',
  'more results',
  // German
  'ähnliche fragen',
  'nutzer fragen auch',
  'andere fragen auch',
  'verwandte suchanfragen',
  'ähnliche suchanfragen',
  'schlagzeilen',
  'nachrichten',
  'bilder',
  'diskussionen und foren',
  'übersicht mit ki',
  // French
  'autres questions posées',
  'recherches associées',
  'à la une',
  'actualités',
  'vidéos',
  'aperçu ia',
  // Spanish, Portuguese, Italian, Dutch
  'más preguntas',
  'preguntas relacionadas',
  'búsquedas relacionadas',
  'noticias',
  'vídeos',
  'imágenes',
  'as pessoas também perguntam',
  'pesquisas relacionadas',
  'notícias',
  'imagens',
  'altre domande',
  'ricerche correlate',
  'notizie',
  'immagini',
  'mensen vragen ook',
  'gerelateerde zoekopdrachten',
  'nieuws',
  'afbeeldingen',
  // Czech, Polish, Turkish
  'související dotazy',
  'související vyhledávání',
  'lidé se také ptají',
  'zprávy',
  'videa',
  'obrázky',
  'podobne pytania',
  'podobne wyszukiwania',
  'wiadomości',
  'grafika',
  'diğer sorular',
  'ilgili aramalar',
  'haberler',
  'görseller',
  // Russian
  'похожие запросы',
  'вместе с этим ищут',
  'люди также спрашивают',
  'люди ищут',
  'новости',
  'видео',
  'картинки',
  'изображения',
  // Chinese
  '相关搜索',
  '相關搜尋',
  '其他人还搜',
  '大家还在搜',
  '大家都在搜',
  '相关推荐',
  '为您推荐',
  '资讯',
  '新闻',
  '视频',
  '图片',
  // Japanese
  '他の人はこちらも質問',
  '関連する質問',
  '関連検索ワード',
  'トップニュース',
  'ニュース',
  '動画',
  '画像',
  // Korean (Naver's own collections: blog and café posts, Q&A, dictionaries, its shopping)
  '연관 검색어',
  '관련 검색어',
  '함께 많이 찾는',
  '함께 찾은 검색어',
  '뉴스',
  '동영상',
  '이미지',
  'view',
  '블로그',
  '카페',
  '지식in',
  '지식백과',
  '어학사전',
  '포스트',
  '포스트beta',
  '매거진',
  '네이버쇼핑',
  '쇼핑',
  '네이버 책',
  '책',
  '네이버 뮤직',
];

/** Labels that announce a bot check in place of results (the page's title or a heading). */
export const CHALLENGE_LABELS: readonly string[] = [
  'unusual traffic from your computer network',
  'our systems have detected unusual traffic',
  'verify you are human',
  'are you a robot?',
  'are you a robot',
  'captcha',
  'please complete the security check',
  'please solve this captcha',
  'one last step',
  'just a moment...',
  'attention required!',
  'access denied',
  'bot check',
  '百度安全验证',
  '安全验证',
  'ой!',
  'подтвердите, что запросы отправляли вы, а не робот',
  'вы не робот?',
];

/** Labels of a consent wall standing in front of the results. */
export const CONSENT_LABELS: readonly string[] = [
  'before you continue',
  'before you continue to google search',
  'before you continue to google',
  'bevor sie fortfahren',
  'bevor sie zu google weitergehen',
  'avant de continuer',
  'antes de continuar',
  'prima di continuare',
  'voordat je verdergaat',
  'we value your privacy',
  'your privacy choices',
  'cookie consent',
  'cookies on this site',
];

/** Phrases an engine uses to say it found nothing (matched at the start of an element's text). */
export const NO_RESULTS_PHRASES: readonly string[] = [
  'your search -',
  'did not match any documents',
  'no results found for',
  'no results found',
  'there are no results for',
  'no results for',
  'we did not find any results',
  'keine ergebnisse',
  'es wurden keine mit ihrer suchanfrage',
  'aucun résultat',
  'no se han encontrado resultados',
  'nessun risultato',
  'ничего не нашлось',
  'по вашему запросу ничего не нашлось',
  '抱歉，没有找到',
  '很抱歉，没有找到',
  '没有找到与',
  '검색결과가 없습니다',
  'に一致する情報は見つかりませんでした',
  'nebyly nalezeny žádné výsledky',
];

/** The form a label is compared in: whitespace collapsed, lower-cased, a trailing ':', '·', '•' or '…' dropped. */
export function labelForm(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase()
    .replace(/[\s:·•…]+$/u, '');
}

const AD_SET = new Set(AD_LABELS);
const MODULE_SET = new Set(MODULE_LABELS);

export function isAdLabel(text: string): boolean {
  return text.length <= 40 && AD_SET.has(labelForm(text));
}

export function isModuleLabel(text: string): boolean {
  return text.length <= 60 && MODULE_SET.has(labelForm(text));
}

/** Whether `text` (a title or heading) announces a bot check or a consent wall. */
export function matchesLabel(text: string, labels: readonly string[]): boolean {
  const form = labelForm(text);
  return form.length > 0 && form.length <= 120 && labels.some((l) => form === l || form.startsWith(`${l} `));
}

/** Whether `text` starts with a phrase saying the search found nothing (or holds the Google one). */
export function saysNoResults(text: string): boolean {
  const form = labelForm(text);
  if (form.length > 300) return false;
  return NO_RESULTS_PHRASES.some((p) => form.startsWith(p) || (p.length > 15 && form.includes(p)));
}
