import {
	NodeApiError,
	NodeOperationError,
	sleep,
	type DeclarativeRestApiSettings,
	type IExecutePaginationFunctions,
	type IHttpRequestOptions,
} from 'n8n-workflow';
import { InvalidJsonResponse } from '../../../../nodes/shared/transport/apiFailure';
import { RenewalFailed } from '../../../../nodes/shared/auth';
import { RequestGate } from '../../../../nodes/shared/transport/gate';
import { send, type SendPolicy } from '../../../../nodes/shared/transport/send';
import {
	NODE,
	TOKEN,
	deferred,
	fakeContext,
	httpError,
	networkError,
	settle,
	wrappedByN8n,
} from '../../../support/fakeContext';

// Retry waits go through n8n-workflow's sleep: answered at once, and recorded.
jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));
const sleepMock = sleep as jest.MockedFunction<typeof sleep>;

const GET: IHttpRequestOptions = {
	method: 'GET',
	url: 'https://api.example.test/api/report/objects',
};
const POST: IHttpRequestOptions = {
	method: 'POST',
	url: 'https://api.example.test/api/advertisement/ext/',
};

function policy<T = unknown>(overrides: Partial<SendPolicy<T>> = {}): SendPolicy<T> {
	return {
		idempotent: true,
		secrets: [TOKEN],
		accept: (answer) => answer as T,
		...overrides,
	};
}

beforeEach(() => sleepMock.mockClear());

describe('send: the one way a request leaves for the API', () => {
	test("sends through n8n's authenticated helper with the Ad Cabinet credential and returns what accept makes of the answer", async () => {
		const fake = fakeContext(() => ({ body: '{"ok":true}', statusCode: 200 }));
		const result = await send(
			fake.ctx,
			{ http: GET },
			policy({ accept: (answer) => JSON.parse((answer as { body: string }).body) }),
		);
		expect(result).toEqual({ ok: true });
		expect(fake.request).toHaveBeenCalledTimes(1);
		// Never following a redirect: the token must not go to another host.
		expect(fake.request).toHaveBeenCalledWith(
			'adCabinetApi',
			{ ...GET, disableFollowRedirect: true },
			undefined,
		);
		// n8n's helper gets the context as `this`, with a cancel signal that also fires at the deadline.
		const bounded = fake.request.mock.contexts[0] as {
			getExecutionCancelSignal: () => AbortSignal;
		};
		expect(Object.getPrototypeOf(bounded)).toBe(fake.ctx);
		expect(bounded.getExecutionCancelSignal()).toBeInstanceOf(AbortSignal);
		expect(bounded.getExecutionCancelSignal().aborted).toBe(false);
	});

	test('a read is retried on 503 and then succeeds, after a backoff wait', async () => {
		const fake = fakeContext((_options, call) => {
			if (call === 1) throw httpError(503, { detail: 'down for a moment' });
			return 'second answer';
		});
		await expect(send(fake.ctx, { http: GET }, policy())).resolves.toBe('second answer');
		expect(fake.request).toHaveBeenCalledTimes(2);
		expect(sleepMock).toHaveBeenCalledTimes(1);
		// First retry: 400 ms base delay with full jitter on its upper half.
		const wait = sleepMock.mock.calls[0][0];
		expect(wait).toBeGreaterThanOrEqual(200);
		expect(wait).toBeLessThanOrEqual(400);
	});

	test("the status is read through the NodeApiError n8n's helper wraps the transport error in", async () => {
		const fake = fakeContext((_options, call) => {
			if (call === 1) throw wrappedByN8n(httpError(504, { detail: 'Gateway Timeout' }));
			if (call === 2) throw wrappedByN8n(httpError(403, { detail: 'No access to ACC0001.' }));
			return 'never';
		});
		const error = (await send(fake.ctx, { http: GET }, policy()).catch(
			(e: unknown) => e,
		)) as NodeApiError;
		expect(fake.request).toHaveBeenCalledTimes(2);
		expect(error.message).toBe(
			'The Ad Cabinet API refused the request with 403: No access to ACC0001. The access token has no permission on this cabinet (account). Check the Cabinet ID, or ask the cabinet owner for access.',
		);
		expect(error.httpCode).toBe('403');
	});

	test('a read is retried on a connection reset and on a body that is not JSON', async () => {
		let calls = 0;
		const fake = fakeContext((_options, call) => {
			if (call === 1) throw networkError('ECONNRESET', 'socket hang up');
			return call === 2 ? '{"rows": [' : '{"rows": []}';
		});
		const result = await send(
			fake.ctx,
			{ http: GET },
			policy({
				accept: (answer) => {
					calls++;
					try {
						return JSON.parse(answer as string) as unknown;
					} catch {
						throw new InvalidJsonResponse(200);
					}
				},
			}),
		);
		expect(result).toEqual({ rows: [] });
		expect(fake.request).toHaveBeenCalledTimes(3);
		expect(calls).toBe(2);
	});

	test('a read that keeps failing gives up after 5 attempts and says so', async () => {
		const fake = fakeContext(() => {
			throw httpError(503, { detail: 'Service Unavailable' });
		});
		const error = await send(fake.ctx, { http: GET }, policy()).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(fake.request).toHaveBeenCalledTimes(5);
		expect((error as NodeApiError).message).toBe(
			'The Ad Cabinet API failed with 503: Service Unavailable. The API is temporarily unavailable: try again later. It failed 5 times; it only reads data, so running it again later is safe.',
		);
		expect((error as NodeApiError).httpCode).toBe('503');
	});

	test('a write is never retried, and the error says it may have taken effect', async () => {
		const fake = fakeContext(() => {
			throw httpError(503);
		});
		const error = (await send(fake.ctx, { http: POST }, policy({ idempotent: false })).catch(
			(e: unknown) => e,
		)) as NodeApiError;
		expect(fake.request).toHaveBeenCalledTimes(1);
		expect(sleepMock).not.toHaveBeenCalled();
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toContain(
			'This write was not retried and may have taken effect: check the record before sending it again.',
		);
	});

	test('a write is not retried even after a reset, which may have reached the API', async () => {
		const fake = fakeContext(() => {
			throw networkError('ECONNRESET');
		});
		const error = (await send(fake.ctx, { http: POST }, policy({ idempotent: false })).catch(
			(e: unknown) => e,
		)) as NodeApiError;
		expect(fake.request).toHaveBeenCalledTimes(1);
		expect(error.message).toMatch(
			/^The Ad Cabinet API could not be reached: the connection was reset before the answer arrived\./,
		);
		expect(error.message).toContain('may have taken effect');
	});

	test('a 401 becomes a NodeApiError whose message stands alone: what the API said and what to do next', async () => {
		const fake = fakeContext(() => {
			throw httpError(401, { detail: 'Invalid token.' });
		});
		const error = (await send(fake.ctx, { http: GET }, policy({ itemIndex: 3 })).catch(
			(e: unknown) => e,
		)) as NodeApiError;
		expect(error).toBeInstanceOf(NodeApiError);
		expect(fake.request).toHaveBeenCalledTimes(1);
		expect(error.message).toBe(
			'The Ad Cabinet API refused the access token (401: Invalid token). Open the Ad Cabinet API credential: with Sign-in Method Access Token, paste a new token (or switch to Username and Password, which renews the token by itself); with the other methods n8n already renewed the token once, so check that Base URL and Client API URL are addresses of the same service. Then run again.',
		);
		expect(error.httpCode).toBe('401');
		expect(error.context.itemIndex).toBe(3);
		expect(error.node).toBe(NODE);
	});

	test('the access token is scrubbed from anything the API echoed into the error', async () => {
		const fake = fakeContext(() => {
			throw httpError(400, {
				detail: `Token ${TOKEN} is not allowed here`,
				errors: { token: [TOKEN] },
			});
		});
		const error = (await send(fake.ctx, { http: GET }, policy()).catch(
			(e: unknown) => e,
		)) as NodeApiError;
		expect(error.message).not.toContain(TOKEN);
		expect(error.message).toContain('Token *** is not allowed here');
		expect(String(error.description ?? '')).not.toContain(TOKEN);
	});

	test("the operation's hint replaces the generic advice and is asked with the failure", async () => {
		const hint = jest.fn(() => 'Check that ad 42 exists in cabinet ACC1.');
		const fake = fakeContext(() => {
			throw httpError(404, { detail: 'Not found.' });
		});
		const error = (await send(fake.ctx, { http: GET }, policy({ hint })).catch(
			(e: unknown) => e,
		)) as NodeApiError;
		expect(hint).toHaveBeenCalledWith(expect.objectContaining({ status: 404 }));
		expect(error.message).toBe(
			'The Ad Cabinet API refused the request with 404: Not found. Check that ad 42 exists in cabinet ACC1.',
		);
		expect(error.description).toBe('Check that the ID exists and belongs to this cabinet.');
	});

	test('an input error thrown while reading the answer passes through untouched and is not retried', async () => {
		const fake = fakeContext(() => 'answer');
		const refusal = new NodeOperationError(NODE, 'Cabinet ID: must not be empty.');
		const error = await send(
			fake.ctx,
			{ http: GET },
			policy({
				accept: () => {
					throw refusal;
				},
			}),
		).catch((e: unknown) => e);
		expect(error).toBe(refusal);
		expect(fake.request).toHaveBeenCalledTimes(1);
	});

	test('the gate bounds the requests in flight', async () => {
		const gate = new RequestGate(2);
		const open: Array<ReturnType<typeof deferred>> = [];
		let inFlight = 0;
		let most = 0;
		const fake = fakeContext(async () => {
			inFlight++;
			most = Math.max(most, inFlight);
			const answer = deferred();
			open.push(answer);
			try {
				return await answer.promise;
			} finally {
				inFlight--;
			}
		});
		const all = Promise.all(
			[1, 2, 3, 4, 5].map((n) => send(fake.ctx, { http: { ...GET, qs: { n } } }, policy({ gate }))),
		);
		await settle();
		expect(fake.request).toHaveBeenCalledTimes(2);
		open[0].resolve('a');
		await settle();
		expect(fake.request).toHaveBeenCalledTimes(3);
		for (let i = 1; i < 5; i++) {
			open[i].resolve(String(i));
			await settle();
		}
		await expect(all).resolves.toEqual(['a', '1', '2', '3', '4']);
		expect(most).toBe(2);
	});

	test('a 429 slows the gate down and waits for Retry-After before the retry', async () => {
		const gate = new RequestGate(8);
		const fake = fakeContext((_options, call) => {
			if (call === 1) throw httpError(429, { detail: 'Too many requests' }, { 'retry-after': '3' });
			return 'ok';
		});
		await expect(send(fake.ctx, { http: GET }, policy({ gate }))).resolves.toBe('ok');
		expect(gate.limit).toBe(4);
		// The retry's own wait honours Retry-After; the gate holds new requests for it too.
		const waits = sleepMock.mock.calls.map((call) => call[0]);
		expect(waits).toHaveLength(2);
		expect(waits[0]).toBe(3000);
		expect(waits[1]).toBeGreaterThan(2500);
		expect(waits[1]).toBeLessThanOrEqual(3000);
	});

	test('once the gate is closed (another request failed the run), a failed read sends nothing more', async () => {
		const gate = new RequestGate(4);
		const fake = fakeContext(() => {
			gate.close(NODE);
			throw httpError(503);
		});
		const error = await send(fake.ctx, { http: GET }, policy({ gate })).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toBe('The run stopped after another request failed');
		expect(fake.request).toHaveBeenCalledTimes(1);
	});

	test('a routing outgoing goes back through makeRoutingRequest (retried like any read), not the plain helper', async () => {
		const fake = fakeContext(() => {
			throw new Error('the plain helper must not be used');
		});
		const items = [{ json: { id: 1 } }];
		let calls = 0;
		const makeRoutingRequest = jest.fn(async () => {
			calls++;
			if (calls === 1) throw httpError(502);
			return items;
		});
		const routingCtx = { makeRoutingRequest } as unknown as IExecutePaginationFunctions;
		const routing = {
			options: { method: 'GET', url: '/api/report/objects' },
			paginate: true,
			maxResults: 0,
		} as unknown as DeclarativeRestApiSettings.ResultOptions;
		await expect(send(fake.ctx, { routing, ctx: routingCtx }, policy())).resolves.toBe(items);
		expect(makeRoutingRequest).toHaveBeenCalledTimes(2);
		expect(makeRoutingRequest).toHaveBeenCalledWith({
			...routing,
			options: { ...routing.options, disableFollowRedirect: true },
		});
		expect(fake.request).not.toHaveBeenCalled();
	});
});

describe('send: renewal of the token', () => {
	test("a failed sign-in (the credential's renewal) keeps its own message and is not retried, even for a read", async () => {
		const failed = new RenewalFailed(
			'sign-in',
			'Sign-in to the Ad Cabinet API failed: the API refused the username or password (401). Check Username and Password.',
		);
		const fake = fakeContext(() => {
			throw wrappedByN8n(failed);
		});
		const error = await send(fake.ctx, { http: GET }, policy()).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(NodeApiError);
		expect((error as NodeApiError).message).toBe(failed.message);
		expect(fake.request).toHaveBeenCalledTimes(1);
		expect(sleepMock).not.toHaveBeenCalled();
	});
});

describe('send: a 401 after n8n renewed the token (revoked tokens)', () => {
	test('the credential is read once more and the request repeated once, without another renewal; a success ends it', async () => {
		const fake = fakeContext((_options, call) => {
			if (call === 1)
				throw wrappedByN8n(httpError(401, { detail: 'Could not validate credentials' }));
			return { ok: call };
		});
		const result = await send(fake.ctx, { http: GET }, policy({ renews: true }));
		expect(result).toEqual({ ok: 2 });
		expect(fake.request).toHaveBeenCalledTimes(2);
		// The repeat asks n8n for no renewal on a 401: it reads the stored credential only.
		expect(fake.request.mock.calls[0][2]).toBeUndefined();
		expect(fake.request.mock.calls[1][2]).toEqual({ preAuthenticationRetryStatusCode: [] });
	});

	test('a 401 to that repeat too: the message names another client signing in with the same account', async () => {
		const fake = fakeContext(() => {
			throw wrappedByN8n(httpError(401, { detail: 'Could not validate credentials' }));
		});
		const error = await send(fake.ctx, { http: GET }, policy({ renews: true })).catch(
			(e: unknown) => e,
		);
		expect(error).toBeInstanceOf(NodeApiError);
		expect((error as NodeApiError).message).toMatch(
			/^The Ad Cabinet API refused the access token \(401\) even after n8n renewed it and read the credential once more.*The likely cause is another client signing in with the same account/,
		);
		expect(fake.request).toHaveBeenCalledTimes(2);
	});

	test('with Access Token (renews false) a 401 is not repeated at all', async () => {
		const fake = fakeContext(() => {
			throw wrappedByN8n(httpError(401, { detail: 'Invalid token' }));
		});
		await expect(send(fake.ctx, { http: GET }, policy({ renews: false }))).rejects.toThrow(/401/);
		expect(fake.request).toHaveBeenCalledTimes(1);
	});
});

describe('send: the secrets scrubbed are those known when the error is built', () => {
	test('a token renewed during the run (stored in the credential since) is masked in what the API echoed', async () => {
		const renewed = 'renewed-during-the-run-5521';
		const fake = fakeContext(() => {
			throw wrappedByN8n(httpError(400, { detail: `bad header Authorization: Bearer ${renewed}` }));
		});
		fake.getCredentials.mockResolvedValue({ accessToken: '', sessionToken: renewed });
		const error = (await send(
			fake.ctx,
			{ http: GET },
			policy({ secrets: ['old-token-1234'] }),
		).catch((e: unknown) => e)) as NodeApiError;
		expect(error.message).toContain('Bearer ***');
		expect(JSON.stringify(error)).not.toContain(renewed);
	});
});
