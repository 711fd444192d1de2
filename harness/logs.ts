import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import { LoggerProxy } from 'n8n-workflow';

/**
 * Every line n8n or a node logs during tests (`this.logger` in nodes resolves to this), kept so
 * tests can prove that no secret reaches a log. Installed before n8n-core first asks for a logger.
 */
export const capturedLogs: string[] = [];

type Level = 'error' | 'warn' | 'info' | 'debug';
type LogListener = (level: Level, message: string, meta: unknown) => void;
const listeners = new Set<LogListener>();

/** Calls `listener` with every line logged from now on, as it is logged; returns what stops it. */
export function watchLogs(listener: LogListener): () => void {
	listeners.add(listener);
	return () => listeners.delete(listener);
}

function record(level: Level) {
	return (message: string, meta?: unknown) => {
		for (const listener of listeners) listener(level, message, meta);
		let extra = '';
		if (meta !== undefined) {
			try {
				extra = ` ${JSON.stringify(meta)}`;
			} catch {
				extra = ` ${String(meta)}`;
			}
		}
		capturedLogs.push(`${level}: ${message}${extra}`);
	};
}

const logger = {
	error: record('error'),
	warn: record('warn'),
	info: record('info'),
	debug: record('debug'),
	scoped() {
		return logger;
	},
};

Container.set(Logger, logger as unknown as Logger);
LoggerProxy.init(logger);
