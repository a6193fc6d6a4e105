/** Processes by /proc (Linux): a process and its descendants, each named by its pid and its start time, so that a pid used again later is not taken for it. */
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessId {
  readonly pid: number;
  /** Clock ticks after boot (field 22 of /proc/<pid>/stat). */
  readonly started: string;
  /** Its command line, for a message. */
  readonly command: string;
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/** The parent, start time and command of `pid`, or undefined once it is gone (a zombie counts as gone: it runs nothing). */
function stat(pid: number): { ppid: number; started: string; command: string } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command sits in parentheses and may hold spaces; the fields after it are plain.
  const close = text.lastIndexOf(')');
  const [state, ppid, , , , , , , , , , , , , , , , , , started] = text.slice(close + 2).split(' ');
  if (state === 'Z' || state === 'X') return undefined;
  return { ppid: Number(ppid), started: String(started), command: commandLine(pid) || text.slice(text.indexOf('(') + 1, close) };
}

/** `root` and every process below it. */
export function processTree(root: number): ProcessId[] {
  const all = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      const found = stat(Number(name));
      return found === undefined ? [] : [{ pid: Number(name), ...found }];
    });
  const tree: ProcessId[] = [];
  const visit = (pid: number) => {
    const found = all.find((process) => process.pid === pid);
    if (found !== undefined) tree.push({ pid, started: found.started, command: found.command });
    for (const child of all.filter((process) => process.ppid === pid)) visit(child.pid);
  };
  visit(root);
  return tree;
}

/** Whether `process` still runs: the same pid, started at the same time. */
export function running(process: ProcessId): boolean {
  return stat(process.pid)?.started === process.started;
}
