import { NodeOperationError, sleep } from 'n8n-workflow';
import { RequestGate } from '../../../../nodes/shared/transport/gate';
import { NODE, settle } from '../../../support/fakeContext';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));
const sleepMock = sleep as jest.MockedFunction<typeof sleep>;

beforeEach(() => sleepMock.mockClear());

/** Starts `n` acquires and records the order in which they get a place. */
function acquireMany(gate: RequestGate, n: number) {
	const granted: number[] = [];
	const all = Array.from({ length: n }, (_, i) =>
		gate.acquire().then((generation) => {
			granted.push(i);
			return generation;
		}),
	);
	return { granted, all };
}

describe('RequestGate', () => {
	test('the bound is a whole number of at least one', () => {
		expect(new RequestGate(3.7).limit).toBe(3);
		expect(new RequestGate(0).limit).toBe(1);
		expect(new RequestGate(-5).limit).toBe(1);
	});

	test('lets `bound` requests in at once; each release lets the next waiting one in, first come first served', async () => {
		const gate = new RequestGate(2);
		const { granted } = acquireMany(gate, 5);
		await settle();
		expect(granted).toEqual([0, 1]);
		gate.release();
		await settle();
		expect(granted).toEqual([0, 1, 2]);
		gate.release();
		gate.release();
		await settle();
		expect(granted).toEqual([0, 1, 2, 3, 4]);
	});

	test('a 429 halves the bound once per wave: every request of the same wave reports the same generation', async () => {
		const gate = new RequestGate(8);
		const first = await Promise.all([gate.acquire(), gate.acquire(), gate.acquire()]);
		expect(new Set(first).size).toBe(1);
		for (const generation of first) gate.slowDown(generation, undefined);
		expect(gate.limit).toBe(4);
		for (let i = 0; i < 3; i++) gate.release();
		// Requests of the next wave carry the new generation, so their 429 halves again.
		const second = await gate.acquire();
		expect(second).not.toBe(first[0]);
		gate.slowDown(second, undefined);
		gate.slowDown(second, undefined);
		expect(gate.limit).toBe(2);
		gate.release();
		gate.slowDown(await gate.acquire(), undefined);
		gate.release();
		gate.slowDown(await gate.acquire(), undefined);
		expect(gate.limit).toBe(1);
	});

	test('after a halving, requests beyond the new bound wait even if places were free before', async () => {
		const gate = new RequestGate(4);
		const generation = await gate.acquire();
		gate.slowDown(generation, undefined);
		gate.slowDown(await gate.acquire(), undefined);
		expect(gate.limit).toBe(1);
		const { granted } = acquireMany(gate, 1);
		await settle();
		expect(granted).toEqual([]);
		gate.release();
		await settle();
		expect(granted).toEqual([]);
		gate.release();
		await settle();
		expect(granted).toEqual([0]);
	});

	test('Retry-After holds every new request until it has passed', async () => {
		const gate = new RequestGate(4);
		gate.slowDown(await gate.acquire(), 5000);
		gate.release();
		await gate.acquire();
		expect(sleepMock).toHaveBeenCalledTimes(1);
		const wait = sleepMock.mock.calls[0][0];
		expect(wait).toBeGreaterThan(4500);
		expect(wait).toBeLessThanOrEqual(5000);
		// A shorter Retry-After later does not shorten the pause.
		gate.slowDown(-1, 10);
		sleepMock.mockClear();
		await gate.acquire();
		expect(sleepMock.mock.calls[0][0]).toBeGreaterThan(4500);
	});

	test('no Retry-After (or zero) does not pause', async () => {
		const gate = new RequestGate(4);
		gate.slowDown(await gate.acquire(), 0);
		await gate.acquire();
		expect(sleepMock).not.toHaveBeenCalled();
	});

	test('close wakes the waiting requests with an error, and refuses any new one', async () => {
		const gate = new RequestGate(1);
		await gate.acquire();
		const waiting = gate.acquire();
		gate.close(NODE);
		const error = await waiting.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toBe('The run stopped after another request failed');
		await expect(gate.acquire()).rejects.toThrow('The run stopped after another request failed');
		expect(() => gate.throwIfClosed()).toThrow(NodeOperationError);
	});

	test('an open gate does not throw', () => {
		expect(() => new RequestGate(1).throwIfClosed()).not.toThrow();
	});
});
