/**
 * What this browser tells about the device before a topic watch's check: Chrome's service worker has
 * `navigator.connection` (saveData, and a type on ChromeOS and Android) and its offscreen document
 * `navigator.getBattery()`; Firefox's event page has neither (desktop Firefox hides both from extensions). Whatever is
 * missing counts as "nothing known".
 */
import type { DeviceConditions } from '../../lib/app';
import type { Platform } from '../platform/current';

export async function deviceConditions(platform: Platform): Promise<DeviceConditions> {
  const nav = globalThis.navigator as Navigator & {
    connection?: { saveData?: boolean; type?: string };
    getBattery?: () => Promise<{ charging: boolean; level: number }>;
  };
  const out: DeviceConditions = {};
  if (nav.connection?.saveData) out.saveData = true;
  if (nav.connection?.type === 'cellular') out.metered = true;
  if (typeof nav.getBattery === 'function') {
    try {
      const battery = await nav.getBattery();
      out.battery = { charging: battery.charging, level: battery.level };
    } catch {
      // not allowed here: nothing known
    }
  } else {
    const battery = await platform.battery();
    if (battery) out.battery = battery;
  }
  return out;
}
