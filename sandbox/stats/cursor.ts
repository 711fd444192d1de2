import { ApiError, fieldError, isPlainObject } from '../errors';
import { validateStatsQuery, type StatsQuery } from './statsQuery';

/** What a cursor carries: the query, where the next page starts, and the instant the result was taken at. */
export interface CursorState {
	query: StatsQuery;
	offset: number;
	asOf: number;
}

/** The next-page cursor is base64-encoded JSON. */
export function encodeCursor(state: CursorState): string {
	return Buffer.from(
		JSON.stringify({ v: 1, q: state.query, o: state.offset, t: state.asOf }),
	).toString('base64');
}

export function decodeCursor(token: unknown): CursorState {
	const invalid = (why: string) =>
		fieldError('cursor', `invalid cursor (${why}); use the cursor of a previous response`);
	if (typeof token !== 'string' || token.length === 0) throw invalid('must be a non-empty string');
	let decoded: unknown;
	try {
		decoded = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
	} catch {
		throw invalid('not base64-encoded JSON');
	}
	if (!isPlainObject(decoded) || decoded.v !== 1) throw invalid('unknown format');
	const { o: offset, t: asOf, q } = decoded;
	if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0)
		throw invalid('bad offset');
	if (typeof asOf !== 'number' || !Number.isFinite(asOf)) throw invalid('bad timestamp');
	try {
		return { query: validateStatsQuery(q, asOf), offset, asOf };
	} catch (error) {
		if (error instanceof ApiError) throw invalid(`its query is not valid: ${error.detail}`);
		throw error;
	}
}
