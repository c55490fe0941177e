/** Every entry of the hostile-web suite, in the order the table lists them: add a trick by adding its file here. */
import type { HostileEntry } from '../suite';
import { hiddenLinks } from './hidden-links';

export const ENTRIES: HostileEntry[] = [hiddenLinks];
