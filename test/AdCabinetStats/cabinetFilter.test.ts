import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { runNode } from '../../harness';
import { apiRequests, credentialsFor } from '../../harness/sandbox';
import { useSandbox } from '../support/useSandbox';

const NOW = '2026-11-20T12:00:00.000Z';

function params(cabinetIds: unknown): INodeParameters {
	return {
		resource: 'statistic',
		operation: 'getAll',
		period: 'custom',
		periodFrom: '2026-11-01T00:00:00Z',
		periodTo: '2026-11-05T23:59:59Z',
		periodGroupingUnit: 'day',
		grouping: ['cabinet'],
		currency: 'EUR',
		returnAll: true,
		filters: { cabinetIds } as INodeParameters,
		options: { numericValues: false },
	};
}

/** The sandbox's own rows for the same query, filtered to these cabinets. */
function truthBody(platform_cabinet_ids?: string[]): IDataObject {
	return {
		period_from: '2026-11-01T00:00:00Z',
		period_to: '2026-11-05T23:59:59Z',
		period_grouping_unit: 'day',
		grouping: ['cabinet'],
		currency_code: 'EUR',
		order_by: 'period',
		...(platform_cabinet_ids ? { platform_cabinet_ids } : {}),
	};
}

/** A row without its row_key, which the versions with the typed Cabinet IDs do not add. */
const withoutKey = (row: IDataObject) =>
	Object.fromEntries(Object.entries(row).filter(([key]) => key !== 'row_key'));

describe('Stats → Statistic → Get Many: the cabinet filter', () => {
	const sandbox = useSandbox({ platform: 'telegram', now: NOW });
	const run = (parameters: INodeParameters, typeVersion: number) =>
		runNode({
			type: 'adCabinetStats',
			typeVersion,
			parameters,
			credentials: credentialsFor(sandbox()),
		});

	describe('version 1.2: cabinets chosen from the list', () => {
		test.each([
			['chosen from the list', ['ACC06163', 'ACC07355']],
			['a list from an expression', '={{ ["ACC06163", "ACC07355"] }}'],
			['IDs separated by commas from an expression', '={{ " ACC06163 ,ACC07355" }}'],
			['a JSON list as text (as an AI agent may write it)', '={{ \'["ACC06163","ACC07355"]\' }}'],
		])(
			'%s: the chosen cabinets are sent and only their rows come out',
			async (_name, cabinetIds) => {
				const { items, error } = await run(params(cabinetIds), 1.2);
				expect(error).toBeUndefined();
				const [request, ...more] = apiRequests(sandbox());
				expect(more).toHaveLength(0);
				expect(request.path).toBe('/api/v1/stats/page');
				expect((request.body as IDataObject).platform_cabinet_ids).toEqual([
					'ACC06163',
					'ACC07355',
				]);
				const expected = sandbox().data.statsRows(truthBody(['ACC06163', 'ACC07355']));
				expect(expected.length).toBeGreaterThan(0);
				expect(items.map((item) => withoutKey(item.json))).toEqual(expected);
				expect(new Set(items.map((item) => item.json.platform_cabinet_id))).toEqual(
					new Set(['ACC06163', 'ACC07355']),
				);
			},
		);

		test('nothing chosen sends no cabinet filter: every cabinet the token sees', async () => {
			const { items, error } = await run(params([]), 1.2);
			expect(error).toBeUndefined();
			expect(apiRequests(sandbox())[0].body).not.toHaveProperty('platform_cabinet_ids');
			expect(items.map((item) => withoutKey(item.json))).toEqual(
				sandbox().data.statsRows(truthBody()),
			);
		});

		test.each([
			[
				'a cabinet name',
				'={{ ["ACC06163", "Tashkent Digital"] }}',
				/^Cabinet Names or IDs: each must be a cabinet ID such as ACC0000, made of letters, digits, "-" and "_"; a cabinet name is not an ID, and "Ad Cabinet Ads" → Cabinet → Get Many lists each cabinet's ID as account_id \(got "Tashkent Digital"\)\. Nothing was sent to the API\.$/,
			],
			[
				'IDs joined by semicolons',
				'={{ "ACC06163;ACC07355" }}',
				/^Cabinet Names or IDs: each must be a cabinet ID .*\(got "ACC06163;ACC07355"\)\. Nothing was sent/,
			],
			[
				'a cabinet 0',
				'={{ "ACC06163, 0" }}',
				/^Cabinet Names or IDs: each must be the ID of a cabinet, such as ACC0000; 0 is no cabinet \(got "0"\)\. Nothing was sent/,
			],
			[
				'an object',
				'={{ { id: "ACC06163" } }}',
				/^Cabinet Names or IDs: must be cabinet IDs such as ACC0000: chosen from the list, or from an expression as a list or separated by commas \(got \{"id":"ACC06163"\}\)\. Nothing was sent/,
			],
		])(
			'%s is refused before anything is sent, naming the field',
			async (_name, cabinetIds, message) => {
				const { items, error } = await run(params(cabinetIds), 1.2);
				expect(items).toHaveLength(0);
				expect(error?.name).toBe('NodeOperationError');
				expect(error?.message).toMatch(message);
				expect(apiRequests(sandbox())).toHaveLength(0);
			},
		);

		test('each item is checked on its own: with Continue On Fail, a bad item fails and the good one runs', async () => {
			const { items } = await runNode({
				type: 'adCabinetStats',
				typeVersion: 1.2,
				parameters: params('={{ $json.cabinets }}'),
				credentials: credentialsFor(sandbox()),
				input: [{ cabinets: 'Berlin Growth GmbH' }, { cabinets: ['ACC07021'] }],
				continueOnFail: true,
			});
			expect(items[0].json.error).toMatch(
				/^Cabinet Names or IDs: each must be a cabinet ID .*\(got "Berlin Growth GmbH"\)/,
			);
			expect(items.slice(1).every((item) => item.json.platform_cabinet_id === 'ACC07021')).toBe(
				true,
			);
			expect(
				apiRequests(sandbox()).map((r) => (r.body as IDataObject).platform_cabinet_ids),
			).toEqual([['ACC07021']]);
		});
	});

	describe('versions 1 and 1.1 keep the typed Cabinet IDs', () => {
		test.each([1, 1.1])(
			'version %s sends the typed text split at commas, as before',
			async (typeVersion) => {
				const { items, error } = await run(params(' ACC06163, ACC07355 ,'), typeVersion);
				expect(error).toBeUndefined();
				expect((apiRequests(sandbox())[0].body as IDataObject).platform_cabinet_ids).toEqual([
					'ACC06163',
					'ACC07355',
				]);
				expect(items.map((item) => item.json)).toEqual(
					sandbox().data.statsRows(truthBody(['ACC06163', 'ACC07355'])),
				);
			},
		);

		test.each([1, 1.1])(
			'version %s sends what version 1.2 refuses exactly as written, as it always did',
			async (typeVersion) => {
				const { error } = await run(params('Tashkent Digital, 0'), typeVersion);
				expect(error).toBeUndefined();
				expect((apiRequests(sandbox())[0].body as IDataObject).platform_cabinet_ids).toEqual([
					'Tashkent Digital',
					'0',
				]);
			},
		);

		test('version 1.1 with typed IDs and version 1.2 with the same cabinets chosen send the same request and rows', async () => {
			const typed = await run(params('ACC07021,ACC07355'), 1.1);
			const chosen = await run(params(['ACC07021', 'ACC07355']), 1.2);
			const [first, second] = apiRequests(sandbox());
			expect(second.body).toEqual(first.body);
			expect(chosen.items.map((item) => withoutKey(item.json))).toEqual(
				typed.items.map((item) => item.json),
			);
		});
	});
});
