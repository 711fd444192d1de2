import { NodeOperationError } from 'n8n-workflow';
import {
	InvalidJsonResponse,
	apiErrorFields,
	apiMessage,
	failureSummary,
	isRetryable,
	provedNotProcessed,
	readFailure,
	renewalFailureIn,
	connectionWords,
	withoutRewrittenCodes,
} from '../../../../nodes/shared/transport/apiFailure';
import { httpError, networkError, wrappedByN8n } from '../../../support/fakeContext';
import { RenewalFailed } from '../../../../nodes/shared/auth/renewalMessages';

describe('readFailure: what a failed attempt tells', () => {
	test('an axios-like error gives the status, the body and Retry-After in seconds', () => {
		const failure = readFailure(httpError(429, { detail: 'slow down' }, { 'retry-after': '7' }));
		expect(failure).toMatchObject({
			status: 429,
			body: { detail: 'slow down' },
			retryAfterMs: 7000,
		});
		expect(failure.code).toBeUndefined();
	});

	test('Retry-After as an HTTP date becomes the time left until then; a date past becomes 0', () => {
		const soon = new Date(Date.now() + 60_000).toUTCString();
		const ahead = readFailure(httpError(503, '', { 'Retry-After': soon })).retryAfterMs as number;
		// toUTCString drops the milliseconds, so up to one second less.
		expect(ahead).toBeGreaterThan(58_000);
		expect(ahead).toBeLessThanOrEqual(60_000);
		const past = readFailure(
			httpError(503, '', { 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' }),
		);
		expect(past.retryAfterMs).toBe(0);
		expect(readFailure(httpError(503, '', { 'retry-after': 'soon' })).retryAfterMs).toBeUndefined();
		expect(readFailure(httpError(503)).retryAfterMs).toBeUndefined();
	});

	test('the NodeApiError n8n wraps a transport error in is read through its cause', () => {
		const wrapped = wrappedByN8n(httpError(502, 'Bad Gateway'));
		expect(readFailure(wrapped)).toMatchObject({ status: 502, body: 'Bad Gateway' });
		const reset = wrappedByN8n(networkError('ECONNRESET', 'socket hang up'));
		expect(readFailure(reset)).toMatchObject({
			status: undefined,
			code: 'ECONNRESET',
			message: 'socket hang up',
		});
	});

	test('a response with statusCode and body (request-style) reads the same', () => {
		const error = { response: { statusCode: 404, body: { message: 'gone' } } };
		expect(readFailure(error)).toMatchObject({ status: 404, body: { message: 'gone' } });
	});

	test('a network error gives its code and message and no status', () => {
		expect(readFailure(networkError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:1'))).toEqual({
			status: undefined,
			code: 'ECONNREFUSED',
			body: undefined,
			retryAfterMs: undefined,
			message: 'connect ECONNREFUSED 127.0.0.1:1',
		});
	});

	test('a body cut short (InvalidJsonResponse) is marked as such with its status', () => {
		expect(readFailure(new InvalidJsonResponse(200))).toEqual({ status: 200, invalidJson: true });
	});

	test('nonsense thrown values give no status and no code', () => {
		expect(readFailure('boom')).toMatchObject({ status: undefined, code: undefined });
		expect(readFailure(null)).toMatchObject({ status: undefined, code: undefined });
		expect(readFailure({ response: { status: 0 } }).status).toBeUndefined();
		expect(readFailure({ response: { status: 'abc' } }).status).toBeUndefined();
	});
});

describe('isRetryable and provedNotProcessed', () => {
	test.each([
		[{ status: 429 }, true],
		[{ status: 500 }, true],
		[{ status: 502 }, true],
		[{ status: 503 }, true],
		[{ status: 504 }, true],
		[{ status: 400 }, false],
		[{ status: 401 }, false],
		[{ status: 404 }, false],
		[{ status: 501 }, false],
		[{ status: 200, invalidJson: true }, true],
		[{ code: 'ECONNRESET' }, true],
		[{ code: 'ETIMEDOUT' }, true],
		[{ code: 'UND_ERR_HEADERS_TIMEOUT' }, true],
		[{ code: 'ENOTFOUND' }, false],
		[{ code: 'CERT_HAS_EXPIRED' }, false],
		[{ message: 'socket hang up' }, true],
		[{ message: 'Request Timeout after 1000ms' }, true],
		[{ message: 'invalid input' }, false],
		[{}, false],
	])('%j retryable: %s', (failure, expected) => {
		expect(isRetryable(failure)).toBe(expected);
	});

	test('only a 429 or a code that proves nothing was sent lets a write be sent again', () => {
		expect(provedNotProcessed({ status: 429 })).toBe(true);
		expect(provedNotProcessed({ code: 'ECONNREFUSED' })).toBe(true);
		expect(provedNotProcessed({ code: 'ENOTFOUND' })).toBe(true);
		expect(provedNotProcessed({ code: 'EAI_AGAIN' })).toBe(true);
		expect(provedNotProcessed({ code: 'ECONNRESET' })).toBe(false);
		expect(provedNotProcessed({ status: 503 })).toBe(false);
		// A status means the server answered, whatever the code says.
		expect(provedNotProcessed({ status: 500, code: 'ECONNREFUSED' })).toBe(false);
	});
});

describe("apiMessage: the API's own words in every common body shape", () => {
	test.each([
		[{ detail: 'Invalid token.' }, 'Invalid token.'],
		[{ message: 'Campaign not found' }, 'Campaign not found'],
		[{ error: 'bad_request', error_description: 'ignored' }, 'bad_request'],
		[{ error_description: 'expired' }, 'expired'],
		[{ detail: '   ', message: 'second choice' }, 'second choice'],
		[{ detail: ['cpm: too low', { field: 'x' }] }, 'cpm: too low; {"field":"x"}'],
		[
			{ errors: { cpm: ['must be positive', 'too low'], title: 'required' } },
			'cpm: must be positive, too low; title: required',
		],
		[
			{ message: 'Validation failed', errors: { cpm: ['must be positive'] } },
			'Validation failed (cpm: must be positive)',
		],
		[
			{
				message: 'Validation failed: cpm: must be positive',
				errors: { cpm: ['must be positive'] },
			},
			'Validation failed: cpm: must be positive',
		],
		[{ message: 'cpm', fields: { cpm: ['must be positive'] } }, 'cpm: must be positive'],
		[
			{ cpm: ['A valid number is required.'], budget: 'too high', count: 3 },
			'cpm: A valid number is required.; budget: too high',
		],
		['{"detail":"parsed from text"}', 'parsed from text'],
		['  Bad Gateway  ', 'Bad Gateway'],
		[{ count: 3 }, undefined],
		['', undefined],
		[undefined, undefined],
	])('%j -> %j', (body, expected) => {
		expect(apiMessage({ status: 400, body })).toBe(expected);
	});

	test('a long text body (an HTML error page) is cut at 300 characters', () => {
		const page = `<html>${'x'.repeat(500)}</html>`;
		const said = apiMessage({ status: 502, body: page }) as string;
		expect(said).toBe(`${page.slice(0, 300)}…`);
	});

	test('apiErrorFields lists the fields a body names under errors or fields', () => {
		expect(apiErrorFields({ body: { errors: { cpm: ['x'], title: ['y'] } } })).toEqual([
			'cpm',
			'title',
		]);
		expect(apiErrorFields({ body: { fields: { budget: 'z' } } })).toEqual(['budget']);
		expect(apiErrorFields({ body: { detail: 'no fields' } })).toEqual([]);
		expect(apiErrorFields({ body: 'text' })).toEqual([]);
	});

	test('failureSummary keeps status, code and body, and nothing of the request', () => {
		expect(
			failureSummary({ status: 400, body: { detail: 'x' }, message: 'm', retryAfterMs: 5 }),
		).toEqual({
			status: 400,
			body: { detail: 'x' },
		});
		expect(failureSummary({ code: 'ECONNRESET' })).toEqual({ code: 'ECONNRESET' });
	});
});

describe('a renewal failure n8n 1.x wrapped, keeping only its message', () => {
	test('is still read as the renewal failure it was, with its step', () => {
		const thrown = new RenewalFailed(
			'sign-in',
			'Sign-in to the Ad Cabinet API is blocked: try again in 61 s.',
		);
		// n8n 1.x's NodeApiError clears `cause` and renames the error: the message alone is left.
		const wrapped = new Error(thrown.message);
		expect(readFailure(wrapped)).toEqual({ renewal: thrown.message });
		expect(renewalFailureIn(wrapped)).toEqual({ message: thrown.message, step: 'sign-in' });
		expect(renewalFailureIn(new Error('connect refused'))).toBeUndefined();
	});
});

const node = {
	id: 'n',
	name: 'Report',
	type: 'n8n-nodes-base.stopAndError',
	typeVersion: 1,
	position: [0, 0] as [number, number],
	parameters: {},
};

describe('connectionWords: a failed connection in words n8n keeps as written', () => {
	test('a known code reads as what happened, without the code', () => {
		expect(connectionWords({ code: 'ECONNRESET', message: 'read ECONNRESET' })).toBe(
			'the connection was reset before the answer arrived',
		);
		expect(connectionWords({ code: 'ENOTFOUND', message: 'getaddrinfo ENOTFOUND x' })).toBe(
			'the host name was not found',
		);
	});

	test('an unknown code stays, with its message; a code n8n rewrites is taken out of the message', () => {
		expect(connectionWords({ code: 'ERR_SOCKET_CLOSED', message: 'Socket is closed' })).toBe(
			'ERR_SOCKET_CLOSED: Socket is closed',
		);
		expect(connectionWords({ message: 'connect EACCES 127.0.0.1:9' })).toBe('connect 127.0.0.1:9');
		expect(connectionWords({})).toBeUndefined();
		expect(withoutRewrittenCodes('read ECONNRESET (ETIMEDOUT).')).toBe('read.');
	});

	test('a message built from the words survives being wrapped again by n8n (as a Stop and Error node does)', () => {
		const words = `The update failed: ${connectionWords({ code: 'ECONNRESET', message: 'read ECONNRESET' })}.`;
		expect(new NodeOperationError(node, words).message).toBe(words);
		// The same sentence with the code in it is replaced whole by n8n's generic one.
		const withCode = 'The update failed: read ECONNRESET.';
		expect(new NodeOperationError(node, withCode).message).not.toBe(withCode);
	});
});
