import { NodeOperationError } from 'n8n-workflow';
import {
	checkStatsQuery,
	readStatsQuery,
	type ParameterReader,
	type StatsQuery,
} from '../../../../nodes/shared/stats/query';
import { NODE } from '../../../support/fakeContext';

const NOW = new Date('2026-11-10T12:00:00.000Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function reader(parameters: Record<string, unknown>) {
	const asked: Array<[string, unknown]> = [];
	const read: ParameterReader = (name, fallback) => {
		asked.push([name, fallback]);
		return name in parameters ? parameters[name] : fallback;
	};
	return { read, asked };
}

function query(overrides: Partial<StatsQuery> = {}): StatsQuery {
	return {
		period_from: '2026-11-01T00:00:00.000Z',
		period_to: '2026-11-07T23:59:59.999Z',
		period_grouping_unit: 'day',
		...overrides,
	};
}

function boundsOf(q: StatsQuery) {
	return { fromMs: Date.parse(q.period_from), toMs: Date.parse(q.period_to), now: NOW };
}

function refusal(q: StatsQuery, itemIndex = 0): NodeOperationError {
	try {
		checkStatsQuery(NODE, q, boundsOf(q), itemIndex);
	} catch (error) {
		return error as NodeOperationError;
	}
	throw new Error('expected a refusal');
}

describe('readStatsQuery', () => {
	test('reads unit, currency, grouping and the filters into the body, with the period and order given', () => {
		const { read } = reader({
			periodGroupingUnit: 'hour',
			currency: 'USD',
			grouping: ['campaign', 'ad'],
			filters: { cabinetIds: ' 1234567, 7654321 ,', adObjects: ['@channel', 'https://t.me/bot'] },
		});
		expect(readStatsQuery(read, { from: 'F', to: 'T' }, '-period')).toEqual({
			period_from: 'F',
			period_to: 'T',
			period_grouping_unit: 'hour',
			currency_code: 'USD',
			order_by: '-period',
			grouping: ['campaign', 'ad'],
			platform_cabinet_ids: ['1234567', '7654321'],
			ad_objects: ['@channel', 'https://t.me/bot'],
		});
	});

	test('grouping from an expression may be comma- or newline-separated text', () => {
		const { read } = reader({
			periodGroupingUnit: 'day',
			currency: 'EUR',
			grouping: 'campaign,\nad',
		});
		expect(readStatsQuery(read, { from: 'F', to: 'T' }, 'period').grouping).toEqual([
			'campaign',
			'ad',
		]);
	});

	test('no grouping and empty filters are left out of the body; absent parameters fall back to empty', () => {
		const { read, asked } = reader({ periodGroupingUnit: 'day', currency: 'EUR' });
		const result = readStatsQuery(read, { from: 'F', to: 'T' }, 'period');
		expect(result).toEqual({
			period_from: 'F',
			period_to: 'T',
			period_grouping_unit: 'day',
			currency_code: 'EUR',
			order_by: 'period',
		});
		expect(asked).toEqual(
			expect.arrayContaining([
				['grouping', []],
				['filters', {}],
			]),
		);
		const { read: blank } = reader({
			periodGroupingUnit: 'day',
			currency: 'EUR',
			grouping: [],
			filters: { cabinetIds: '', adObjects: [] },
		});
		const empty = readStatsQuery(blank, { from: 'F', to: 'T' }, 'period');
		expect('grouping' in empty || 'platform_cabinet_ids' in empty || 'ad_objects' in empty).toBe(
			false,
		);
	});
});

describe('readStatsQuery: the cabinet filter as the node version reads it', () => {
	const parameters = {
		periodGroupingUnit: 'day',
		currency: 'EUR',
		grouping: [],
		filters: { cabinetIds: ['ACC06163', 'ACC07021'] },
	};

	test('a version with the cabinet list reads it through its own reader, whose refusal stops the query', () => {
		const seen: unknown[] = [];
		const q = readStatsQuery(reader(parameters).read, { from: 'F', to: 'T' }, 'period', (raw) => {
			seen.push(raw);
			return (raw as string[]).map((id) => id.toLowerCase());
		});
		expect(seen).toEqual([['ACC06163', 'ACC07021']]);
		expect(q.platform_cabinet_ids).toEqual(['acc06163', 'acc07021']);
		const refuse = () => {
			throw new NodeOperationError(NODE, 'refused');
		};
		expect(() =>
			readStatsQuery(reader(parameters).read, { from: 'F', to: 'T' }, 'period', refuse),
		).toThrow('refused');
	});

	test('without a reader, the typed text is split at commas as the earlier versions always did', () => {
		const q = readStatsQuery(
			reader({ ...parameters, filters: { cabinetIds: 'Tashkent Digital, ACC07021' } }).read,
			{ from: 'F', to: 'T' },
			'period',
		);
		expect(q.platform_cabinet_ids).toEqual(['Tashkent Digital', 'ACC07021']);
	});
});

describe('checkStatsQuery: refusals before sending', () => {
	test('a valid query passes, whatever the length of the period for day and longer units', () => {
		expect(() => checkStatsQuery(NODE, query(), boundsOf(query()))).not.toThrow();
		const year = query({
			period_from: '2020-01-01T00:00:00.000Z',
			period_grouping_unit: 'month',
			grouping: ['campaign', 'ad'],
			currency_code: 'TON',
			order_by: '-period',
		});
		expect(() => checkStatsQuery(NODE, year, boundsOf(year))).not.toThrow();
	});

	test('an unknown unit names the field, the allowed values and the value given', () => {
		const error = refusal(query({ period_grouping_unit: 'minute' }), 2);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe(
			'Period Grouping Unit: must be one of 5_minutes, 30_minutes, hour, day, week, month, year (got "minute"). Nothing was sent to the API.',
		);
		expect(error.context.itemIndex).toBe(2);
	});

	test('an unknown grouping value', () => {
		expect(refusal(query({ grouping: ['campaign', 'country'] })).message).toBe(
			'Grouping: values must be from ad, ad_object, cabinet, campaign (got "country"). Nothing was sent to the API.',
		);
	});

	test("an unknown currency; an empty one is left to the API's default", () => {
		expect(refusal(query({ currency_code: 'GBP' })).message).toBe(
			'Currency: must be one of EUR, TON, USD, RUB, USDT, STAR (got "GBP"). Nothing was sent to the API.',
		);
		expect(() =>
			checkStatsQuery(NODE, query({ currency_code: '' }), boundsOf(query())),
		).not.toThrow();
	});

	test('an unknown order', () => {
		expect(refusal(query({ order_by: 'newest' })).message).toBe(
			'Order: must be one of "period", "-period" (got "newest"). Nothing was sent to the API.',
		);
	});

	test('a start after the end', () => {
		const q = query({
			period_from: '2026-11-08T00:00:00.000Z',
			period_to: '2026-11-07T00:00:00.000Z',
		});
		expect(refusal(q).message).toBe(
			'Period From: must not be after Period To (2026-11-07T00:00:00.000Z) (got "2026-11-08T00:00:00.000Z"). Nothing was sent to the API.',
		);
	});

	test('a fine unit may span 2 days at most', () => {
		const from = NOW.getTime() - 3 * DAY;
		const exactly = query({
			period_grouping_unit: 'hour',
			period_from: new Date(from).toISOString(),
			period_to: new Date(from + 2 * DAY).toISOString(),
		});
		expect(() => checkStatsQuery(NODE, exactly, boundsOf(exactly))).not.toThrow();
		const justOver = { ...exactly, period_to: new Date(from + 2 * DAY + 1000).toISOString() };
		expect(refusal(justOver).message).toMatch(/may span at most 2 days; this one spans 2\.0 days/);
		const longer = { ...exactly, period_to: new Date(from + 2 * DAY + 6 * HOUR).toISOString() };
		expect(refusal(longer).message).toBe(
			'Period From: with the unit "hour" the period may span at most 2 days; this one spans 2.3 days: shorten the period or use the unit day. Nothing was sent to the API.',
		);
	});

	test('a fine unit reaches back 5 days at most, counted from now', () => {
		const oldest = NOW.getTime() - 5 * DAY;
		const edge = query({
			period_grouping_unit: '5_minutes',
			period_from: new Date(oldest).toISOString(),
			period_to: new Date(oldest + DAY).toISOString(),
		});
		expect(() => checkStatsQuery(NODE, edge, boundsOf(edge))).not.toThrow();
		const older = { ...edge, period_from: new Date(oldest - 1000).toISOString() };
		expect(refusal(older).message).toBe(
			`Period From: with the unit "5_minutes" data exists only for the last 5 days, so it must not be before 2026-11-05T12:00:00.000Z (got "${older.period_from}"). Nothing was sent to the API.`,
		);
	});

	test('the checks use the bounds given, not the text (the period strings may carry any offset)', () => {
		const q = query({
			period_grouping_unit: '30_minutes',
			period_from: 'from text',
			period_to: 'to text',
		});
		const from = NOW.getTime() - DAY;
		expect(() =>
			checkStatsQuery(NODE, q, { fromMs: from, toMs: from + DAY, now: NOW }),
		).not.toThrow();
		expect(() =>
			checkStatsQuery(NODE, q, { fromMs: from, toMs: from + 3 * DAY, now: NOW }),
		).toThrow(/may span at most 2 days/);
	});
});
