import type { INodeParameters } from 'n8n-workflow';
import { runNode } from '../../harness';
import { apiRequests, credentialsFor } from '../../harness/sandbox';
import { useSandbox } from '../support/useSandbox';

const GOOD = 'https://t.me/shop_helper_bot';
const SMALL = 'https://t.me/tiny_notes_bot';

describe('Ad Cabinet Ads → Validate Bots', () => {
	const sandbox = useSandbox();
	const params = (extra: INodeParameters = {}): INodeParameters => ({
		resource: 'ad',
		operation: 'validateBots',
		accountId: 'ACC06163',
		bots: `${GOOD}, ${SMALL}`,
		...extra,
	});
	const run = (parameters: INodeParameters, continueOnFail = false) =>
		runNode({
			type: 'adCabinetAds',
			parameters,
			credentials: credentialsFor(sandbox()),
			continueOnFail,
		});

	test('sends the bots as repeated query parameters with account_id; outputs one item per bot', async () => {
		const { items, error } = await run(params());
		expect(error).toBeUndefined();
		const [request] = apiRequests(sandbox());
		expect([request.method, request.path, request.query]).toEqual([
			'GET',
			'/api/advertisement/bots/validate',
			{ bots: [GOOD, SMALL], account_id: 'ACC06163' },
		]);
		expect(items.map((item) => item.json)).toEqual([
			{
				valid: true,
				id: 880001,
				title: 'Shop Helper',
				url: GOOD,
				photo_url: expect.stringContaining('shop_helper_bot'),
			},
			{
				valid: false,
				code: 'advertisement__target_bot_daily_users_limit_error',
				detail: expect.stringContaining('1000+ daily users'),
				url: SMALL,
			},
		]);
	});

	test('Fail When a Bot Is Rejected fails the item with the API detail; all-good bots still pass', async () => {
		const failed = await run(params({ failOnRejected: true }));
		expect(failed.items).toEqual([]);
		expect(failed.error?.message).toMatch(
			/^1 of 2 bots rejected: https:\/\/t\.me\/tiny_notes_bot: .*1000\+ daily users/,
		);
		expect(failed.error?.description).toContain(
			'advertisement__target_bot_daily_users_limit_error',
		);

		const ok = await run(params({ failOnRejected: true, bots: GOOD }));
		expect(ok.error).toBeUndefined();
		expect(ok.items.map((item) => item.json.valid)).toEqual([true]);

		const continued = await run(params({ failOnRejected: true }), true);
		expect(continued.items).toHaveLength(1);
		expect(continued.items[0].json.error).toContain('1000+ daily users');
		expect(continued.items[0].pairedItem).toEqual({ item: 0 });
	});

	test('a missing cabinet or bot list is refused before any request', async () => {
		expect((await run(params({ accountId: ' ' }))).error?.message).toMatch(
			/^Cabinet ID: is required/,
		);
		expect((await run(params({ bots: '={{ " , " }}' }))).error?.message).toMatch(
			/^Bots: add at least one bot/,
		);
		expect(apiRequests(sandbox())).toHaveLength(0);
	});
});
