import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { runNode } from '../../harness';
import { credentialsFor } from '../../harness/sandbox';
import { useSandbox } from '../support/useSandbox';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/**
 * The sandbox's clock, on the hour. The node checks the fine units' 5 days of history against the
 * real clock, so every period is placed relative to it.
 */
const NOW_MS = Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
const NOW = new Date(NOW_MS).toISOString();
/** The UTC day `offset` days from today, as YYYY-MM-DD. */
const day = (offset: number) =>
	new Date(Math.floor(NOW_MS / DAY_MS) * DAY_MS + offset * DAY_MS).toISOString().slice(0, 10);
/** Yesterday: whole, and within the fine units' history. */
const RESTATED_DAY = day(-1);
const restatedDate = new Date(`${RESTATED_DAY}T00:00:00Z`);
/** The Monday of the week 17 days back, the first of the month 2 months back, the 1st of January last year. */
const weekStart = day(-17 - ((new Date(`${day(-17)}T00:00:00Z`).getUTCDay() + 6) % 7));
const monthStart = new Date(
	Date.UTC(restatedDate.getUTCFullYear(), restatedDate.getUTCMonth() - 2, 1),
)
	.toISOString()
	.slice(0, 10);
const yearStart = `${restatedDate.getUTCFullYear() - 1}-01-01`;
const END = `${RESTATED_DAY}T23:59:59Z`;

/** A period of each unit holding several of its periods and the restated day (one cabinet's rows). */
const PERIODS: Record<string, [string, string]> = {
	'5_minutes': [`${RESTATED_DAY}T11:00:00Z`, `${RESTATED_DAY}T11:19:59Z`],
	'30_minutes': [`${RESTATED_DAY}T10:00:00Z`, `${RESTATED_DAY}T11:29:59Z`],
	hour: [`${RESTATED_DAY}T09:00:00Z`, `${RESTATED_DAY}T11:59:59Z`],
	day: [`${day(-3)}T00:00:00Z`, END],
	week: [`${weekStart}T00:00:00Z`, END],
	month: [`${monthStart}T00:00:00Z`, END],
	year: [`${yearStart}T00:00:00Z`, END],
};
// The spec's form, whose cabinet ids are numbers.
const CABINET = '100001';

const GROUPINGS = ['ad', 'ad_object', 'cabinet', 'campaign'];
/** Every combination of groupings, none included. */
const COMBINATIONS = Array.from({ length: 1 << GROUPINGS.length }, (_, mask) =>
	GROUPINGS.filter((_, bit) => mask & (1 << bit)),
);

/** What a row is about, read from its own fields: the identity a key must follow. */
function identity(row: IDataObject): string {
	return JSON.stringify([
		Date.parse(String(row.period_date)),
		row.ad_id ?? null,
		row.ad_object ?? null,
		row.platform_cabinet_id ?? null,
		row.campaign_id ?? null,
	]);
}

function params(
	unit: string,
	grouping: string[],
	options: INodeParameters,
	extra: INodeParameters = {},
): INodeParameters {
	const [periodFrom, periodTo] = PERIODS[unit];
	return {
		resource: 'statistic',
		operation: 'getAll',
		period: 'custom',
		periodFrom,
		periodTo,
		periodGroupingUnit: unit,
		grouping,
		currency: 'USD',
		returnAll: true,
		filters: { cabinetIds: CABINET },
		options,
		...extra,
	};
}

describe('row_key on every statistics row (Stats 1.2)', () => {
	const sandbox = useSandbox({ platform: 'ext', now: NOW });
	const run = async (parameters: INodeParameters, typeVersion = 1.2) => {
		const { items, error } = await runNode({
			type: 'adCabinetStats',
			typeVersion,
			parameters,
			credentials: credentialsFor(sandbox()),
		});
		expect(error).toBeUndefined();
		return items.map((item) => item.json);
	};
	const restate = () => {
		for (const campaign of sandbox().data.campaigns.filter((c) => c.account_id === CABINET)) {
			sandbox().data.forceRestatement({ day: RESTATED_DAY, campaign_id: campaign.id });
		}
	};

	test.each(Object.keys(PERIODS))(
		'%s: unique within a result and the same in the next run, after a restatement, with Numeric Values on and off, for every grouping',
		async (unit) => {
			let restatedRows = 0;
			for (const grouping of COMBINATIONS) {
				const label = `${unit} by [${grouping.join(', ')}]`;
				const first = await run(params(unit, grouping, { numericValues: true }));
				// The next run: exact strings, other paging.
				const second = await run(
					params(unit, grouping, { numericValues: false, pageSize: 200, parallelRequests: 1 }),
				);
				restate();
				const restated = await run(params(unit, grouping, { numericValues: true }));
				expect(first.length).toBeGreaterThan(0);
				for (const rows of [first, second, restated]) {
					for (const row of rows) expect(typeof row.row_key).toBe('string');
					expect([label, new Set(rows.map((row) => row.row_key)).size]).toEqual([
						label,
						rows.length,
					]);
				}
				expect([label, second.map((row) => row.row_key)]).toEqual([
					label,
					first.map((row) => row.row_key),
				]);
				// After the restatement the same row (by what it is about) keeps its key. A row whose
				// few views were scaled to none, or the other way round, may leave or join.
				const keyOf = new Map(first.map((row) => [identity(row), row.row_key]));
				const both = restated.filter((row) => keyOf.has(identity(row)));
				expect(both.length).toBeGreaterThanOrEqual(first.length * 0.99);
				for (const row of both)
					expect([label, row.row_key]).toEqual([label, keyOf.get(identity(row))]);
				const spentOf = new Map(first.map((row) => [row.row_key, row.exchanged_spent]));
				restatedRows += both.filter(
					(row) => spentOf.get(row.row_key) !== row.exchanged_spent,
				).length;
			}
			// The restatements did change figures under unchanged keys.
			expect(restatedRows).toBeGreaterThan(0);
		},
		120_000,
	);

	test('Simplify keeps row_key; version 1.1 and 1 nodes keep their rows without it', async () => {
		const simple = await run(params('day', ['campaign'], {}, { simplify: true }));
		// A day of the period, the unit, the currency and the campaign.
		const days = [day(-3), day(-2), day(-1)].join('|');
		expect(simple[0].row_key).toMatch(new RegExp(`^(${days})\\|d\\|USD\\|c\\d+$`));
		expect(Object.keys(simple[0]).pop()).toBe('row_key');
		for (const version of [1, 1.1]) {
			const rows = await run(params('day', ['campaign'], {}), version);
			expect(rows.length).toBeGreaterThan(0);
			expect(rows.some((row) => 'row_key' in row)).toBe(false);
		}
	});
});
