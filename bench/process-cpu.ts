import { readdirSync, readFileSync } from 'node:fs';

/** Linux's /proc counts CPU time in clock ticks of 10 ms. */
const TICKS_PER_SECOND = 100;

/** User + system CPU seconds of a `/proc/.../stat` line (fields 14 and 15, after the command's parentheses). */
function statSeconds(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** CPU seconds a process used so far; undefined where there is no /proc (or the process is gone). */
export function cpuSeconds(pid: number): number | undefined {
  try {
    return statSeconds(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** A process and all it started (the stack, its tsx runner where there is one, DynamoDB Local's JVM). */
export function processTree(pid: number): number[] {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(' ').filter(Boolean).map(Number);
  } catch {
    // Gone, or no /proc: the process itself is all there is to read.
  }
  return [pid, ...children.flatMap(processTree)];
}

export interface ThreadCpu {
  pid: number;
  /** The thread's name as the kernel has it (`MainThread`, `WorkerThread`, `C2 CompilerThre`, …). */
  name: string;
  seconds: number;
}

/** Each thread of the given processes, by thread id, with the CPU seconds it used so far. */
export function threadCpu(pids: readonly number[]): Map<string, ThreadCpu> {
  const threads = new Map<string, ThreadCpu>();
  for (const pid of pids) {
    let tids: string[] = [];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      try {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        threads.set(tid, { pid, name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), seconds: statSeconds(stat) });
      } catch {
        // The thread ended between the listing and the read.
      }
    }
  }
  return threads;
}
