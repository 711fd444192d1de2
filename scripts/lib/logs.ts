/** Reading n8n's JSON log (N8N_LOG_FORMAT=json) and its console output. */
import { existsSync, readFileSync } from 'node:fs';
import { cacheRoot } from './runtime';

export interface LogEntry {
	level: string;
	message: string;
	metadata?: Record<string, unknown>;
	/** The line as written, for reports. */
	raw: string;
}

export function readLog(file: string): LogEntry[] {
	if (!existsSync(file)) return [];
	const entries: LogEntry[] = [];
	for (const raw of readFileSync(file, 'utf8').split('\n')) {
		if (!raw.trim()) continue;
		try {
			const parsed = JSON.parse(raw) as Omit<LogEntry, 'raw'>;
			entries.push({ ...parsed, raw });
		} catch {
			entries.push({ level: 'unparsed', message: raw, raw });
		}
	}
	return entries;
}

/** Waits up to `timeoutMs` for an entry of a JSON log matching `pattern`; returns it or undefined. */
export async function waitForEntry(
	file: string,
	pattern: RegExp,
	timeoutMs: number,
): Promise<LogEntry | undefined> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const found = readLog(file).find((entry) => pattern.test(entry.message));
		if (found || Date.now() > deadline) return found;
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

/**
 * Anything that names this package, one of its node or credential types, or its display names.
 * The n8n install's own cache folder (…/.cache/n8n-nodes-ad-cabinet/…) is in every n8n stack
 * trace, so paths under it do not count.
 */
export function mentionsPackage(text: string, packageName: string): boolean {
	const own = text.split(cacheRoot()).join('<n8n cache>');
	return own.includes(packageName) || /adCabinet|Ad Cabinet/.test(own);
}

/**
 * Warnings and errors n8n logged about this package (loading it, describing its nodes, …), and a
 * node n8n found no codex for (it would sit in no category of the node panel).
 */
export function packageProblems(entries: LogEntry[], packageName: string): string[] {
	return entries
		.filter(
			(entry) =>
				['warn', 'error', 'unparsed'].includes(entry.level) ||
				entry.message.startsWith('No codex available for:'),
		)
		.filter((entry) => mentionsPackage(entry.raw, packageName))
		.map((entry) => `${entry.level}: ${entry.message.split('\n')[0].slice(0, 300)}`);
}

/** Lines of a process's console (stdout + stderr) that name this package: Node warnings, crashes. */
export function consoleProblems(file: string, packageName: string): string[] {
	if (!existsSync(file)) return [];
	return readFileSync(file, 'utf8')
		.split('\n')
		.filter((line) => mentionsPackage(line, packageName))
		.map((line) => `console: ${line.slice(0, 300)}`);
}

/** Attempts to resolve a host name: everything here should stay on 127.0.0.1. */
export function networkAttempts(entries: LogEntry[]): string[] {
	return entries
		.filter((entry) => /ENOTFOUND|EAI_AGAIN|getaddrinfo/.test(entry.raw))
		.map((entry) => `${entry.level}: ${entry.message.split('\n')[0].slice(0, 200)}`);
}

/** How many nodes n8n reported loading from the package (its debug line), or undefined. */
export function loadedNodeCount(entries: LogEntry[], packageName: string): number | undefined {
	const entry = entries.find(
		(e) =>
			e.message === `Loaded all credentials and nodes from ${packageName}` ||
			e.message === `Lazy-loading nodes and credentials from ${packageName}`,
	);
	const nodes = entry?.metadata?.nodes;
	return typeof nodes === 'number' ? nodes : undefined;
}
