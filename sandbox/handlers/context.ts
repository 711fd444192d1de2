import type { IncomingHttpHeaders } from 'node:http';
import type { Sessions } from '../auth/sessions';
import type { SandboxData } from '../data/sandboxData';
import { ApiError, fieldError, isPlainObject } from '../errors';
import type { ParsedBody } from '../server/requestBody';
import type { Reply } from '../server/reply';
import type { MultipartBody, QueryParams } from '../types';

export interface ApiRequest {
	method: string;
	api: 'base' | 'client';
	/** Path without the /base or /client prefix. */
	path: string;
	params: Record<string, string>;
	query: QueryParams;
	rawQuery: string;
	contentType?: string;
	headers: IncomingHttpHeaders;
	body: ParsedBody;
}

interface HandlerContext {
	req: ApiRequest;
	data: SandboxData;
	sessions: Sessions;
}

export type Handler = (ctx: HandlerContext) => Reply | Promise<Reply>;

export function json(body: unknown, status = 200): Reply {
	return { status, json: body };
}

export const NO_CONTENT: Reply = { status: 204 };

function unsupportedMediaType(req: ApiRequest, expected: string): ApiError {
	return new ApiError(
		415,
		`Unsupported media type "${req.contentType ?? ''}" in request; send ${expected}.`,
	);
}

/** The JSON object body of a request, or the matching 400/415. */
export function jsonObjectBody(req: ApiRequest): Record<string, unknown> {
	switch (req.body.kind) {
		case 'none':
			throw fieldError('body', 'a JSON object is required');
		case 'invalid-json':
			throw fieldError('body', `JSON parse error: ${req.body.problem ?? 'invalid JSON'}`);
		case 'json':
			if (!isPlainObject(req.body.value)) throw fieldError('body', 'must be a JSON object');
			return req.body.value;
		default:
			throw unsupportedMediaType(req, 'application/json');
	}
}

export function multipartBody(req: ApiRequest): MultipartBody {
	switch (req.body.kind) {
		case 'multipart':
			return req.body.value as MultipartBody;
		case 'invalid-multipart':
			throw fieldError(
				'body',
				`malformed multipart/form-data: ${req.body.problem ?? 'cannot parse'}`,
			);
		case 'none':
			if ((req.contentType ?? '').toLowerCase().startsWith('multipart/form-data')) {
				return { fields: {}, files: {} };
			}
			throw unsupportedMediaType(req, 'multipart/form-data');
		default:
			throw unsupportedMediaType(req, 'multipart/form-data');
	}
}

export function queryValues(query: QueryParams, key: string): string[] {
	const value = query[key];
	if (value === undefined) return [];
	return Array.isArray(value) ? value : [value];
}

/** A single-valued query parameter; repeating it is a 400. */
export function queryValue(query: QueryParams, key: string): string | undefined {
	const values = queryValues(query, key);
	if (values.length > 1) throw fieldError(key, 'must be given once');
	return values[0];
}
