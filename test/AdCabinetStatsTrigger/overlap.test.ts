import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { pollOnce } from '../../harness';
import { apiRequests, credentialsFor } from '../../harness/sandbox';
import { claimPoll, LOST_POLL_MS } from '../../nodes/shared/pollsUnderWay';
import { useSandbox } from '../support/useSandbox';
import { sharedClock } from '../support/triggerClock';

const HOUR = 3_600_000;

describe('Ad Cabinet Stats Trigger: one poll of a trigger at a time', () => {
	const sandbox = useSandbox({ now: '2026-11-17T09:00:00Z' });
	const clock = sharedClock(sandbox);
	afterEach(() => clock.stop());

	const parameters: INodeParameters = {
		periodGroupingUnit: 'hour',
		grouping: ['campaign'],
		emit: 'completed',
		startFrom: 'date',
		startDate: '2026-11-16T00:00:00Z',
		currency: 'EUR',
		numericValues: false,
		filters: {},
		options: {},
	};
	const poll = async (staticData: IDataObject) =>
		await pollOnce({
			type: 'adCabinetStatsTrigger',
			parameters,
			credentials: credentialsFor(sandbox()),
			staticData,
		});

	test('a poll that starts while the previous one is under way sends nothing and emits nothing; no row is lost or doubled', async () => {
		clock.start('2026-11-17T09:10:00Z');
		const staticData: IDataObject = {};
		// The first poll holds its claim from its start, before its first request.
		const first = poll(staticData);
		const second = await poll(staticData);
		const requestsWhileFirstRan = apiRequests(sandbox()).length;
		const firstDone = await first;

		expect(second.error).toBeUndefined();
		expect(second.items).toBeNull();
		expect(firstDone.error).toBeUndefined();
		const emitted = (firstDone.items ?? []).map((item) => item.json);
		expect(emitted.length).toBeGreaterThan(0);
		// Every request the sandbox saw belongs to the first poll: the second sent none.
		const bodies = apiRequests(sandbox()).map((r) => JSON.stringify(r.body));
		expect(new Set(bodies).size).toBe(bodies.length);
		expect(requestsWhileFirstRan).toBeLessThanOrEqual(bodies.length);

		// Once the first has ended, the next poll reads on from its state: the hour after, once.
		clock.set(Date.parse('2026-11-17T10:10:00Z'));
		const third = await poll(firstDone.staticData);
		expect(third.error).toBeUndefined();
		const next = (third.items ?? []).map((item) => item.json);
		expect(next.length).toBeGreaterThan(0);
		const lastHour = Math.max(...emitted.map((row) => Date.parse(String(row.period_date))));
		expect(new Set(next.map((row) => Date.parse(String(row.period_date))))).toEqual(
			new Set([lastHour + HOUR]),
		);
	});

	test('a poll that failed ends its claim: the next poll runs', async () => {
		clock.start('2026-11-17T09:10:00Z');
		for (let n = 1; n <= 40; n++) sandbox().faults.onNth(n, '503');
		const failed = await poll({});
		expect(failed.error).toBeDefined();
		sandbox().faults.clear();
		const next = await poll(failed.staticData);
		expect(next.error).toBeUndefined();
		expect(next.items?.length).toBeGreaterThan(0);
	});

	test('a claim older than a run may last is taken as lost, and its late end leaves the newer claim alone', () => {
		const start = Date.parse('2026-11-17T09:00:00Z');
		const endLost = claimPoll('workflow\u0000node', start);
		expect(endLost).toBeDefined();
		expect(claimPoll('workflow\u0000node', start + HOUR / 60)).toBeUndefined();
		expect(claimPoll('workflow\u0000other node', start)).toBeDefined();
		const endNewer = claimPoll('workflow\u0000node', start + LOST_POLL_MS);
		expect(endNewer).toBeDefined();
		endLost?.();
		expect(claimPoll('workflow\u0000node', start + LOST_POLL_MS + 1)).toBeUndefined();
		endNewer?.();
		expect(claimPoll('workflow\u0000node', start + LOST_POLL_MS + 2)).toBeDefined();
	});
});
