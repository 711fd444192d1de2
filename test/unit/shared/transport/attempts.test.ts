import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';
import type { Failure } from '../../../../nodes/shared/transport/apiFailure';
import {
	DEFAULT_RETRY,
	retried,
	withDeadline,
	withRetry,
	type RetryPolicy,
} from '../../../../nodes/shared/transport/attempts';
import { DeadlineExceeded } from '../../../../nodes/shared/transport/apiFailure';
import { NODE, httpError, networkError } from '../../../support/fakeContext';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));
const sleepMock = sleep as jest.MockedFunction<typeof sleep>;

const policy: RetryPolicy = { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 1000 };

/** An attempt that throws each of `errors` in turn, then answers `done`. */
function attempts(errors: unknown[], done = 'done') {
	let n = 0;
	return jest.fn(async () => {
		const error = errors[n++];
		if (error !== undefined) throw error;
		return done;
	});
}

function giveUp() {
	return jest.fn(
		(failure: Failure, tries: number) =>
			new NodeApiError(
				NODE,
				{},
				{ message: `gave up on ${failure.status ?? failure.code} after ${tries}` },
			),
	);
}

beforeEach(() => sleepMock.mockClear());
afterEach(() => jest.restoreAllMocks());

describe('withRetry', () => {
	test('an attempt that succeeds is run once, with no wait', async () => {
		const attempt = attempts([]);
		await expect(withRetry(attempt, true, giveUp(), policy)).resolves.toBe('done');
		expect(attempt).toHaveBeenCalledTimes(1);
		expect(sleepMock).not.toHaveBeenCalled();
	});

	test('a read retries transient failures and reports each one before its wait', async () => {
		const seen: Array<number | string | undefined> = [];
		const attempt = attempts([httpError(502), networkError('ETIMEDOUT'), httpError(429)]);
		const result = await withRetry(attempt, true, giveUp(), policy, (failure) => {
			seen.push(failure.status ?? failure.code);
		});
		expect(result).toBe('done');
		expect(attempt).toHaveBeenCalledTimes(4);
		expect(seen).toEqual([502, 'ETIMEDOUT', 429]);
		expect(sleepMock).toHaveBeenCalledTimes(3);
	});

	test('gives up after maxAttempts with the last failure and the number of attempts', async () => {
		const stop = giveUp();
		const attempt = attempts([
			httpError(503),
			httpError(503),
			httpError(503),
			httpError(504),
			httpError(503),
		]);
		await expect(withRetry(attempt, true, stop, policy)).rejects.toThrow('gave up on 504 after 4');
		expect(attempt).toHaveBeenCalledTimes(4);
		expect(stop).toHaveBeenCalledTimes(1);
		expect(sleepMock).toHaveBeenCalledTimes(3);
	});

	test('a write is not retried, whatever the failure', async () => {
		const attempt = attempts([httpError(503)]);
		await expect(withRetry(attempt, false, giveUp(), policy)).rejects.toThrow(
			'gave up on 503 after 1',
		);
		expect(attempt).toHaveBeenCalledTimes(1);
		expect(sleepMock).not.toHaveBeenCalled();
	});

	test('a failure that is not transient (400, 404) is not retried even for a read', async () => {
		for (const status of [400, 404]) {
			const attempt = attempts([httpError(status)]);
			await expect(withRetry(attempt, true, giveUp(), policy)).rejects.toThrow(
				`gave up on ${status} after 1`,
			);
			expect(attempt).toHaveBeenCalledTimes(1);
		}
	});

	test('our own input error passes through untouched', async () => {
		const refusal = new NodeOperationError(NODE, 'Limit: must be at least 1.');
		const stop = giveUp();
		await expect(withRetry(attempts([refusal]), true, stop, policy)).rejects.toBe(refusal);
		expect(stop).not.toHaveBeenCalled();
	});

	test('Retry-After sets the wait, capped at maxDelayMs', async () => {
		const attempt = attempts([
			httpError(429, {}, { 'retry-after': '0.25' }),
			httpError(429, {}, { 'retry-after': '120' }),
		]);
		await withRetry(attempt, true, giveUp(), policy);
		expect(sleepMock.mock.calls.map((call) => call[0])).toEqual([250, 1000]);
	});

	test('without Retry-After the wait doubles per attempt, jittered over its upper half, and is capped', async () => {
		const errors = Array.from({ length: 5 }, () => httpError(503));
		const random = jest.spyOn(Math, 'random');
		random.mockReturnValue(0);
		await withRetry(attempts(errors), true, giveUp(), { ...policy, maxAttempts: 6 });
		// 100, 200, 400, 800, 1600 halved (no jitter), the last capped at 1000 anyway.
		expect(sleepMock.mock.calls.map((call) => call[0])).toEqual([50, 100, 200, 400, 800]);
		sleepMock.mockClear();
		random.mockReturnValue(0.999999);
		await withRetry(attempts(errors), true, giveUp(), { ...policy, maxAttempts: 6 });
		const waits = sleepMock.mock.calls.map((call) => Math.round(call[0]));
		expect(waits).toEqual([100, 200, 400, 800, 1000]);
	});

	test('without a policy, the default one applies: 5 attempts, the first wait 200 to 400 ms', async () => {
		const attempt = attempts(Array.from({ length: 6 }, () => httpError(500)));
		await expect(withRetry(attempt, true, giveUp())).rejects.toThrow(
			`gave up on 500 after ${DEFAULT_RETRY.maxAttempts}`,
		);
		expect(attempt).toHaveBeenCalledTimes(5);
		const first = sleepMock.mock.calls[0][0];
		expect(first).toBeGreaterThanOrEqual(200);
		expect(first).toBeLessThanOrEqual(400);
	});
});

describe('withDeadline: one attempt, headers and body together, cut off at its deadline', () => {
	test('an answer that never comes is given up at the deadline, and the signal it was given fires', async () => {
		let given: AbortSignal | undefined;
		const started = Date.now();
		const error = await withDeadline(100, async (signal) => {
			given = signal;
			return await new Promise(() => undefined);
		}).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(DeadlineExceeded);
		expect((error as DeadlineExceeded).ms).toBe(100);
		expect(given?.aborted).toBe(true);
		expect(Date.now() - started).toBeLessThan(2_000);
	});

	test('a request that fails because the deadline aborted it is reported as the deadline', async () => {
		const error = await withDeadline(50, async (signal) => {
			await new Promise((resolve) => signal.addEventListener('abort', resolve));
			throw new Error('canceled');
		}).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(DeadlineExceeded);
	});

	test('an answer in time is returned; an error in time is passed on as it is', async () => {
		await expect(withDeadline(1_000, async () => 'answer')).resolves.toBe('answer');
		const failure = httpError(503);
		await expect(withDeadline(1_000, async () => await Promise.reject(failure))).rejects.toBe(
			failure,
		);
	});

	test("the execution's own cancel signal reaches the request too", async () => {
		const cancel = new AbortController();
		let given: AbortSignal | undefined;
		const pending = withDeadline(
			10_000,
			async (signal) => {
				given = signal;
				return await new Promise((_resolve, reject) =>
					signal.addEventListener('abort', () => reject(new Error('canceled'))),
				);
			},
			cancel.signal,
		);
		cancel.abort();
		await expect(pending).rejects.toThrow('canceled');
		expect(given?.aborted).toBe(true);
	});
});

describe('retried: the rules a caller adds to the one loop', () => {
	test('before an attempt, a failure to end with stops the loop without sending', async () => {
		const attempt = attempts([httpError(503), httpError(503)]);
		const outcome = await retried(attempt, {
			idempotent: true,
			policy,
			before: async (n, last) => (n === 3 ? last : undefined),
		});
		expect(outcome).toMatchObject({ failure: { status: 503 }, attempts: 2 });
		expect(attempt).toHaveBeenCalledTimes(2);
	});

	test('before the wait, the caller may set the wait or give up', async () => {
		const waits = await retried(attempts([httpError(429)]), {
			idempotent: false,
			policy,
			beforeWait: () => 1_234,
		});
		expect(waits).toEqual({ answer: 'done', attempts: 2 });
		expect(sleepMock.mock.calls.map((call) => call[0])).toEqual([1_234]);
		const attempt = attempts([httpError(502)]);
		const gaveUp = await retried(attempt, {
			idempotent: true,
			policy,
			beforeWait: () => undefined,
		});
		expect(gaveUp).toMatchObject({ failure: { status: 502 }, attempts: 1 });
		expect(attempt).toHaveBeenCalledTimes(1);
	});
});
