import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { pollOnce } from '../../harness';
import { apiRequests, credentialsFor } from '../../harness/sandbox';
import { useSandbox } from '../support/useSandbox';
import { sharedClock } from '../support/triggerClock';

const START = '2026-11-17T09:00:00Z';

function params(cabinetIds: unknown): INodeParameters {
	return {
		periodGroupingUnit: 'day',
		grouping: ['cabinet'],
		emit: 'completed',
		startFrom: 'date',
		startDate: '2026-11-12T00:00:00Z',
		currency: 'EUR',
		numericValues: false,
		filters: { cabinetIds } as INodeParameters,
		options: {},
	};
}

/** A row without its row_key, which the versions with the typed Cabinet IDs do not add. */
const withoutKey = (row: IDataObject) =>
	Object.fromEntries(Object.entries(row).filter(([key]) => key !== 'row_key'));

describe('Stats Trigger: the cabinet filter', () => {
	const sandbox = useSandbox({ platform: 'telegram', now: START });
	const clock = sharedClock(sandbox);
	beforeEach(() => clock.start(START));
	afterEach(() => clock.stop());

	const poll = (parameters: INodeParameters, typeVersion: number) =>
		pollOnce({
			type: 'adCabinetStatsTrigger',
			typeVersion,
			parameters,
			credentials: credentialsFor(sandbox()),
			staticData: {},
		});

	/** The settled days of the backfill, from the sandbox itself. */
	const truth = (platform_cabinet_ids: string[]) =>
		sandbox()
			.data.statsRows({
				period_from: '2026-11-12T00:00:00Z',
				period_to: '2026-11-16T23:59:59Z',
				period_grouping_unit: 'day',
				grouping: ['cabinet'],
				currency_code: 'EUR',
				order_by: 'period',
				platform_cabinet_ids,
			})
			.filter((row) => Date.parse(String(row.period_date)) < Date.parse('2026-11-17T00:00:00Z'));

	const cabinetsSent = () =>
		apiRequests(sandbox())
			.map((request) => request.body as IDataObject)
			.filter((body) => body.period_from !== undefined)
			.map((body) => body.platform_cabinet_ids);

	describe('version 1.1: cabinets chosen from the list', () => {
		test.each([
			['chosen from the list', ['ACC07021', 'ACC07355']],
			['a list from an expression', '={{ ["ACC07021", "ACC07355"] }}'],
			['IDs separated by commas from an expression', '={{ "ACC07021, ACC07355" }}'],
		])(
			'%s: every query carries the chosen cabinets and only their rows are emitted',
			async (_name, cabinetIds) => {
				const { items, error } = await poll(params(cabinetIds), 1.1);
				expect(error).toBeUndefined();
				const sent = cabinetsSent();
				expect(sent.length).toBeGreaterThan(0);
				for (const ids of sent) expect(ids).toEqual(['ACC07021', 'ACC07355']);
				const expected = truth(['ACC07021', 'ACC07355']);
				expect(expected.length).toBeGreaterThan(0);
				expect(items?.map((item) => withoutKey(item.json))).toEqual(expected);
			},
		);

		test.each([
			[
				'a cabinet name',
				'={{ "Tashkent Digital" }}',
				/^Cabinet Names or IDs: each must be a cabinet ID such as ACC0000, .*\(got "Tashkent Digital"\)\. Nothing was sent to the API\.$/,
			],
			[
				'a cabinet 0 in the list',
				'={{ ["ACC07021", 0] }}',
				/^Cabinet Names or IDs: each must be the ID of a cabinet, such as ACC0000; 0 is no cabinet \(got 0\)\. Nothing was sent/,
			],
		])(
			'%s is refused before anything is sent, and the state is left alone',
			async (_name, cabinetIds, message) => {
				const { items, error, staticData } = await poll(params(cabinetIds), 1.1);
				expect(items).toBeNull();
				expect(error?.name).toBe('NodeOperationError');
				expect(error?.message).toMatch(message);
				expect(apiRequests(sandbox())).toHaveLength(0);
				expect(staticData).toEqual({});
			},
		);

		test('Fetch Test Event checks the cabinets too', async () => {
			const { error } = await pollOnce({
				type: 'adCabinetStatsTrigger',
				typeVersion: 1.1,
				parameters: params('={{ "Berlin Growth GmbH" }}'),
				credentials: credentialsFor(sandbox()),
				staticData: {},
				mode: 'manual',
			});
			expect(error?.message).toMatch(
				/^Cabinet Names or IDs: each must be a cabinet ID .*\(got "Berlin Growth GmbH"\)/,
			);
			expect(apiRequests(sandbox())).toHaveLength(0);
		});
	});

	describe('version 1 keeps the typed Cabinet IDs', () => {
		test('the typed text is sent split at commas, as before, and the same rows come out as version 1.1 chosen alike', async () => {
			const typed = await poll(params('ACC07021 , ACC07355'), 1);
			expect(typed.error).toBeUndefined();
			const typedSent = cabinetsSent();
			for (const ids of typedSent) expect(ids).toEqual(['ACC07021', 'ACC07355']);
			expect(typed.items?.map((item) => item.json)).toEqual(truth(['ACC07021', 'ACC07355']));
			sandbox().clearLog();
			const chosen = await poll(params(['ACC07021', 'ACC07355']), 1.1);
			expect(cabinetsSent()).toEqual(typedSent);
			expect(chosen.items?.map((item) => withoutKey(item.json))).toEqual(
				typed.items?.map((item) => item.json),
			);
		});

		test('what version 1.1 refuses is sent as written, as it always was', async () => {
			const { error } = await poll(params('Tashkent Digital'), 1);
			expect(error).toBeUndefined();
			const sent = cabinetsSent();
			expect(sent.length).toBeGreaterThan(0);
			for (const ids of sent) expect(ids).toEqual(['Tashkent Digital']);
		});
	});
});
