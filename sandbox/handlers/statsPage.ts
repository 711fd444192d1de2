import { FieldErrors } from '../errors';
import { decodeCursor, encodeCursor, type CursorState } from '../stats/cursor';
import {
	checkUnknownFields,
	sameAsCursorQuery,
	STATS_BODY_FIELDS,
	validateStatsQuery,
} from '../stats/statsQuery';
import { jsonObjectBody, type Handler } from './context';

/**
 * POST {base_url}/api/v1/stats/page: statistics. A body with a cursor continues that cursor's query
 * at the instant of its first page; any other parameter sent with it must equal the cursor's.
 */
export const statsPage: Handler = ({ req, data }) => {
	const body = jsonObjectBody(req);
	let state: CursorState;
	if (body.cursor !== undefined && body.cursor !== null) {
		state = decodeCursor(body.cursor);
		const errors = new FieldErrors();
		checkUnknownFields(body, errors);
		for (const field of STATS_BODY_FIELDS) {
			if (field === 'cursor' || body[field] === undefined) continue;
			if (!sameAsCursorQuery(field, body[field], state.query, errors)) {
				errors.add(
					field,
					'differs from the query the cursor was issued for; send only the cursor, or the same parameters',
				);
			}
		}
		errors.throwIfAny();
	} else {
		const now = data.nowMs();
		state = { query: validateStatsQuery(body, now), offset: 0, asOf: now };
	}
	const result = data.stats.result(state.query, state.asOf);
	const nextOffset = state.offset + state.query.limit;
	const cursor = nextOffset < result.count ? encodeCursor({ ...state, offset: nextOffset }) : null;
	return {
		status: 200,
		chunks: data.stats.pageChunks(result, state.offset, state.query.limit, cursor),
	};
};
