/** Only http(s) addresses become links: a `javascript:` or `data:` URL from a crawled page is shown, never followed. */
export const safeHref = (url: string) => (/^https?:\/\//i.test(url) ? url : undefined);
