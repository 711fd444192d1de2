import { NodeOperationError } from 'n8n-workflow';
import { fetchStatsWindow } from '../../../../nodes/shared/stats/window';
import type { StatsQuery } from '../../../../nodes/shared/stats/query';
import {
	MINUTE,
	DAY,
	FakeStatsApi,
	NOV_1,
	monthOfDays,
	monthQuery,
} from '../../../support/fakeStatsApi';

// Retry waits are answered at once.
jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

describe("fetchStatsWindow: the trigger's window", () => {
	const NOW = new Date('2026-11-10T12:00:00.000Z');
	const windowFrom = Date.parse('2026-11-06T00:00:00.000Z');

	/** Hours in +05:30 (so they start at half past in UTC), two campaigns. */
	function hoursApi(): FakeStatsApi {
		return new FakeStatsApi({
			unit: 'hour',
			offsetMinutes: 330,
			campaigns: [4, 9],
			slotMs: 5 * MINUTE,
			fromMs: windowFrom - DAY,
			toMs: NOW.getTime(),
		});
	}

	const hourQuery: StatsQuery = {
		period_from: '',
		period_to: '',
		period_grouping_unit: 'hour',
		grouping: ['campaign'],
		order_by: 'period',
	};

	test("a fine unit is fetched in pieces of at most 2 days, each cut where one of the API's periods starts", async () => {
		const api = hoursApi();
		const fake = api.context();
		const rows = await fetchStatsWindow.call(
			fake.ctx,
			hourQuery,
			{ fromMs: windowFrom, toMs: NOW.getTime(), now: NOW },
			{ parallel: 1 },
		);
		expect(api.queries().map((body) => [body.period_from, body.period_to])).toEqual([
			['2026-11-06T00:00:00.000Z', '2026-11-07T23:59:59.999Z'],
			// The hour that held the first piece's end (23:30 UTC is 05:00 at +05:30) goes whole into the next piece.
			['2026-11-07T23:30:00.000Z', '2026-11-09T23:29:59.999Z'],
			['2026-11-09T23:30:00.000Z', '2026-11-10T12:00:00.000Z'],
		]);
		// The same rows as one request for the whole window would give: no period split, none twice.
		const whole = api.rowsFor({
			...hourQuery,
			period_from: new Date(windowFrom).toISOString(),
			period_to: NOW.toISOString(),
		});
		expect(rows).toEqual(whole);
		expect(
			new Set(rows.map((row) => `${String(row.period_date)}/${String(row.campaign_id)}`)).size,
		).toBe(rows.length);
	});

	test('the pieces may be pulled in parallel parts too, with the same rows', async () => {
		const api = hoursApi();
		const rows = await fetchStatsWindow.call(
			api.context().ctx,
			hourQuery,
			{ fromMs: windowFrom, toMs: NOW.getTime(), now: NOW },
			{ pageSize: 20 },
		);
		const whole = api.rowsFor({
			...hourQuery,
			period_from: new Date(windowFrom).toISOString(),
			period_to: NOW.toISOString(),
		});
		expect(rows).toEqual(whole);
	});

	test('a unit of a day or longer is fetched in one query for the whole window', async () => {
		const api = monthOfDays();
		const fromMs = NOV_1;
		const toMs = NOV_1 + 20 * DAY;
		const rows = await fetchStatsWindow.call(
			api.context().ctx,
			{ ...monthQuery },
			{ fromMs, toMs, now: new Date(toMs) },
			{ parallel: 1 },
		);
		expect(api.queries()).toHaveLength(1);
		expect(api.queries()[0]).toMatchObject({
			period_from: new Date(fromMs).toISOString(),
			period_to: new Date(toMs).toISOString(),
		});
		expect(rows).toHaveLength(3 * 21);
	});

	test('a window reaching further back than the fine unit allows is refused before anything is sent', async () => {
		const api = hoursApi();
		const fake = api.context();
		const error = await fetchStatsWindow
			.call(
				fake.ctx,
				hourQuery,
				{ fromMs: NOW.getTime() - 6 * DAY, toMs: NOW.getTime(), now: NOW },
				{ itemIndex: 3 },
			)
			.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toMatch(
			/^Period From: with the unit "hour" data exists only for the last 5 days/,
		);
		expect((error as NodeOperationError).context.itemIndex).toBe(3);
		expect(fake.request).not.toHaveBeenCalled();
	});

	// Known defect, reported: without an offset in period_date no clock is learned, so the pieces
	// are cut every 2 days wherever that falls, and the period holding each cut comes back twice,
	// as two partial rows (here 05:00 on Nov 8 and on Nov 10).
	test.failing('period dates without an offset: still no period twice', async () => {
		const api = new FakeStatsApi(
			{
				unit: 'hour',
				offsetMinutes: 330,
				campaigns: [4],
				slotMs: 5 * MINUTE,
				fromMs: windowFrom - DAY,
				toMs: NOW.getTime(),
			},
			{ noOffset: true },
		);
		const rows = await fetchStatsWindow.call(
			api.context().ctx,
			hourQuery,
			{ fromMs: windowFrom, toMs: NOW.getTime(), now: NOW },
			{ parallel: 1 },
		);
		const periods = rows.map((row) => String(row.period_date));
		expect(periods.filter((period, i) => periods.indexOf(period) !== i)).toEqual([]);
	});

	test('an empty window sends nothing', async () => {
		const api = hoursApi();
		const fake = api.context();
		await expect(
			fetchStatsWindow.call(fake.ctx, hourQuery, {
				fromMs: NOW.getTime(),
				toMs: NOW.getTime(),
				now: NOW,
			}),
		).resolves.toEqual([]);
		expect(fake.request).not.toHaveBeenCalled();
	});
});
