import { DECIMAL_FIELDS } from '../../../../nodes/shared/stats/apiValues';
import { numericRow, rowKey, rowKeyMaker } from '../../../../nodes/shared/stats/rows';

describe('numericRow', () => {
	test('turns the decimal strings of money and ratio fields into numbers, in place', () => {
		const row = {
			period_date: '2026-11-01T00:00:00Z',
			campaign_id: '17',
			views: '1200',
			original_spent: '7.99',
			exchanged_spent: '-0.50',
			ctr: '0.0125',
			cpm: '20408.00',
			cpc: '.5',
		};
		const out = numericRow(row);
		expect(out).toBe(row);
		expect(out).toEqual({
			period_date: '2026-11-01T00:00:00Z',
			campaign_id: '17',
			views: '1200',
			original_spent: 7.99,
			exchanged_spent: -0.5,
			ctr: 0.0125,
			cpm: 20408,
			cpc: 0.5,
		});
	});

	test('leaves what is not a finite number exactly as the API sent it', () => {
		const row = {
			cpm: '',
			cpc: 'n/a',
			cpa: 'Infinity',
			cvr: null,
			ctr: 3,
			ad_cpm: '1.2.3',
			ad_budget: '-',
		};
		expect(numericRow({ ...row })).toEqual(row);
	});

	test('every shape gives exactly what Number() gives, including past 15 digits and in exponent form', () => {
		const samples = [
			'0.1',
			'0.2',
			'0.3',
			'1.005',
			'123456789.123456',
			'999999999999999',
			'1234567890123456',
			'0.000000000000001',
			'12345678901234567890',
			'1e3',
			'1E-2',
			' 2',
			'+3',
			'-0',
			'5.',
			'007.50',
			'0x10',
			'9007199254740993',
		];
		for (const text of samples) {
			const row = numericRow({ cpm: text });
			expect([text, row.cpm]).toEqual([text, Number(text)]);
		}
	});

	test('every decimal field is converted', () => {
		const row = Object.fromEntries(DECIMAL_FIELDS.map((field, i) => [field, `${i}.25`]));
		const out = numericRow(row);
		DECIMAL_FIELDS.forEach((field, i) => expect(out[field]).toBe(i + 0.25));
	});
});

describe('rowKey', () => {
	test('identifies a row by its period and the key fields of each grouping', () => {
		const a = { period_date: '2026-11-01', campaign_id: 1, ad_id: 10, views: 5 };
		expect(rowKey(a, ['campaign', 'ad'])).toBe(
			rowKey({ ...a, views: 99, title: 'changed' }, ['campaign', 'ad']),
		);
		expect(rowKey(a, ['campaign', 'ad'])).not.toBe(rowKey({ ...a, ad_id: 11 }, ['campaign', 'ad']));
		expect(rowKey(a, ['campaign'])).not.toBe(
			rowKey({ ...a, period_date: '2026-11-02' }, ['campaign']),
		);
	});

	test('fields outside the grouping do not count; without grouping the period alone is the key', () => {
		const a = { period_date: '2026-11-01', campaign_id: 1 };
		expect(rowKey(a, [])).toBe(rowKey({ period_date: '2026-11-01', campaign_id: 2 }, []));
		expect(rowKey(a, ['cabinet'])).toBe(rowKey({ ...a, campaign_id: 2 }, ['cabinet']));
	});

	test('values that run together as text still give different keys', () => {
		const grouping = ['campaign', 'ad'];
		expect(rowKey({ period_date: 'p', campaign_id: '1', ad_id: '23' }, grouping)).not.toBe(
			rowKey({ period_date: 'p', campaign_id: '12', ad_id: '3' }, grouping),
		);
	});

	test('a missing key field is the same as an empty one, and numbers equal their text', () => {
		expect(rowKey({ period_date: 'p' }, ['campaign'])).toBe(
			rowKey({ period_date: 'p', campaign_id: '' }, ['campaign']),
		);
		expect(rowKey({ period_date: 'p', campaign_id: 7 }, ['campaign'])).toBe(
			rowKey({ period_date: 'p', campaign_id: '7' }, ['campaign']),
		);
	});
});

describe('rowKeyMaker (row_key)', () => {
	const row = {
		period_date: '2026-11-17T00:00:00Z',
		campaign_id: 2101,
		ad_id: 10001,
		platform_cabinet_id: 'ACC06163',
		ad_object: 'https://shop.example.uz',
		views: 5,
		exchanged_spent: '1.20',
	};

	test('period start in UTC, unit, currency and the ids of the grouping, each marked', () => {
		expect(rowKeyMaker('day', 'EUR', ['campaign'])(row)).toBe('2026-11-17|d|EUR|c2101');
		expect(rowKeyMaker('day', 'EUR', [])(row)).toBe('2026-11-17|d|EUR');
		expect(rowKeyMaker('hour', 'USD', ['ad', 'campaign'])(row)).toBe(
			'2026-11-17|h|USD|a10001|c2101',
		);
		expect(rowKeyMaker('month', 'RUB', ['cabinet', 'ad_object'])(row)).toBe(
			'2026-11-17|mo|RUB|kACC06163|ohttps://shop.example.uz',
		);
	});

	test('the same instant written with another offset or precision gives the same key; a time of day is kept', () => {
		const make = rowKeyMaker('5_minutes', 'EUR', ['campaign']);
		expect(make({ ...row, period_date: '2026-11-17T03:00:00+03:00' })).toBe(
			'2026-11-17|5m|EUR|c2101',
		);
		expect(make({ ...row, period_date: '2026-11-17T00:00:00.000Z' })).toBe(
			'2026-11-17|5m|EUR|c2101',
		);
		expect(make({ ...row, period_date: '2026-11-17T00:05:00+00:00' })).toBe(
			'2026-11-17T00:05Z|5m|EUR|c2101',
		);
		expect(make({ ...row, period_date: '2026-11-16T21:00:00Z' })).toBe(
			'2026-11-16T21:00Z|5m|EUR|c2101',
		);
		expect(make({ ...row, period_date: '2026-11-16T21:00:30Z' })).toBe(
			'2026-11-16T21:00:30Z|5m|EUR|c2101',
		);
	});

	test('the order the groupings were chosen in does not matter; figures and names never count', () => {
		const a = rowKeyMaker('day', 'EUR', ['campaign', 'ad', 'cabinet']);
		const b = rowKeyMaker('day', 'EUR', ['cabinet', 'ad', 'campaign']);
		expect(a(row)).toBe(b(row));
		expect(a({ ...row, views: 99, exchanged_spent: 3, campaign_name: 'renamed' })).toBe(a(row));
	});

	test('separators inside ids are escaped, so values that run together still give different keys', () => {
		const make = rowKeyMaker('day', 'EUR', ['ad_object', 'campaign']);
		const one = make({ period_date: 'x', ad_object: 'a|c1', campaign_id: 2 });
		const two = make({ period_date: 'x', ad_object: 'a', campaign_id: '1|c2' });
		expect(one).not.toBe(two);
		expect(one).toBe('x|d|EUR|c2|oa%7Cc1');
		expect(two).toBe('x|d|EUR|c1%7Cc2|oa');
		expect(make({ period_date: 'x', ad_object: '50%,off', campaign_id: 1 })).toBe(
			'x|d|EUR|c1|o50%25%2Coff',
		);
	});

	test('unit and currency tell apart rows that share a period start and ids', () => {
		const week = rowKeyMaker('week', 'EUR', ['campaign'])(row);
		const day = rowKeyMaker('day', 'EUR', ['campaign'])(row);
		const usd = rowKeyMaker('day', 'USD', ['campaign'])(row);
		expect(new Set([week, day, usd]).size).toBe(3);
	});
});
