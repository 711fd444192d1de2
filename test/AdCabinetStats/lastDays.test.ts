import type { INodeParameters } from 'n8n-workflow';
import { runNode } from '../../harness';
import { apiRequests, credentialsFor } from '../../harness/sandbox';
import { useSandbox } from '../support/useSandbox';
import { sharedClock } from '../support/triggerClock';

const params = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'statistic',
	operation: 'getAll',
	period: 'lastNDays',
	lastDays: 3,
	includeToday: true,
	periodGroupingUnit: 'day',
	grouping: ['campaign'],
	currency: 'EUR',
	returnAll: true,
	filters: {},
	options: {},
	...extra,
});

describe('Stats Get Many: Last N Days', () => {
	const sandbox = useSandbox({ now: '2026-11-20T04:30:00Z' });
	const clock = sharedClock(sandbox);
	afterEach(() => clock.stop());
	const run = (parameters: INodeParameters, timezone = 'America/New_York') =>
		runNode({
			type: 'adCabinetStats',
			typeVersion: 1.2,
			parameters,
			timezone,
			credentials: credentialsFor(sandbox()),
		});

	test("asks for whole days of the workflow's timezone, with today or ending yesterday", async () => {
		// 23:30 on 19 November in New York.
		clock.start('2026-11-20T04:30:00Z');
		await run(params());
		await run(params({ includeToday: false }));
		await run(params({ lastDays: 1 }), 'Asia/Tokyo');
		const bodies = apiRequests(sandbox()).map((request) => request.body as Record<string, unknown>);
		expect(bodies.map((body) => [body.period_from, body.period_to])).toEqual([
			['2026-11-17T00:00:00-05:00', '2026-11-19T23:59:59-05:00'],
			['2026-11-16T00:00:00-05:00', '2026-11-18T23:59:59-05:00'],
			['2026-11-20T00:00:00+09:00', '2026-11-20T23:59:59+09:00'],
		]);
	});

	test('Days that is not a whole number of at least 1 is refused before any request', async () => {
		clock.start('2026-11-20T04:30:00Z');
		for (const lastDays of [0, 2.5]) {
			const { error } = await run(params({ lastDays }));
			expect(error?.message).toContain('Days');
			expect(error?.message).toContain('must be a whole number of days from 1 to 3660');
		}
		expect(apiRequests(sandbox())).toEqual([]);
	});

	test('a fine unit over more than 2 days is refused with the rule, as for any period', async () => {
		clock.start('2026-11-20T04:30:00Z');
		const { error } = await run(params({ periodGroupingUnit: 'hour', lastDays: 3 }));
		expect(error?.message).toContain('may span at most 2 days');
		expect(apiRequests(sandbox())).toEqual([]);
	});
});
