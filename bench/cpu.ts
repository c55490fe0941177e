/**
 * Where the CPU goes during a benchmark run, read from Linux's /proc: this Node process (process.cpuUsage) and every
 * process of one Chromium (the browser process and its descendants), grouped by role, with the extension renderer
 * split by thread (service worker, evaluator Worker, main thread of the popup and offscreen document, the rest).
 *
 * Why: on a machine with few cores the extension's speed is bounded by the CPU that a page costs across all of
 * Chrome's processes, not by one thread; a ratio of pages per second says how much slower, this says where.
 * Elsewhere than Linux `snapshot` returns null and the bench prints no CPU figures.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** CPU milliseconds by group, cumulative since each process started. */
export type CpuTimes = Record<string, number>;

const TICK_MS = 10; // USER_HZ is 100 on Linux

function read(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** utime + stime (ms), parent pid and command name of /proc/<pid>[/task/<tid>]/stat. */
function stat(path: string): { ms: number; ppid: number; comm: string } | null {
  const text = read(path);
  if (!text) return null;
  const close = text.lastIndexOf(')');
  const comm = text.slice(text.indexOf('(') + 1, close);
  const fields = text.slice(close + 2).split(' ');
  // fields[0] is the state (stat field 3): ppid is field 4, utime 14, stime 15.
  return { ms: (Number(fields[11]) + Number(fields[12])) * TICK_MS, ppid: Number(fields[1]), comm };
}

function roleOf(pid: number): string {
  const args = (read(`/proc/${pid}/cmdline`) ?? '').split(/[\0 ]/);
  const type = args.find((a) => a.startsWith('--type='))?.slice(7);
  if (!type) return 'browser';
  if (type === 'utility') {
    const sub = args.find((a) => a.startsWith('--utility-sub-type='))?.slice(19) ?? '';
    return sub.includes('NetworkService') ? 'network service' : 'other utility';
  }
  if (type === 'renderer') return args.includes('--extension-process') ? 'extension' : 'other renderers';
  if (type === 'gpu-process') return 'gpu';
  return type;
}

/** The extension renderer's threads, by Chromium's thread names. */
function threadRole(comm: string): string {
  if (comm.startsWith('ServiceWorker')) return 'extension: service worker thread';
  if (comm.startsWith('DedicatedWorker')) return 'extension: evaluator Worker thread';
  if (comm === 'chromium' || comm === 'chrome') return 'extension: main thread (popup, offscreen document)';
  return 'extension: other threads';
}

/** CPU so far of this Node process and of Chromium `browserPid` and its descendants, by group; null off Linux. */
export function snapshot(browserPid: number | undefined): CpuTimes | null {
  if (process.platform !== 'linux' || read('/proc/self/stat') === null) return null;
  const usage = process.cpuUsage();
  const times: CpuTimes = { 'node: this process': (usage.user + usage.system) / 1000 };
  if (browserPid === undefined) return times;
  const parent = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const s = stat(`/proc/${entry}/stat`);
    if (s) parent.set(Number(entry), s.ppid);
  }
  const inTree = (pid: number): boolean => {
    for (let p: number | undefined = pid, hops = 0; p !== undefined && p > 1 && hops < 16; p = parent.get(p), hops++) {
      if (p === browserPid) return true;
    }
    return false;
  };
  for (const pid of parent.keys()) {
    if (!inTree(pid)) continue;
    const role = roleOf(pid);
    if (role === 'extension') {
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        const t = stat(`/proc/${pid}/task/${tid}/stat`);
        if (t) add(times, threadRole(t.comm), t.ms);
      }
    } else {
      const s = stat(`/proc/${pid}/stat`);
      if (s) add(times, `chromium: ${role}`, s.ms);
    }
  }
  return times;
}

function add(times: CpuTimes, key: string, ms: number): void {
  times[key] = (times[key] ?? 0) + ms;
}

/** Milliseconds per page by group between two snapshots (a process that started in between counts from 0). */
export function perPage(before: CpuTimes | null, after: CpuTimes | null, pages: number): CpuTimes | null {
  if (!before || !after || pages <= 0) return null;
  const out: CpuTimes = {};
  for (const [k, v] of Object.entries(after)) out[k] = (v - (before[k] ?? 0)) / pages;
  return out;
}
