import { apiClient, rawFetch, TEST_NOW } from '../support/sandboxClient';
import { useSandbox } from '../support/useSandbox';

const PATH = '/api/advertisement/bots/validate';

describe('bot validation', () => {
	const sandbox = useSandbox({ platform: 'ext', now: TEST_NOW, adCount: 10 });
	const base = apiClient(sandbox, 'base');

	test('bots with 1000+ daily users validate; fewer give the daily-users error code', async () => {
		const { status, body } = await base.get(PATH, {
			query: {
				bots: [
					'https://t.me/shop_helper_bot',
					'@quiz_master_bot',
					'https://t.me/tiny_notes_bot',
					'fresh_launch_bot',
				],
				account_id: '100002',
			},
		});
		expect(status).toBe(200);
		expect(body.bots).toEqual([
			{
				id: 880001,
				title: 'Shop Helper',
				url: 'https://t.me/shop_helper_bot',
				photo_url: expect.stringMatching(/^https:\/\//),
			},
			{
				id: 880003,
				title: 'Quiz Master',
				url: 'https://t.me/quiz_master_bot',
				photo_url: expect.stringMatching(/^https:\/\//),
			},
		]);
		expect(body.errors).toEqual([
			{
				code: 'advertisement__target_bot_daily_users_limit_error',
				detail: expect.stringContaining('1000+ daily users'),
				url: 'https://t.me/tiny_notes_bot',
			},
			{
				code: 'advertisement__target_bot_daily_users_limit_error',
				detail: expect.stringContaining('1000+ daily users'),
				url: 'fresh_launch_bot',
			},
		]);
	});

	test('an unknown bot is reported in errors with its own code', async () => {
		const { body } = await base.get(PATH, {
			query: { bots: 'https://t.me/no_such_bot', account_id: '100001' },
		});
		expect(body.bots).toEqual([]);
		expect(body.errors).toEqual([
			{
				code: 'advertisement__target_bot_not_found_error',
				detail: expect.stringContaining('not found'),
				url: 'https://t.me/no_such_bot',
			},
		]);
	});

	test('POST works too', async () => {
		const { status, body } = await base.post(PATH, {
			query: { bots: 'travel_deals_bot', account_id: '100001' },
		});
		expect(status).toBe(200);
		expect(body.bots.map((b: { id: number }) => b.id)).toEqual([880002]);
	});

	test("the written form's repeated validate? token is tolerated", async () => {
		const sb = sandbox();
		const url = `${sb.baseUrl}${PATH}?validate?bots=shop_helper_bot&bots=tiny_notes_bot&account_id=100002`;
		const { status, body } = await rawFetch(url, {
			headers: { authorization: `Bearer ${sb.token}` },
		});
		expect(status).toBe(200);
		expect(body.bots.map((b: { id: number }) => b.id)).toEqual([880001]);
		expect(body.errors.map((e: { url: string }) => e.url)).toEqual(['tiny_notes_bot']);
	});

	test('missing account_id or bots is a 400; a cabinet without permission is a 403', async () => {
		const noAccount = await base.get(PATH, { query: { bots: 'shop_helper_bot' } });
		expect(noAccount.status).toBe(400);
		expect(noAccount.body.errors).toHaveProperty('account_id');
		const noBots = await base.get(PATH, { query: { account_id: '100001' } });
		expect(noBots.status).toBe(400);
		expect(noBots.body.errors).toHaveProperty('bots');
		const forbidden = await base.get(PATH, {
			query: { bots: 'shop_helper_bot', account_id: '100004' },
		});
		expect(forbidden.status).toBe(403);
	});
});
