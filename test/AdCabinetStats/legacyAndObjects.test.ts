import type { INodeParameters } from 'n8n-workflow';
import { nodeTypes, PACKAGE_NAME, runNode } from '../../harness';
import { apiRequests, credentialsFor } from '../../harness/sandbox';
import { useSandbox } from '../support/useSandbox';

describe('Ad Cabinet Stats → Legacy Report and Advertised Objects', () => {
	const sandbox = useSandbox({ now: '2026-11-20T12:00:00Z' });
	const run = (parameters: INodeParameters, timezone?: string) =>
		runNode({
			type: 'adCabinetStats',
			parameters,
			credentials: credentialsFor(sandbox()),
			timezone,
		});
	const legacy = (extra: INodeParameters = {}): INodeParameters => ({
		resource: 'legacyReport',
		operation: 'get',
		dateFrom: '2026-11-01',
		dateTo: '2026-11-07',
		groupTime: 'day',
		groupings: ['date', 'account'],
		filters: {},
		...extra,
	});

	test('Legacy Report sends the legacy body with its fixed fields and returns one item per result', async () => {
		const { items, error } = await run(legacy({ filters: { campaignIds: '101, 102' } }));
		expect(error).toBeUndefined();
		const [request] = apiRequests(sandbox());
		expect(request.path).toBe('/api/report/tgview');
		expect(request.body).toEqual({
			// The real service takes date-times: each day's first and last second, in the workflow's time zone.
			date: { date_from: '2026-11-01T00:00:00+00:00', date_to: '2026-11-07T23:59:59+00:00' },
			platform: [10],
			partner: [2],
			campaign: [101, 102],
			group_time: 1,
			groupings: [
				{ name: 'date', type: 1 },
				{ name: 'account', type: 1 },
			],
			object: [],
			sub_client: [],
			type_cab: null,
			currency: 'RUB',
			account_uids: [],
		});
		const expected = (await (
			await fetch(`${sandbox().baseUrl}/api/report/tgview`, {
				method: 'POST',
				headers: { Authorization: `Bearer ${sandbox().token}`, 'Content-Type': 'application/json' },
				body: JSON.stringify(request.body),
			})
		).json()) as { results: unknown[] };
		expect(items.map((item) => item.json)).toEqual(expected.results);
	});

	test("Legacy Report dates carry the offset of the workflow's time zone and keep its days", async () => {
		const { items, error } = await run(
			legacy({ dateFrom: '2026-03-01', dateTo: '2026-03-29T18:30:00' }),
			'Europe/Berlin',
		);
		expect(error).toBeUndefined();
		// Berlin moves to summer time on 29 March: the last day ends at +02:00.
		expect(apiRequests(sandbox())[0].body).toMatchObject({
			date: { date_from: '2026-03-01T00:00:00+01:00', date_to: '2026-03-29T23:59:59+02:00' },
		});
		const days = [...new Set(items.map((item) => item.json.date))].sort();
		expect([days[0], days.at(-1), days.length]).toEqual(['2026-03-01', '2026-03-29', 29]);
	});

	test('month grouping sends group_time 2 and the date grouping carries it', async () => {
		await run(legacy({ groupTime: 'month', groupings: ['date'] }));
		expect(apiRequests(sandbox())[0].body).toMatchObject({
			group_time: 2,
			groupings: [{ name: 'date', type: 2 }],
		});
	});

	test('refuses Date From after Date To and bad campaign ids before any request', async () => {
		const reversed = await run(legacy({ dateFrom: '2026-11-08', dateTo: '2026-11-01' }));
		expect(reversed.error?.message).toMatch(/^Date From: must not be after Date To/);
		const badCampaign = await run(legacy({ filters: { campaignIds: '12, abc' } }));
		expect(badCampaign.error?.message).toMatch(/^Campaign IDs: must be whole numbers/);
		expect(apiRequests(sandbox())).toHaveLength(0);
	});

	test('the node shows the deprecation notice and explains the API error after 28.02.2026 in the same words', async () => {
		const description = nodeTypes().getByNameAndVersion(
			`${PACKAGE_NAME}.adCabinetStats`,
		).description;
		const notice = description.properties.find(
			(p) => p.type === 'notice' && p.name === 'legacyNotice',
		);
		expect(notice?.displayName).toContain(
			'deprecated: the API switched it off on 28 February 2026',
		);
		expect(notice?.displayName).toContain('Statistic → Get Many');
		sandbox().data.legacyReportDisabled = true;
		try {
			const { error } = await run(legacy());
			expect(error?.httpCode).toBe('410');
			// today is after 28.02.2026, so the node's notice explains the failure
			expect(error?.message).toContain(notice?.displayName);
		} finally {
			sandbox().data.legacyReportDisabled = false;
		}
	});

	test('Advertised Objects → Get Many with a Limit returns that many objects', async () => {
		const { items } = await run({
			resource: 'advertisedObject',
			operation: 'getAll',
			returnAll: false,
			limit: 2,
		});
		expect(items.map((item) => item.json)).toEqual(
			sandbox()
				.data.objects.slice(0, 2)
				.map((object) => ({ object })),
		);
	});
});

describe("Ad Cabinet Stats → Legacy Report in the spec's form (credential platform ext)", () => {
	const sandbox = useSandbox({ platform: 'ext', now: '2026-11-20T12:00:00Z' });

	test('sends the days as dates to the ext path, as before', async () => {
		const { items, error } = await runNode({
			type: 'adCabinetStats',
			parameters: {
				resource: 'legacyReport',
				operation: 'get',
				dateFrom: '2026-11-01',
				dateTo: '2026-11-07',
				groupTime: 'day',
				groupings: ['date'],
				filters: {},
			},
			credentials: credentialsFor(sandbox()),
			timezone: 'Asia/Tashkent',
		});
		expect(error).toBeUndefined();
		const [request] = apiRequests(sandbox());
		expect([request.path, (request.body as { date: unknown }).date]).toEqual([
			'/api/report/extview',
			{ date_from: '2026-11-01', date_to: '2026-11-07' },
		]);
		expect(items.map((item) => item.json.date)).toEqual([
			'2026-11-01',
			'2026-11-02',
			'2026-11-03',
			'2026-11-04',
			'2026-11-05',
			'2026-11-06',
			'2026-11-07',
		]);
	});
});
