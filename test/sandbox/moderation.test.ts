import type { ModerationDecision } from '../../sandbox';
import { apiClient, TEST_NOW } from '../support/sandboxClient';
import { useSandbox } from '../support/useSandbox';

const HOUR = 3_600_000;
const CREATE = '/api/advertisement/telegram/';
const LIST = '/api/v2/advertisement/';
const NEW_AD = {
	campaign_id: 2201,
	title: 'Moderated launch',
	text: 'Meet the new collection',
	promote_url: 'https://t.me/berlin_startups',
	cpm: 2.5,
	budget: 150,
};

describe('the sandbox moderates when started with moderation', () => {
	const sandbox = useSandbox({
		platform: 'telegram',
		now: TEST_NOW,
		adCount: 40,
		moderation: true,
	});
	const base = apiClient(sandbox, 'base');
	const listed = async () =>
		(await base.get(LIST, { query: { limit: 500 } })).body.data as Array<Record<string, unknown>>;
	const detail = async (id: number) =>
		(await base.get(`/api/advertisement/telegram/${id}`)).body as Record<string, unknown>;

	test('a new ad waits in review, then is decided within a few hours; each decision is kept with its time', async () => {
		const start = sandbox().clock.now().getTime();
		const ids: number[] = [];
		for (let i = 0; i < 12; i++) {
			const made = await base.post(CREATE, { json: { ...NEW_AD, title: `Moderated ${i}` } });
			expect(made.status).toBe(201);
			expect(made.body).toMatchObject({ status: 'in_review' });
			ids.push(made.body.ad_id as number);
		}
		// An hour on, nothing is decided yet.
		sandbox().clock.set(new Date(start + HOUR));
		expect(
			(await listed()).filter((ad) => ids.includes(ad.id as number)).map((ad) => ad.status),
		).toEqual(ids.map(() => 'in_review'));
		sandbox().clock.set(new Date(start + 6 * HOUR));
		const after = (await listed()).filter((ad) => ids.includes(ad.id as number));
		const statuses = new Set(after.map((ad) => ad.status));
		expect([...statuses].every((s) => ['active', 'declined', 'on_hold'].includes(String(s)))).toBe(
			true,
		);
		expect(statuses.size).toBeGreaterThan(1);

		const decisions = sandbox().data.moderation?.decisions.filter(
			(d: ModerationDecision) => d.kind === 'review' && ids.includes(d.adId),
		);
		expect(decisions).toHaveLength(12);
		for (const decision of decisions ?? []) {
			expect(decision.atMs).toBeGreaterThanOrEqual(start + 1.5 * HOUR);
			expect(decision.atMs).toBeLessThanOrEqual(start + 5 * HOUR);
			const shown = await detail(decision.adId);
			expect(shown.status).toBe(decision.status);
			// The list and detail carry the time the decision was made, not the time it was read.
			expect(Date.parse(String(shown.status_updated_dt))).toBe(
				Math.floor(decision.atMs / 1000) * 1000,
			);
			if (decision.status === 'declined') {
				expect(decision.reasons.length).toBeGreaterThan(0);
				expect(shown.decline_reason).toEqual(decision.reasons);
			} else expect(shown.decline_reason).toEqual([]);
		}
	});

	test('over some days, a few running ads are stopped or put on hold', async () => {
		const from = sandbox().clock.now().getTime();
		for (let day = 1; day <= 20; day++) {
			sandbox().clock.set(new Date(from + day * 24 * HOUR));
			await listed();
		}
		const running = sandbox().data.moderation?.decisions.filter((d) => d.kind === 'running') ?? [];
		expect(running.length).toBeGreaterThan(1);
		expect(running.length).toBeLessThan(15);
		for (const decision of running) {
			expect(['stopped', 'on_hold']).toContain(decision.status);
			expect(decision.previous).toBe('active');
			expect(sandbox().data.ad(decision.adId)?.status).toBe(decision.status);
		}
	});
});

describe('without the moderation option the sandbox moderates nothing', () => {
	const sandbox = useSandbox({ platform: 'telegram', now: TEST_NOW, adCount: 40 });
	const base = apiClient(sandbox, 'base');

	test('a new ad is active at once and stays so', async () => {
		const made = await base.post(CREATE, { json: NEW_AD });
		expect(made.body).toMatchObject({ status: 'active' });
		sandbox().clock.set(new Date(sandbox().clock.now().getTime() + 10 * 24 * HOUR));
		const shown = await base.get(`/api/advertisement/telegram/${String(made.body.ad_id)}`);
		expect(shown.body).toMatchObject({ status: 'active' });
		expect(sandbox().data.moderation).toBeUndefined();
	});
});
