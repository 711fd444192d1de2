import { Sandbox, type SandboxOptions } from '../../sandbox';
import { rawFetch, TEST_NOW } from '../support/sandboxClient';

const DAY_MS = 86_400_000;
const START = '2026-03-10T00:00:00Z';

type Row = Record<string, unknown> & { period_date: string; campaign_id?: number; ad_id?: number };

function start(options: SandboxOptions): Promise<Sandbox> {
	return Sandbox.start({ now: START, adCount: 150, rateLimit: 'off', ...options });
}

function control(sandbox: Sandbox, method: string, path: string, json?: unknown) {
	return rawFetch(`http://127.0.0.1:${sandbox.port}/__sandbox/${path}`, {
		method,
		headers: json === undefined ? {} : { 'content-type': 'application/json' },
		body: json === undefined ? undefined : JSON.stringify(json),
	});
}

/** Daily rows by campaign (or ad) over the days around the start, as the API serves them now. */
function dailyRows(
	sandbox: Sandbox,
	grouping: 'campaign' | 'ad',
	fromDay: string,
	toDay: string,
): Row[] {
	return sandbox.data.statsRows({
		period_from: `${fromDay}T00:00:00Z`,
		period_to: `${toDay}T23:59:59Z`,
		period_grouping_unit: 'day',
		grouping: [grouping],
	}) as Row[];
}

const keyOf = (row: Row) =>
	`${row.period_date.slice(0, 10)}|${row.campaign_id ?? ''}|${row.ad_id ?? ''}`;

/** Keys of the rows whose figures differ between two results of the same query. */
function changedKeys(before: Row[], after: Row[]): string[] {
	expect(after.map(keyOf)).toEqual(before.map(keyOf));
	return before
		.filter((row, i) => JSON.stringify(row) !== JSON.stringify(after[i]))
		.map(keyOf)
		.sort();
}

describe('restatements: figures of ended days change for a while after the day ends', () => {
	let restating: Sandbox;
	let fixed: Sandbox;
	beforeAll(async () => {
		[restating, fixed] = await Promise.all([
			start({ platform: 'telegram' }),
			start({ platform: 'telegram', restatements: 'off' }),
		]);
	});
	afterAll(async () => {
		await Promise.all([restating.stop(), fixed.stop()]);
	});
	afterEach(() => {
		restating.clock.set(START);
		fixed.clock.set(START);
	});

	test('on by default in the telegram form (3% of campaign-days within 3 days), off in the ext form', async () => {
		expect((await control(restating, 'GET', 'settings')).body.restatements).toBe('3%/3d');
		const ext = await Sandbox.start({ platform: 'ext', now: START, adCount: 1 });
		try {
			expect((await control(ext, 'GET', 'settings')).body.restatements).toBe('off');
		} finally {
			await ext.stop();
		}
	});

	test('what is served at the start is unchanged: restatements show only when the clock moves on', () => {
		expect(dailyRows(restating, 'campaign', '2026-02-01', '2026-03-10')).toEqual(
			dailyRows(fixed, 'campaign', '2026-02-01', '2026-03-10'),
		);
		expect(restating.data.restatementEvents()).toEqual([]);
	});

	test('over 40 days, a few per cent of daily campaign rows change, exactly the campaign-days listed, each within 3 days of its end', async () => {
		restating.clock.advance(40 * DAY_MS);
		fixed.clock.advance(40 * DAY_MS);
		const changed = changedKeys(
			dailyRows(fixed, 'campaign', '2026-03-07', '2026-04-15'),
			dailyRows(restating, 'campaign', '2026-03-07', '2026-04-15'),
		);
		const rows = dailyRows(fixed, 'campaign', '2026-03-07', '2026-04-15').length;
		expect(changed.length / rows).toBeGreaterThan(0.01);
		expect(changed.length / rows).toBeLessThan(0.08);
		const listed = (await control(restating, 'GET', 'restatements')).body;
		expect(listed.restatements).toBe('3%/3d');
		expect(
			listed.events
				.map((e: { day: string; campaign_id: number }) => `${e.day}|${e.campaign_id}|`)
				.sort(),
		).toEqual(changed);
		for (const event of listed.events) {
			const dayEnd = Date.parse(`${event.day}T00:00:00Z`) + DAY_MS;
			const at = Date.parse(event.at);
			expect(at).toBeGreaterThan(Math.max(dayEnd, Date.parse(START)));
			expect(at).toBeLessThanOrEqual(dayEnd + 3 * DAY_MS);
			expect(event.source).toBe('default');
		}
	});

	test('a restated row reads as first served until its moment, and restated from then on', () => {
		restating.clock.advance(40 * DAY_MS);
		const [event] = restating.data.restatementEvents();
		const query = (sandbox: Sandbox) =>
			dailyRows(sandbox, 'campaign', event.day, event.day).find(
				(r) => r.campaign_id === event.campaignId,
			);
		for (const [offsetMs, same] of [
			[-60_000, true],
			[0, false],
			[DAY_MS, false],
		] as const) {
			restating.clock.set(new Date(event.atMs + offsetMs));
			fixed.clock.set(new Date(event.atMs + offsetMs));
			expect([offsetMs, JSON.stringify(query(restating)) === JSON.stringify(query(fixed))]).toEqual(
				[offsetMs, same],
			);
		}
		const restated = query(restating) as Row;
		const original = query(fixed) as Row;
		expect(restated.views).not.toBe(original.views);
		expect(restated.clicks as number).toBeLessThanOrEqual(restated.views as number);
	});

	test('the same seed restates the same campaign-days at the same moments; another seed, others', async () => {
		const [twin, other] = await Promise.all([
			start({ platform: 'telegram' }),
			start({ platform: 'telegram', seed: 2 }),
		]);
		try {
			for (const sandbox of [restating, twin, other]) sandbox.clock.advance(40 * DAY_MS);
			expect(twin.data.restatementEvents()).toEqual(restating.data.restatementEvents());
			expect(other.data.restatementEvents()).not.toEqual(restating.data.restatementEvents());
		} finally {
			await Promise.all([twin.stop(), other.stop()]);
		}
	});
});

describe('restatements forced through the control API', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await start({ platform: 'telegram', restatements: 'off', now: TEST_NOW });
	});
	afterAll(() => sandbox.stop());

	test('a campaign-day restated now changes exactly that campaign row, and every ad row of it', async () => {
		const campaignsBefore = dailyRows(sandbox, 'campaign', '2026-03-07', '2026-03-09');
		const adsBefore = dailyRows(sandbox, 'ad', '2026-03-07', '2026-03-09');
		const response = await control(sandbox, 'POST', 'restatements', {
			restate: [{ day: '2026-03-08', campaign_id: 2201 }],
		});
		expect(response.status).toBe(200);
		expect(response.body.events).toEqual([
			{
				day: '2026-03-08',
				at: new Date(TEST_NOW).toISOString(),
				campaign_id: 2201,
				source: 'forced',
			},
		]);
		expect(
			changedKeys(campaignsBefore, dailyRows(sandbox, 'campaign', '2026-03-07', '2026-03-09')),
		).toEqual(['2026-03-08|2201|']);
		const inCampaign = new Set(
			sandbox.data.ads.filter((ad) => ad.campaignId === 2201).map((ad) => ad.id),
		);
		const adRows = adsBefore.filter(
			(r) => r.period_date.startsWith('2026-03-08') && inCampaign.has(r.ad_id as number),
		);
		expect(adRows.length).toBeGreaterThan(3);
		expect(changedKeys(adsBefore, dailyRows(sandbox, 'ad', '2026-03-07', '2026-03-09'))).toEqual(
			adRows.map(keyOf).sort(),
		);
	});

	test('a restated day still adds up: its hourly rows sum to its daily row', () => {
		const query = (unit: string) =>
			sandbox.data.statsRows({
				period_from: '2026-03-08T00:00:00Z',
				period_to: '2026-03-08T23:59:59Z',
				period_grouping_unit: unit,
				grouping: ['campaign'],
				platform_cabinet_ids: ['ACC07021'],
			}) as Row[];
		const [day] = query('day').filter((r) => r.campaign_id === 2201);
		const hours = query('hour').filter((r) => r.campaign_id === 2201);
		expect(hours).toHaveLength(24);
		for (const key of ['views', 'clicks', 'actions']) {
			expect(hours.reduce((sum, r) => sum + (r[key] as number), 0)).toBe(day[key]);
		}
	});

	test('one ad-day restated now changes that ad row; restating it again changes it again', async () => {
		const before = dailyRows(sandbox, 'ad', '2026-03-09', '2026-03-09');
		const target = before[5];
		await control(sandbox, 'POST', 'restatements', {
			restate: { day: '2026-03-09', ad_id: target.ad_id },
		});
		const once = dailyRows(sandbox, 'ad', '2026-03-09', '2026-03-09');
		expect(changedKeys(before, once)).toEqual([keyOf(target)]);
		await control(sandbox, 'POST', 'restatements', {
			restate: { day: '2026-03-09', ad_id: target.ad_id },
		});
		expect(changedKeys(once, dailyRows(sandbox, 'ad', '2026-03-09', '2026-03-09'))).toEqual([
			keyOf(target),
		]);
	});

	test('a day that has not begun, or an item without a campaign or ad, is a 400 and restates nothing', async () => {
		const before = (await control(sandbox, 'GET', 'restatements')).body.events;
		const future = await control(sandbox, 'POST', 'restatements', {
			restate: [{ day: '2026-03-11', campaign_id: 2201 }],
		});
		expect(future.status).toBe(400);
		expect(future.body.detail).toContain('has not begun');
		const neither = await control(sandbox, 'POST', 'restatements', {
			restate: [{ day: '2026-03-08' }],
		});
		expect(neither.status).toBe(400);
		expect((await control(sandbox, 'GET', 'restatements')).body.events).toEqual(before);
	});

	test('a setting turns the default restatements on or off; a malformed one is a 400', async () => {
		expect(
			(await control(sandbox, 'POST', 'settings', { restatements: '5%/2d' })).body.restatements,
		).toBe('5%/2d');
		expect(
			(await control(sandbox, 'POST', 'settings', { restatements: 'off' })).body.restatements,
		).toBe('off');
		const bad = await control(sandbox, 'POST', 'settings', { restatements: '3/3' });
		expect(bad.status).toBe(400);
		expect(bad.body.detail).toContain('"3%/3d"');
	});
});
