import type { INodeParameters } from 'n8n-workflow';
import { loadOptions, nodeTypes, PACKAGE_NAME, runNode } from '../../harness';
import { apiRequests, credentialsFor } from '../../harness/sandbox';
import { useSandbox } from '../support/useSandbox';

const NOW = '2026-11-20T12:00:00.000Z';

/** The fields by grouping, written out independently of the node's code. */
const COMMON = [
	'period_date',
	'original_spent',
	'original_currency',
	'exchanged_spent',
	'exchange_currency',
	'views',
	'clicks',
	'video_opens',
	'actions',
	'ctr',
	'cvr',
	'cpm',
	'cpc',
	'cpa',
	'platform_id',
];
const BY_GROUPING: Record<string, string[]> = {
	cabinet: ['platform_cabinet_name', 'platform_cabinet_id'],
	campaign: ['platform_cabinet_name', 'campaign_name', 'campaign_id'],
	ad_object: ['ad_object'],
	ad: [
		'ad_title',
		'ad_text',
		'promote_url',
		'website_name',
		'media_type',
		'target_type',
		'target_topics',
		'views_limit_per_user',
		'website_button_type',
		'action_type',
		'ad_id',
		'platform_ad_id',
		'ad_status',
		'ad_cpm',
		'ad_budget',
		'exclude_crypto',
		'only_crypto',
		'additional_information',
		'target_langs',
		'target_countries',
		'target_locations',
		'target_channels',
		'target_user_channels',
		'target_search',
		'target_bots',
	],
};
const DECIMALS = [
	'original_spent',
	'exchanged_spent',
	'ad_cpm',
	'ad_budget',
	'ctr',
	'cpc',
	'cpm',
	'cpa',
	'cvr',
];

function params(extra: INodeParameters = {}): INodeParameters {
	return {
		resource: 'statistic',
		operation: 'getAll',
		period: 'custom',
		periodFrom: '2026-11-01T00:00:00Z',
		periodTo: '2026-11-10T23:59:59Z',
		periodGroupingUnit: 'day',
		grouping: ['campaign'],
		currency: 'EUR',
		returnAll: true,
		filters: {},
		options: {},
		...extra,
	};
}

function bodyOf(p: INodeParameters) {
	const grouping = p.grouping as string[];
	return {
		period_from: p.periodFrom,
		period_to: p.periodTo,
		period_grouping_unit: p.periodGroupingUnit,
		...(grouping.length ? { grouping } : {}),
		currency_code: p.currency,
		order_by: 'period',
	};
}

describe('Ad Cabinet Stats → Statistic → Get Many', () => {
	const sandbox = useSandbox({ now: NOW });
	const run = (parameters: INodeParameters, extra: Partial<Parameters<typeof runNode>[0]> = {}) =>
		runNode({
			type: 'adCabinetStats',
			parameters,
			credentials: credentialsFor(sandbox()),
			...extra,
		});

	test('Return All follows the cursor over several pages: every sandbox row once, in order', async () => {
		const p = params({ options: { pageSize: 20, numericValues: false, parallelRequests: 1 } });
		const expected = sandbox().data.statsRows(bodyOf(p));
		expect(expected.length).toBeGreaterThan(60);
		const { items, error } = await run(p);
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json)).toEqual(expected);
		const log = apiRequests(sandbox());
		expect(log.length).toBe(Math.ceil(expected.length / 20));
		expect(log[0].body).toMatchObject({ ...bodyOf(p), limit: 20 });
		// next pages carry only the cursor
		for (const request of log.slice(1))
			expect(Object.keys(request.body as object)).toEqual(['cursor']);
	});

	test('Limit 7 gives exactly 7 rows and asks for no further page', async () => {
		const p = params({ returnAll: false, limit: 7, options: { numericValues: false } });
		const { items } = await run(p);
		expect(items.map((item) => item.json)).toEqual(sandbox().data.statsRows(bodyOf(p)).slice(0, 7));
		const log = apiRequests(sandbox());
		expect(log).toHaveLength(1);
		expect((log[0].body as { limit: number }).limit).toBe(7);
	});

	test('Limit cutting the result leaves the rows as they are and says so in an execution hint', async () => {
		const p = params({ returnAll: false, limit: 7, options: { numericValues: false } });
		const total = sandbox().data.statsRows(bodyOf(p)).length;
		expect(total).toBeGreaterThan(7);
		const { items, workflow } = await run(p);
		expect(items.map((item) => item.json)).toEqual(sandbox().data.statsRows(bodyOf(p)).slice(0, 7));
		const hints = workflow.run.data.resultData.runData.Node[0].hints ?? [];
		expect(hints.map((hint) => hint.message)).toEqual([
			`Limit stopped the output at 7 of the ${total} rows the API has for this query. Turn on Return All, or raise Limit, to get every row.`,
		]);
		expect(hints[0].location).toBe('outputPane');
	});

	test('no hint when Limit holds every row, or with Return All', async () => {
		const p = params({ returnAll: false, limit: 7, options: { numericValues: false } });
		const total = sandbox().data.statsRows(bodyOf(p)).length;
		for (const extra of [{ limit: total }, { limit: total + 5 }, { returnAll: true }]) {
			const { items, workflow } = await run({ ...p, ...extra });
			expect(items).toHaveLength(total);
			expect(workflow.run.data.resultData.runData.Node[0].hints ?? []).toEqual([]);
		}
	});

	test('a Limit above one page spans pages and stops at the Limit', async () => {
		const p = params({
			grouping: ['ad'],
			returnAll: false,
			limit: 120,
			options: { pageSize: 50, numericValues: false },
		});
		const { items } = await run(p);
		expect(items.map((item) => item.json)).toEqual(
			sandbox().data.statsRows(bodyOf(p)).slice(0, 120),
		);
		expect(apiRequests(sandbox())).toHaveLength(3);
	});

	test.each([
		[[]],
		[['cabinet']],
		[['campaign']],
		[['ad_object']],
		[['ad']],
		[['campaign', 'ad_object']],
		[['cabinet', 'ad']],
	])('grouping %j: exactly the common fields plus those its groupings add', async (grouping) => {
		const p = params({ grouping, returnAll: false, limit: 20, periodFrom: '2026-11-09T00:00:00Z' });
		const { items, error } = await run(p);
		expect(error).toBeUndefined();
		expect(items.length).toBeGreaterThan(0);
		const expected = new Set([...COMMON, ...grouping.flatMap((g) => BY_GROUPING[g])]);
		for (const item of items) expect(new Set(Object.keys(item.json))).toEqual(expected);
	});

	test('Numeric Values (default on) turns decimal strings into numbers; off keeps the exact strings', async () => {
		const base = { grouping: ['ad'], returnAll: false, limit: 30 };
		const asStrings = await run(params({ ...base, options: { numericValues: false } }));
		const asNumbers = await run(params(base));
		expect(asNumbers.items).toHaveLength(30);
		asStrings.items.forEach((item, index) => {
			const numbers = asNumbers.items[index].json;
			for (const field of DECIMALS) {
				expect(typeof item.json[field]).toBe('string');
				expect(numbers[field]).toBe(Number(item.json[field]));
			}
			expect(numbers.views).toBe(item.json.views);
			expect(numbers.period_date).toBe(item.json.period_date);
		});
	});

	test('Currency changes exchange_currency and the exchanged amounts, not the original spend', async () => {
		const eur = await run(
			params({ returnAll: false, limit: 10, options: { numericValues: false } }),
		);
		const usd = await run(
			params({ returnAll: false, limit: 10, currency: 'USD', options: { numericValues: false } }),
		);
		expect(apiRequests(sandbox())[1].body).toMatchObject({ currency_code: 'USD' });
		usd.items.forEach((item, index) => {
			expect(item.json.exchange_currency).toBe('USD');
			expect(eur.items[index].json.exchange_currency).toBe('EUR');
			expect(item.json.original_spent).toBe(eur.items[index].json.original_spent);
		});
		expect(usd.items.map((i) => i.json.exchanged_spent)).not.toEqual(
			eur.items.map((i) => i.json.exchanged_spent),
		);
	});

	test('filters and order are sent as the spec names them', async () => {
		const cabinet =
			sandbox().data.cabinets.find((c) => c.permitted !== false)?.id ??
			sandbox().data.cabinets[0].id;
		const object = sandbox().data.objects[0];
		const { error } = await run(
			params({
				returnAll: false,
				limit: 5,
				filters: { cabinetIds: ` ${cabinet} `, adObjects: [object] },
				options: { order: '-period' },
			}),
		);
		expect(error).toBeUndefined();
		expect(apiRequests(sandbox())[0].body).toMatchObject({
			platform_cabinet_ids: [cabinet],
			ad_objects: [object],
			order_by: '-period',
		});
	});

	test('Include Column Metadata adds the column list to the first item only', async () => {
		const { items } = await run(
			params({ returnAll: false, limit: 3, options: { includeColumns: true } }),
		);
		const columns = items[0].json.columns as Array<{ key: string; type: string }>;
		expect(columns[0]).toEqual({ key: 'period_date', type: 'datetime' });
		expect(columns.find((c) => c.key === 'original_spent')?.type).toBe('money');
		expect(items[1].json.columns).toBeUndefined();
	});

	test('a preset period is sent as whole days in the workflow timezone', async () => {
		const { error } = await run(params({ period: 'yesterday', returnAll: false, limit: 1 }));
		expect(error).toBeUndefined();
		const today = new Date();
		const yesterday = new Date(
			Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - 1),
		);
		const day = yesterday.toISOString().slice(0, 10);
		expect(apiRequests(sandbox())[0].body).toMatchObject({
			period_from: `${day}T00:00:00+00:00`,
			period_to: `${day}T23:59:59+00:00`,
		});
	});

	test('every output item is paired to its input item', async () => {
		const { items } = await run(params({ returnAll: false, limit: 2 }), {
			input: [{ a: 1 }, { a: 2 }],
		});
		expect(items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 0 },
			{ item: 1 },
			{ item: 1 },
		]);
	});

	const recent = (hoursAgo: number) => new Date(Date.now() - hoursAgo * 3_600_000).toISOString();
	test.each([
		[
			'Period From after Period To',
			{ periodFrom: '2026-11-10T00:00:00Z', periodTo: '2026-11-01T00:00:00Z' },
			/^Period From: must not be after Period To/,
		],
		['an unparseable Period From', { periodFrom: 'last tuesday' }, /^Period From: must be a date/],
		['an impossible calendar date', { periodTo: '2026-02-30' }, /^Period To: must be a date/],
		[
			'a Period To expression that resolves to nothing',
			{ periodTo: '={{ "" }}' },
			/^Period To: is required/,
		],
		[
			'an hourly span over 2 days',
			{ periodGroupingUnit: 'hour', periodFrom: recent(24 * 3), periodTo: recent(1) },
			/^Period From: with the unit "hour" the period may span at most 2 days/,
		],
		[
			'5-minute data older than 5 days',
			{ periodGroupingUnit: '5_minutes', periodFrom: recent(24 * 6), periodTo: recent(24 * 5) },
			/^Period From: with the unit "5_minutes" data exists only for the last 5 days/,
		],
		[
			'30-minute data older than 5 days',
			{
				periodGroupingUnit: '30_minutes',
				periodFrom: recent(24 * 5 + 2),
				periodTo: recent(24 * 4),
			},
			/^Period From: with the unit "30_minutes" data exists only for the last 5 days/,
		],
		['Limit 0', { returnAll: false, limit: 0 }, /^Limit: must be a whole number of at least 1/],
		[
			'a fractional Limit',
			{ returnAll: false, limit: 2.5 },
			/^Limit: must be a whole number of at least 1/,
		],
		[
			'Page Size over 500',
			{ options: { pageSize: 501 } },
			/^Page Size: must be a whole number from 1 to 500/,
		],
		[
			'an unknown grouping value',
			{ grouping: ['country'] },
			/^Grouping: values must be from ad, ad_object, cabinet, campaign \(got "country"\)/,
		],
		[
			'an unknown unit',
			{ periodGroupingUnit: 'fortnight' },
			/^Period Grouping Unit: must be one of 5_minutes, 30_minutes, hour, day, week, month, year \(got "fortnight"\)/,
		],
		[
			'an unknown currency',
			{ currency: 'GBP' },
			/^Currency: must be one of EUR, TON, USD, RUB, USDT, STAR/,
		],
	])('refuses %s before any request', async (_name, extra, message) => {
		const { error, items } = await run(params(extra));
		expect(items).toHaveLength(0);
		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toMatch(message);
		expect(apiRequests(sandbox())).toHaveLength(0);
	});

	test('the Ad Objects dropdown lists the sandbox objects', async () => {
		const options = await loadOptions(
			'adCabinetStats',
			'getAdObjects',
			params(),
			credentialsFor(sandbox()),
		);
		expect(options.map((o) => o.value).sort()).toEqual([...sandbox().data.objects].sort());
	});

	test('the node is usable as an AI tool and composes every resource', () => {
		const description = nodeTypes().getByNameAndVersion(
			`${PACKAGE_NAME}.adCabinetStats`,
		).description;
		expect(description.usableAsTool).toBe(true);
		const resource = description.properties.find((p) => p.name === 'resource');
		expect(resource?.options?.map((o) => (o as { value: string }).value).sort()).toEqual([
			'advertisedObject',
			'legacyReport',
			'statistic',
		]);
	});
});
