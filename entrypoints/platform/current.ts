/** This build's platform: the build replaces `import.meta.env.FIREFOX`, so the other browser's file is left out. */
import { chromePlatform } from './chrome';
import { firefoxPlatform } from './firefox';
import type { Platform } from './types';

export type { DnsApi, Platform } from './types';

export function currentPlatform(): Platform {
  return import.meta.env.FIREFOX ? firefoxPlatform() : chromePlatform();
}
