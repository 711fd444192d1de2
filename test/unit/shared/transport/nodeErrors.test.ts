import { NodeApiError } from 'n8n-workflow';
import {
	apiError,
	cabinetAccessHint,
	toNodeApiError,
	type ErrorContext,
} from '../../../../nodes/shared/transport/nodeErrors';
import type { Failure } from '../../../../nodes/shared/transport/apiFailure';
import { NODE, TOKEN } from '../../../support/fakeContext';

const read: ErrorContext = { idempotent: true, attempts: 1 };
const write: ErrorContext = { idempotent: false, attempts: 1 };

function messageOf(failure: Failure, context: ErrorContext): string {
	return toNodeApiError(NODE, failure, context).message;
}

describe('toNodeApiError: the message stands alone', () => {
	test("401: the API's words, then what to do; the description explains the token", () => {
		const error = toNodeApiError(
			NODE,
			{ status: 401, body: { detail: 'Token expired.  ' } },
			{ ...read, itemIndex: 2 },
		);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe(
			'The Ad Cabinet API refused the access token (401: Token expired). Open the Ad Cabinet API credential: with Sign-in Method Access Token, paste a new token (or switch to Username and Password, which renews the token by itself); with the other methods n8n already renewed the token once, so check that Base URL and Client API URL are addresses of the same service. Then run again.',
		);
		expect(error.description).toMatch(
			/^The API did not accept the access token: it is wrong, expired or revoked/,
		);
		expect(error.httpCode).toBe('401');
		expect(error.context.itemIndex).toBe(2);
	});

	test('401 without a body still says what happened', () => {
		expect(messageOf({ status: 401 }, read)).toMatch(
			/^The Ad Cabinet API refused the access token \(401\)\. Open the Ad Cabinet/,
		);
	});

	test('a refused write says nothing was changed and sending again after the fix is safe; a refused read does not need to', () => {
		const failure: Failure = { status: 400, body: { errors: { cpm: ['must be positive'] } } };
		expect(messageOf(failure, write)).toBe(
			'The Ad Cabinet API refused the request with 400: cpm: must be positive. Fix the value it names and send the request again. The API refused it, so nothing was changed and sending it again after the fix is safe.',
		);
		expect(messageOf(failure, read)).toBe(
			'The Ad Cabinet API refused the request with 400: cpm: must be positive. Fix the value it names and send the request again.',
		);
	});

	test('a server error on a read says how many attempts were made and that running again is safe', () => {
		expect(messageOf({ status: 500 }, { ...read, attempts: 5 })).toBe(
			'The Ad Cabinet API failed with 500. The API had an internal error: try again later, and contact the API provider if it persists. It failed 5 times; it only reads data, so running it again later is safe.',
		);
		expect(messageOf({ status: 500 }, read)).toMatch(
			/It only reads data, so running it again is safe\.$/,
		);
	});

	test('a server error on a write warns it may have taken effect; a 429 on a write was not processed', () => {
		expect(messageOf({ status: 502 }, write)).toMatch(
			/may have taken effect: check the record before sending it again\.$/,
		);
		expect(messageOf({ status: 429, body: { detail: 'Too many requests' } }, write)).toBe(
			'The Ad Cabinet API failed with 429: Too many requests. The API limits how many requests an account may send to one address in a minute (10 per 60 s on the real service), and every workflow and worker using the account shares that budget. Check that Rate Limit Requests and Rate Limit Window in the credential match the API, then run again after a minute. The API did not process it, so sending it again later is safe.',
		);
	});

	test('a connection refused says so in words (the code is in httpCode: n8n replaces a message that names it), points at the credential URLs and says nothing reached the API', () => {
		const error = toNodeApiError(
			NODE,
			{ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:9' },
			write,
		);
		// NodeApiError would swap a message naming a network code for a generic sentence; ours is kept.
		expect(error.message).toBe(
			'The Ad Cabinet API could not be reached: the connection was refused. Check the Base URL and Client API URL in the credential and that the API is reachable from n8n. Nothing reached the API, so running it again is safe.',
		);
		expect(error.httpCode).toBe('ECONNREFUSED');
		expect(error.description).toBeUndefined();
	});

	test('a body that is not JSON is named as such, and a read says it is safe to repeat', () => {
		expect(messageOf({ status: 200, invalidJson: true }, { ...read, attempts: 5 })).toBe(
			'The Ad Cabinet API answered 200 with a body that is not valid JSON (cut short or not an API answer). It failed 5 times; it only reads data, so running it again later is safe.',
		);
	});

	test("a status without advice still gives the API's words and the outcome", () => {
		expect(messageOf({ status: 418, body: 'I am a teapot' }, write)).toBe(
			'The Ad Cabinet API refused the request with 418: I am a teapot. The API refused it, so nothing was changed and sending it again after the fix is safe.',
		);
	});

	test('an operation hint replaces the status advice, which moves to the description', () => {
		const error = toNodeApiError(
			NODE,
			{ status: 403 },
			{ ...write, hint: cabinetAccessHint('cabinet ACC7') },
		);
		expect(error.message).toBe(
			'The Ad Cabinet API refused the request with 403. The access token has no permission on cabinet ACC7. Check the Cabinet ID, or ask the cabinet owner for access. The API refused it, so nothing was changed and sending it again after the fix is safe.',
		);
		expect(error.description).toBe(
			'The token is valid but not allowed on this cabinet or record. The access token has no permission on this cabinet (account). Check the Cabinet ID, or ask the cabinet owner for access.',
		);
	});

	test('secrets the API echoed are scrubbed from message and description', () => {
		const error = toNodeApiError(
			NODE,
			{ status: 400, body: { detail: `bad token ${TOKEN}` } },
			{ ...write, hint: `Token ${TOKEN} again`, secrets: [TOKEN] },
		);
		expect(error.message).toContain('bad token ***');
		expect(error.message).toContain('Token *** again');
		expect(error.message).not.toContain(TOKEN);
		expect(String(error.description)).not.toContain(TOKEN);
	});
});

describe('cabinetAccessHint and apiError', () => {
	test('cabinetAccessHint names what was refused, what to check and an extra reason', () => {
		expect(
			cabinetAccessHint(
				'the cabinet of this campaign',
				'the Campaign ID',
				', or the campaign was deleted',
			),
		).toBe(
			'The access token has no permission on the cabinet of this campaign, or the campaign was deleted. Check the Campaign ID, or ask the cabinet owner for access.',
		);
	});

	test('apiError keeps the message exactly as written (even one naming a network code), scrubbed', () => {
		const error = apiError(NODE, {
			message: `The upload answer has no media token (ECONNRESET seen) for ${TOKEN}.`,
			description: '',
			body: { page: 3 },
			httpCode: '200',
			itemIndex: 4,
			secrets: [TOKEN],
		});
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe('The upload answer has no media token (ECONNRESET seen) for ***.');
		expect(error.description).toBeUndefined();
		expect(error.httpCode).toBe('200');
		expect(error.context.itemIndex).toBe(4);
	});
});
