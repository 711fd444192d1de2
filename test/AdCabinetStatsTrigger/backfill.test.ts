import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { pollOnce } from '../../harness';
import { apiRequests, credentialsFor } from '../../harness/sandbox';
import { useSandbox } from '../support/useSandbox';
import { sharedClock } from '../support/triggerClock';

const HOUR = 3_600_000;
const NOW = '2026-11-17T09:10:00Z';

/**
 * A backfill spans many periods: the trigger fetches it through the same parallel fetch as Get
 * Many, and splits hour units into pieces of at most 2 days at the API's own period starts. From
 * an API whose periods start at 00:00+03:00 (days) or on the half hour (+05:30), every settled
 * row comes exactly once, as one query for the whole window gives it.
 */
describe('Ad Cabinet Stats Trigger: backfill from an API in another time zone', () => {
	const sandbox = useSandbox({ now: NOW });
	const clock = sharedClock(sandbox);
	afterEach(() => clock.stop());

	const params = (extra: INodeParameters): INodeParameters => ({
		emit: 'completed',
		startFrom: 'date',
		currency: 'EUR',
		numericValues: false,
		filters: {},
		options: {},
		...extra,
	});

	/** Rows of periods starting at or after `startMs` that have ended and settled by now. */
	function truth(
		unit: string,
		grouping: string[],
		startMs: number,
		periodMs: number,
		settleMs: number,
	): IDataObject[] {
		const now = Date.parse(NOW);
		const rows = sandbox().data.statsRows({
			period_from: new Date(startMs).toISOString(),
			period_to: NOW,
			period_grouping_unit: unit,
			grouping,
			currency_code: 'EUR',
			order_by: 'period',
		}) as IDataObject[];
		return rows.filter((row) => {
			const start = Date.parse(String(row.period_date));
			return start >= startMs && start + periodMs + settleMs <= now;
		});
	}

	test.each([
		['day', '+03:00', ['ad'], '2026-11-01T00:00:00+03:00', 24 * HOUR, HOUR],
		['hour', '+05:30', ['campaign'], '2026-11-12T18:00:00Z', HOUR, 15 * 60_000],
	] as const)(
		'%s units from an API at %s: every settled row once, in order',
		async (unit, zone, groups, startDate, periodMs, settleMs) => {
			const grouping = [...groups];
			sandbox().data.bucketZone = (await import('../../sandbox/metrics/time')).bucketZone(zone);
			try {
				clock.start(NOW);
				const result = await pollOnce({
					type: 'adCabinetStatsTrigger',
					parameters: params({ periodGroupingUnit: unit, grouping, startDate }),
					credentials: credentialsFor(sandbox()),
					staticData: {},
				});
				expect(result.error).toBeUndefined();
				const expected = truth(unit, grouping, Date.parse(startDate), periodMs, settleMs);
				expect(expected.length).toBeGreaterThan(1000);
				expect(result.items?.map((item) => item.json)).toEqual(expected);
				// Several queries at once, each starting at one of the API's own period starts.
				const queries = apiRequests(sandbox())
					.map((request) => request.body as IDataObject)
					.filter((body) => body.period_from !== undefined);
				expect(queries.length).toBeGreaterThan(2);
				for (const query of queries.slice(1)) {
					const from = Date.parse(String(query.period_from));
					if (unit === 'day') expect(new Date(from + 3 * HOUR).toISOString()).toMatch(/T00:00:00/);
					else expect(new Date(from).toISOString()).toMatch(/:30:00/);
				}
			} finally {
				sandbox().data.bucketZone = (await import('../../sandbox/metrics/time')).UTC_ZONE;
			}
		},
	);
});
