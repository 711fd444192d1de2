import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { pollOnce, runNode } from '../../harness';
import { apiRequests, credentialsFor } from '../../harness/sandbox';
import { useSandbox } from '../support/useSandbox';
import { sharedClock } from '../support/triggerClock';
import type { FaultKind } from '../../sandbox';
import { minimalCreate } from '../support/adFixtures';
import { harnessN8nVersion, machine, writeEvidence } from '../../scripts/lib/evidence';

/**
 * Fault injection through the harness. `npm test` runs reduced sizes; `npm run test:soak`
 * (SOAK=1, run by CI) runs the full ones: 100,000 statistics rows and 1,000 trigger polls.
 */
const SOAK = process.env.SOAK === '1';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ALL_FAULTS: FaultKind[] = ['429', '500', '502', '503', '504', 'reset', 'stall', 'truncated'];
const NOW = '2026-11-20T12:00:00Z';

/** The soak's goals; each test that meets one records its figure, and the soak writes its report. */
const SOAK_GOALS = {
	stats:
		'Return All of 100,000+ statistics rows with 10% mixed faults returns exactly the fault-free rows',
	ads: 'the ad list under 10% mixed faults gives exactly the fault-free ads, every run',
	trigger: '1,000 trigger polls over 3 simulated days at 10% faults lose no row and repeat none',
};
const soakFigures = new Map<keyof typeof SOAK_GOALS, string>();
const soakStarted = Date.now();
afterAll(() => {
	if (!SOAK) return;
	writeEvidence({
		name: 'soak',
		title: 'Soak: faults at full size',
		command: 'npm run test:soak',
		date: new Date().toISOString(),
		machine: machine(),
		n8n: harnessN8nVersion(),
		seconds: Math.round((Date.now() - soakStarted) / 1000),
		goals: Object.entries(SOAK_GOALS).map(([key, goal]) => {
			const figure = soakFigures.get(key as keyof typeof SOAK_GOALS);
			return {
				goal,
				figure: figure ?? 'failed (see the test output)',
				result: figure ? 'pass' : 'miss',
			};
		}),
		figures: [],
	});
});

describe('faults: reads come back whole, writes are never repeated', () => {
	const sandbox = useSandbox({ now: NOW });
	const clock = sharedClock(sandbox);
	afterEach(() => clock.stop());

	test(`Return All of ${SOAK ? '100,000' : '10,000'}+ statistics rows with 10% mixed faults returns exactly the fault-free rows`, async () => {
		const days = SOAK ? 118 : 12;
		const from = new Date(Date.parse(NOW) - days * DAY).toISOString().slice(0, 10);
		const parameters: INodeParameters = {
			resource: 'statistic',
			operation: 'getAll',
			period: 'custom',
			periodFrom: `${from}T00:00:00Z`,
			periodTo: '2026-11-19T23:59:59Z',
			periodGroupingUnit: 'day',
			grouping: ['ad'],
			currency: 'EUR',
			returnAll: true,
			filters: {},
			options: { numericValues: false, pageSize: SOAK ? 500 : 100 },
			requestOptions: { timeout: 1000 },
		};
		const truth = sandbox().data.statsRows({
			period_from: parameters.periodFrom,
			period_to: parameters.periodTo,
			period_grouping_unit: 'day',
			grouping: ['ad'],
			currency_code: 'EUR',
			order_by: 'period',
		});
		expect(truth.length).toBeGreaterThan(SOAK ? 100_000 : 10_000);
		sandbox().faults.set({
			rate: 0.1,
			kinds: ALL_FAULTS,
			seed: 7,
			stallMs: 2500,
			retryAfterSeconds: 0,
		});
		const { items, error } = await runNode({
			type: 'adCabinetStats',
			parameters,
			credentials: credentialsFor(sandbox()),
		});
		expect(error).toBeUndefined();
		const injected = Object.values(sandbox().faults.injected).reduce((a, b) => a + b, 0);
		expect(injected).toBeGreaterThanOrEqual(SOAK ? 10 : 5);
		expect(items.length).toBe(truth.length);
		expect(items.map((item) => item.json)).toEqual(truth);
		// Fetched in parallel (Requests at Once at its default): the period went out as several queries.
		const queries = apiRequests(sandbox()).filter(
			(request) => (request.body as IDataObject).period_from !== undefined && !request.fault,
		);
		expect(queries.length).toBeGreaterThan(2);
		const figure = `${truth.length} rows compared, ${queries.length} queries at once, ${injected} faults injected ${JSON.stringify(sandbox().faults.injected)}`;
		console.log(`stats under faults: ${figure}`);
		soakFigures.set('stats', figure);
	});

	test('the ad list (Return All by offset pages) under 10% mixed faults gives exactly the fault-free ads, every time', async () => {
		const parameters: INodeParameters = {
			resource: 'ad',
			operation: 'getAll',
			returnAll: true,
			filters: { showDeleted: true },
			requestOptions: { timeout: 1000 },
		};
		const clean = await runNode({
			type: 'adCabinetAds',
			parameters,
			credentials: credentialsFor(sandbox()),
		});
		expect(clean.items.length).toBeGreaterThan(1000);
		sandbox().faults.set({
			rate: 0.1,
			kinds: ALL_FAULTS,
			seed: 5,
			stallMs: 2500,
			retryAfterSeconds: 0,
		});
		const runs = SOAK ? 30 : 8;
		for (let run = 0; run < runs; run++) {
			const { items, error } = await runNode({
				type: 'adCabinetAds',
				parameters,
				credentials: credentialsFor(sandbox()),
			});
			expect(error).toBeUndefined();
			expect(items.map((item) => item.json)).toEqual(clean.items.map((item) => item.json));
		}
		const injected = Object.values(sandbox().faults.injected).reduce((a, b) => a + b, 0);
		expect(injected).toBeGreaterThan(0);
		const figure = `${runs} runs of ${clean.items.length} ads compared, ${injected} faults injected ${JSON.stringify(sandbox().faults.injected)}`;
		console.log(`ad list under faults: ${figure}`);
		soakFigures.set('ads', figure);
	});

	test('a permanent fault fails with a NodeApiError naming the status and what to do', async () => {
		sandbox().faults.set({ rate: 1, kinds: ['503'], retryAfterSeconds: 0 });
		const { error } = await runNode({
			type: 'adCabinetStats',
			parameters: { resource: 'advertisedObject', operation: 'getAll', returnAll: true },
			credentials: credentialsFor(sandbox()),
		});
		expect(error?.name).toBe('NodeApiError');
		expect(error?.httpCode).toBe('503');
		expect(error?.message).toMatch(/^The Ad Cabinet API failed with 503/);
		expect(error?.message).toContain('temporarily unavailable: try again later.');
		expect(error?.message).toContain(
			'It failed 5 times; it only reads data, so running it again later is safe.',
		);
	});

	test(`trigger: ${SOAK ? '1,000' : '150'} polls over 3 simulated days at 10% faults lose no row and repeat none`, async () => {
		const polls = SOAK ? 1000 : 150;
		const start = Date.parse('2026-11-17T09:10:00Z');
		const step = Math.floor((3 * DAY) / polls);
		clock.start(start);
		const parameters: INodeParameters = {
			periodGroupingUnit: 'hour',
			grouping: ['campaign'],
			emit: 'completed',
			startFrom: 'now',
			currency: 'EUR',
			numericValues: false,
			filters: {},
			options: {},
		};
		let staticData: IDataObject = {};
		const emitted: IDataObject[] = [];
		let failedPolls = 0;
		sandbox().faults.set({
			rate: 0.1,
			kinds: ALL_FAULTS,
			seed: 11,
			stallMs: 300,
			retryAfterSeconds: 0,
		});
		let end = start;
		for (let n = 0; n < polls; n++) {
			end = start + n * step;
			clock.set(end);
			const result = await pollOnce({
				type: 'adCabinetStatsTrigger',
				parameters,
				credentials: credentialsFor(sandbox()),
				staticData,
			});
			if (result.error) failedPolls++;
			for (const item of result.items ?? []) emitted.push(item.json);
			staticData = JSON.parse(JSON.stringify(result.staticData)) as IDataObject;
		}
		sandbox().faults.clear();
		// A last clean poll at the same instant catches up whatever a failed poll left.
		const last = await pollOnce({
			type: 'adCabinetStatsTrigger',
			parameters,
			credentials: credentialsFor(sandbox()),
			staticData,
		});
		for (const item of last.items ?? []) emitted.push(item.json);
		const settledUntil = Math.floor((end - 15 * 60_000) / HOUR) * HOUR;
		const truth: IDataObject[] = [];
		for (let from = Date.parse('2026-11-17T08:00:00Z'); from < settledUntil; from += 2 * DAY) {
			const to = Math.min(settledUntil, from + 2 * DAY);
			const rows = sandbox().data.statsRows({
				period_from: new Date(from).toISOString(),
				period_to: new Date(to - 1000).toISOString(),
				period_grouping_unit: 'hour',
				grouping: ['campaign'],
				currency_code: 'EUR',
				order_by: 'period',
			}) as IDataObject[];
			truth.push(...rows.filter((row) => Date.parse(String(row.period_date)) < to));
		}
		const key = (row: IDataObject) => `${String(row.period_date)}|${String(row.campaign_id)}`;
		const seen = new Map<string, number>();
		for (const row of emitted) seen.set(key(row), (seen.get(key(row)) ?? 0) + 1);
		const duplicates = [...seen.values()].filter((count) => count > 1).length;
		const lost = truth.filter((row) => !seen.has(key(row))).length;
		const figure = `${polls} polls, ${failedPolls} failed, ${truth.length} rows expected, ${emitted.length} emitted, ${lost} lost, ${duplicates} duplicated, faults ${JSON.stringify(sandbox().faults.injected)}`;
		console.log(`trigger under faults: ${figure}`);
		expect({ lost, duplicates }).toEqual({ lost: 0, duplicates: 0 });
		expect(emitted).toEqual(truth);
		soakFigures.set('trigger', figure);
	});

	const PNG = Buffer.from(
		'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
		'base64',
	);
	const numbers = Array.from({ length: 1000 }, (_v, i) => ({
		phone: `99890${String(1_000_000 + i).slice(-7)}`,
	}));
	const writes: Array<{
		name: string;
		type: string;
		parameters: INodeParameters;
		input?: Array<IDataObject | INodeExecutionData>;
	}> = [
		{
			name: 'media upload',
			type: 'adCabinetMedia',
			parameters: {
				resource: 'media',
				operation: 'upload',
				accountId: 'ACC06163',
				binaryPropertyName: 'data',
			},
			input: [
				{
					json: {},
					binary: {
						data: { data: PNG.toString('base64'), mimeType: 'image/png', fileName: 'a.png' },
					},
				},
			],
		},
		{
			name: 'audience create',
			type: 'adCabinetAudiences',
			parameters: {
				resource: 'audience',
				operation: 'create',
				accountId: 'ACC06163',
				title: 'T',
				source: 'items',
				phoneField: 'phone',
				hashNumbers: true,
			},
			input: numbers,
		},
		{
			name: 'pixel event create',
			type: 'adCabinetPixelEvents',
			parameters: {
				resource: 'pixelEvent',
				operation: 'create',
				accountId: 'ACC07021',
				title: 'Lead',
				type: 'custom',
			},
		},
		{
			name: 'pixel event rename',
			type: 'adCabinetPixelEvents',
			parameters: {
				resource: 'pixelEvent',
				operation: 'rename',
				accountId: 'ACC07021',
				eventId: { __rl: true, mode: 'id', value: '31005' },
				newTitle: 'Renamed',
			},
		},
		{ name: 'ad create', type: 'adCabinetAds', parameters: minimalCreate() },
		{
			name: 'ad update',
			type: 'adCabinetAds',
			parameters: {
				resource: 'ad',
				operation: 'update',
				adId: { __rl: true, mode: 'id', value: '10001' },
				updateFields: { title: 'Renamed' },
			},
		},
		{
			name: 'pixel event delete',
			type: 'adCabinetPixelEvents',
			parameters: {
				resource: 'pixelEvent',
				operation: 'delete',
				accountId: 'ACC07021',
				eventId: { __rl: true, mode: 'id', value: '31006' },
			},
		},
	];

	test.each(
		writes.flatMap((w) =>
			(['503', 'reset'] as FaultKind[]).map((kind) => [w.name, kind, w] as const),
		),
	)(
		'%s after a %s is not retried, and the error says it may have taken effect',
		async (_name, kind, write) => {
			sandbox().faults.onNth(1, kind);
			const { error } = await runNode({
				type: write.type,
				parameters: write.parameters,
				credentials: credentialsFor(sandbox()),
				input: write.input,
			});
			expect(apiRequests(sandbox())).toHaveLength(1);
			expect(error?.name).toBe('NodeApiError');
			expect(error?.message).toContain(
				'This write was not retried and may have taken effect: check the record before sending it again.',
			);
		},
	);

	test.each(writes.map((w) => [w.name, w] as const))(
		'%s after a 429 is sent again (the API did not perform it) and succeeds',
		async (_name, write) => {
			sandbox().faults.onNth(1, '429');
			const { error, items } = await runNode({
				type: write.type,
				parameters: write.parameters,
				credentials: credentialsFor(sandbox()),
				input: write.input,
			});
			expect(error).toBeUndefined();
			expect(items.length).toBeGreaterThan(0);
			const sent = apiRequests(sandbox());
			expect(sent).toHaveLength(2);
			expect(sent[0].fault).toBe('429');
			expect(sent[1].fault).toBeUndefined();
			expect(sent[1].path).toBe(sent[0].path);
		},
	);

	test('a write that keeps getting 429 gives up after 5 attempts and says sending it again later is safe', async () => {
		sandbox().faults.set({ rate: 1, kinds: ['429'], retryAfterSeconds: 0 });
		const write = writes.find((w) => w.name === 'pixel event create');
		const { error } = await runNode({
			type: 'adCabinetPixelEvents',
			parameters: write?.parameters ?? {},
			credentials: credentialsFor(sandbox()),
		});
		expect(apiRequests(sandbox())).toHaveLength(5);
		expect(error?.message).toContain(
			'The API did not process it, so sending it again later is safe.',
		);
	});
});
