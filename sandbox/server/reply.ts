import type { ServerResponse } from 'node:http';
import { ApiError } from '../errors';

export interface Reply {
	status: number;
	/** Serialized with JSON.stringify unless `raw` is given. */
	json?: unknown;
	/** A body that is already JSON text. */
	raw?: string;
	/** A JSON body already encoded, written in order (statistics pages). */
	chunks?: Buffer[];
	headers?: Record<string, string>;
}

export function errorReply(error: unknown): Reply {
	if (error instanceof ApiError)
		return { status: error.status, json: error.body(), headers: error.headers };
	const message = error instanceof Error ? error.message : String(error);
	console.error('[sandbox] handler failed:', error);
	return { status: 500, json: { detail: `Sandbox internal error: ${message}` } };
}

export function sendReply(res: ServerResponse, reply: Reply): void {
	if (reply.chunks) {
		const length = reply.chunks.reduce((sum, chunk) => sum + chunk.length, 0);
		res.writeHead(reply.status, {
			...reply.headers,
			'content-type': 'application/json',
			'content-length': length,
		});
		for (const chunk of reply.chunks) res.write(chunk);
		res.end();
		return;
	}
	const body = reply.raw ?? (reply.json === undefined ? '' : JSON.stringify(reply.json));
	const headers: Record<string, string | number> = { ...reply.headers };
	if (body !== '') headers['content-type'] = 'application/json';
	headers['content-length'] = Buffer.byteLength(body);
	res.writeHead(reply.status, headers);
	res.end(body);
}
