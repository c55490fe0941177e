/** The engines the extractor knows, as data: one file per engine. Order matters only when patterns overlap. */
import type { EngineSpec } from '../types';
import { google } from './google';
import { bing } from './bing';
import { duckduckgo } from './duckduckgo';
import { brave } from './brave';
import { startpage } from './startpage';
import { ecosia } from './ecosia';
import { yahoo } from './yahoo';
import { qwant } from './qwant';
import { mojeek } from './mojeek';
import { baidu } from './baidu';
import { so360 } from './so360';
import { sogou } from './sogou';
import { naver } from './naver';
import { yandex } from './yandex';
import { kagi } from './kagi';

export { google, bing, duckduckgo, brave, startpage, ecosia, yahoo, qwant, mojeek, baidu, so360, sogou, naver, yandex, kagi };

/** All known engines. */
export const ENGINES: readonly EngineSpec[] = [
  google,
  bing,
  duckduckgo,
  brave,
  startpage,
  ecosia,
  yahoo,
  qwant,
  mojeek,
  baidu,
  so360,
  sogou,
  naver,
  yandex,
  kagi,
];
