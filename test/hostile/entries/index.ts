/** Every entry of the hostile-web suite, in the order the table lists them: add a trick by adding its file here. */
import type { HostileEntry } from '../suite';
import { growingWatch } from './growing-watch';
import { hiddenLinks } from './hidden-links';
import { importedSettings } from './imported-settings';
import { pathologicalRobots } from './robots';
import { wildcardDns } from './wildcard-dns';

export const ENTRIES: HostileEntry[] = [hiddenLinks, wildcardDns, pathologicalRobots, importedSettings, growingWatch];
