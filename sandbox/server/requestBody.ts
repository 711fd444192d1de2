import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { MultipartBody, QueryParams } from '../types';

/** Large enough to prove the 10 MB audience file limit is enforced by the handler. */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

export class BodyTooLargeError extends Error {}

type BodyKind =
	'none' | 'json' | 'multipart' | 'form' | 'text' | 'invalid-json' | 'invalid-multipart';

export interface ParsedBody {
	kind: BodyKind;
	/** Parsed JSON, the multipart body, the urlencoded fields (last value wins), or the raw text. */
	value: unknown;
	/** Why parsing failed, for the 400 message. */
	problem?: string;
}

export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > limit) {
				reject(new BodyTooLargeError(`Request body exceeds ${limit} bytes`));
				req.removeAllListeners('data');
				req.resume();
				return;
			}
			chunks.push(chunk);
		});
		req.on('end', () => resolve(Buffer.concat(chunks)));
		req.on('error', reject);
	});
}

export function parseQuery(rawQuery: string): QueryParams {
	const out: QueryParams = {};
	for (const [key, value] of new URLSearchParams(rawQuery)) {
		const existing = out[key];
		if (existing === undefined) out[key] = value;
		else if (Array.isArray(existing)) existing.push(value);
		else out[key] = [existing, value];
	}
	return out;
}

/** Multipart goes through the platform's own parser (undici's Request.formData). */
async function parseMultipart(raw: Buffer, contentType: string): Promise<MultipartBody> {
	const request = new Request('http://sandbox.invalid/', {
		method: 'POST',
		headers: { 'content-type': contentType },
		body: raw,
	});
	const form = await request.formData();
	const body: MultipartBody = { fields: {}, files: {} };
	for (const [name, value] of form.entries()) {
		if (typeof value === 'string') {
			body.fields[name] = value;
			continue;
		}
		const bytes = Buffer.from(await value.arrayBuffer());
		body.files[name] = {
			filename: value.name,
			type: value.type,
			size: bytes.length,
			sha256: createHash('sha256').update(bytes).digest('hex'),
			bytes,
		};
	}
	return body;
}

export async function parseBody(raw: Buffer, contentType: string | undefined): Promise<ParsedBody> {
	if (raw.length === 0) return { kind: 'none', value: undefined };
	const type = (contentType ?? '').toLowerCase();
	if (type.startsWith('multipart/form-data')) {
		try {
			return { kind: 'multipart', value: await parseMultipart(raw, contentType as string) };
		} catch (error) {
			return {
				kind: 'invalid-multipart',
				value: raw.toString('latin1'),
				problem: (error as Error).message,
			};
		}
	}
	const text = raw.toString('utf8');
	if (type.startsWith('application/x-www-form-urlencoded')) {
		return { kind: 'form', value: Object.fromEntries(new URLSearchParams(text)) };
	}
	if (type.includes('json')) {
		try {
			return { kind: 'json', value: JSON.parse(text) };
		} catch (error) {
			return { kind: 'invalid-json', value: text, problem: (error as Error).message };
		}
	}
	return { kind: 'text', value: text };
}
