/**
 * Memory of a process and its descendants (n8n and its task runner, PostgreSQL and its backends)
 * from /proc: resident memory now (VmRSS) and its peak (VmHWM), per process and summed. Linux only;
 * elsewhere it reads as empty.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';

export interface GroupMemory {
	processes: Array<{ pid: number; name: string; rssMb: number; peakMb: number }>;
	rssMb: number;
	peakMb: number;
}

function field(status: string, name: string): number {
	const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status);
	return match ? Number(match[1]) / 1024 : 0;
}

/** A readable name: a node script's file name (n8n, the task runner's start.js), else the command. */
function nameOf(pid: number, status: string): string {
	try {
		const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
		const script = argv.slice(1).find((arg) => !arg.startsWith('-'));
		if (script && /node$/.test(argv[0])) {
			const file = script.split('/').pop() ?? script;
			return file === 'start.js' && script.includes('task-runner') ? 'task runner' : file;
		}
	} catch {
		// ended
	}
	return /^Name:\s+(.*)$/m.exec(status)?.[1] ?? '?';
}

export function groupMemory(rootPid: number | undefined): GroupMemory {
	const result: GroupMemory = { processes: [], rssMb: 0, peakMb: 0 };
	if (rootPid === undefined || !existsSync('/proc')) return result;
	const children = new Map<number, number[]>();
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			// pid (comm) state ppid …: comm may hold spaces, so read after its closing parenthesis.
			const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
			children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
		} catch {
			// the process ended while being read
		}
	}
	const pending = [rootPid];
	for (let pid = pending.pop(); pid !== undefined; pid = pending.pop()) {
		pending.push(...(children.get(pid) ?? []));
		try {
			const status = readFileSync(`/proc/${pid}/status`, 'utf8');
			const name = nameOf(pid, status);
			const rssMb = field(status, 'VmRSS');
			const peakMb = field(status, 'VmHWM');
			result.processes.push({ pid, name, rssMb, peakMb });
			result.rssMb += rssMb;
			result.peakMb += peakMb;
		} catch {
			// the process ended while being read
		}
	}
	return result;
}

export function describeMemory(label: string, memory: GroupMemory): string {
	const parts = memory.processes.map((p) => `${p.name} ${Math.round(p.rssMb)}`).join(', ');
	return `${label}: ${Math.round(memory.rssMb)} MB RSS now, ${Math.round(memory.peakMb)} MB peak (${memory.processes.length} processes: ${parts} MB)`;
}
