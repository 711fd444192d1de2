import type { INodeParameters } from 'n8n-workflow';
import { runNode } from '../../harness';
import { apiRequests, credentialsFor } from '../../harness/sandbox';
import { useSandbox } from '../support/useSandbox';
import { locator, minimalCreate } from '../support/adFixtures';

/**
 * The rules the node checks before sending a create or an update. Each refusal names the field
 * and the rule, and nothing reaches the ad endpoints; only the KKTU level of an id needs the tree.
 */
describe('Ad Cabinet Ads → rules checked before any request', () => {
	const sandbox = useSandbox({ now: '2026-11-20T12:00:00.000Z' });
	const run = (parameters: INodeParameters) =>
		runNode({ type: 'adCabinetAds', parameters, credentials: credentialsFor(sandbox()) });
	const update = (updateFields: INodeParameters) => ({
		resource: 'ad',
		operation: 'update',
		adId: locator(String(sandbox().data.ads[0].id)),
		updateFields,
	});

	async function expectRefused(
		parameters: INodeParameters,
		message: RegExp,
		allowKktuRead = false,
	) {
		const { error, items } = await run(parameters);
		expect(items).toEqual([]);
		expect(error?.message).toMatch(message);
		expect(error?.message).toContain('Nothing was sent to the API');
		const sent = apiRequests(sandbox()).map((r) => `${r.method} ${r.path}`);
		expect(sent).toEqual(allowKktuRead ? ['GET /api/kktu'] : []);
	}

	test('the valid base create goes through (so each refusal below is the rule under test)', async () => {
		const { error } = await run(minimalCreate());
		expect(error).toBeUndefined();
		expect(apiRequests(sandbox()).map((r) => r.method)).toEqual(['POST']);
	});

	test('KKTU: exactly one value, of the third level, on create and update', async () => {
		const [level1] = sandbox().data.kktuIdsAtLevel(1);
		const [level2] = sandbox().data.kktuIdsAtLevel(2);
		const [leaf, leaf2] = sandbox().data.kktuIdsAtLevel(3);
		await expectRefused(
			minimalCreate({ kktu: locator(`${leaf}, ${leaf2}`) }),
			/^KKTU Category: exactly one KKTU category per ad/,
		);
		await expectRefused(
			minimalCreate({ kktu: locator(`={{ ["${leaf}", "${leaf2}"] }}`) }),
			/^KKTU Category: exactly one/,
		);
		await expectRefused(
			minimalCreate({ kktu: locator('1.2') }),
			/^KKTU Category: "1\.2" is a level-2 code; only third-level categories/,
		);
		await expectRefused(
			update({ kktu: locator('4.1.1.2') }),
			/^KKTU Category: "4\.1\.1\.2" is a level-4 code/,
		);
		await expectRefused(
			update({ kktu: locator('') }),
			/^KKTU Category: choose exactly one KKTU category/,
		);
		// An id's level is only in the tree: it is read (once), and the ad is not sent.
		await expectRefused(
			minimalCreate({ kktu: locator(level2) }),
			new RegExp(`^KKTU Category: "${level2}" is the level-2 category 1\\.1 `),
			true,
		);
		sandbox().clearLog();
		await expectRefused(
			update({ kktu: locator(level1, 'list') }),
			new RegExp(`^KKTU Category: "${level1}" is the level-1 category 1 `),
			true,
		);
		sandbox().clearLog();
		await expectRefused(
			minimalCreate({ kktu: locator('999999') }),
			/^KKTU Category: no KKTU category has the ID "999999"/,
			true,
		);
	});

	test('pixel event: at most one id', async () => {
		await expectRefused(
			minimalCreate({ tracking: { pixelEvent: '={{ "7700013, 7700026" }}' } }),
			/^Pixel Event Name or ID: only one pixel event per ad/,
		);
		await expectRefused(
			update({ pixelEvent: '={{ ["7700013", "7700026"] }}' }),
			/^Pixel Event Name or ID: only one pixel event/,
		);
	});

	test('ad object is required when the promoted URL is a channel invite link', async () => {
		for (const link of ['https://t.me/+Qx7PrivUzClub', 'https://t.me/joinchat/AAAAAEdeInsider']) {
			await expectRefused(
				minimalCreate({ promoteUrl: link }),
				/^Ad Object: is required when Promote URL is a channel invite link/,
			);
		}
	});

	test('schedule: day keys mon…sun only, hours whole numbers 0–23', async () => {
		const days = (entries: INodeParameters[]) => ({
			budgetSchedule: { schedule: { days: entries } },
		});
		await expectRefused(
			minimalCreate(days([{ day: 'mon', hours: '={{ [9, 24] }}' }])),
			/^Schedule: mon: hours must be whole numbers from 0 to 23, got 24/,
		);
		await expectRefused(
			minimalCreate(days([{ day: 'funday', hours: [9] }])),
			/^Schedule: day must be one of mon, tue, wed, thu, fri, sat, sun/,
		);
		const json = (text: string) => ({ budgetSchedule: { scheduleJson: text } });
		await expectRefused(
			minimalCreate(json('{"monday": [9]}')),
			/^Schedule \(JSON\): unknown day key "monday"; the keys are mon, tue, wed, thu, fri, sat, sun/,
		);
		await expectRefused(
			minimalCreate(json('{"tue": [9.5]}')),
			/^Schedule \(JSON\): tue: hours must be whole numbers from 0 to 23/,
		);
		await expectRefused(
			minimalCreate(json('{"wed": [-1]}')),
			/^Schedule \(JSON\): wed: hours must be whole numbers/,
		);
		await expectRefused(minimalCreate(json('{"thu": 9')), /^Schedule \(JSON\): is not valid JSON/);
		await expectRefused(
			minimalCreate(json('null')),
			/^Schedule \(JSON\): may be null only when updating/,
		);
		await expectRefused(
			update({ scheduleJson: '{"sun": [25]}' }),
			/^Schedule \(JSON\): sun: hours must be whole numbers/,
		);
		await expectRefused(
			update({ scheduleJson: '{"sun": [1]}', removeSchedule: true }),
			/^Schedule \(JSON\): set the schedule one way only/,
		);
	});

	test('amounts, dates, views per user and button type', async () => {
		await expectRefused(
			minimalCreate({ cpm: 0 }),
			/^CPM: must be a number greater than 0 \(got 0\)/,
		);
		await expectRefused(
			minimalCreate({ budget: -5 }),
			/^Budget: must be a number greater than 0 \(got -5\)/,
		);
		await expectRefused(
			minimalCreate({ budget: '={{ "lots" }}' }),
			/^Budget: must be a number \(got "lots"\)/,
		);
		await expectRefused(
			minimalCreate({ budgetSchedule: { dailyBudget: 0 } }),
			/^Daily Budget: must be a number greater than 0/,
		);
		await expectRefused(
			update({ dailyBudget: -1 }),
			/^Daily Budget: must be a number greater than 0/,
		);
		await expectRefused(update({ cpm: 0 }), /^CPM: must be a number greater than 0/);
		await expectRefused(
			minimalCreate({
				budgetSchedule: { startDate: '2026-12-31T00:00:00', endDate: '2026-12-01T00:00:00' },
			}),
			/^Start Date: must be before End Date/,
		);
		await expectRefused(
			update({ startDate: '2027-01-02', endDate: '2027-01-01' }),
			/^Start Date: must be before End Date/,
		);
		await expectRefused(
			minimalCreate({ budgetSchedule: { viewsPerUser: 0 } }),
			/^Views per User: must be a whole number of at least 1/,
		);
		await expectRefused(
			update({ viewsPerUser: 1.5 }),
			/^Views per User: must be a whole number of at least 1/,
		);
		await expectRefused(
			minimalCreate({ websiteButton: { buttonType: '={{ "click_me" }}' } }),
			/^Button Type: must be one of "learn_more", "open_website" \(got "click_me"\)/,
		);
		await expectRefused(update({ buttonType: '={{ "buy_now" }}' }), /^Button Type: must be one of/);
	});

	test('required core fields, URLs, ids and an empty update', async () => {
		await expectRefused(minimalCreate({ title: '  ' }), /^Title: must not be empty/);
		await expectRefused(
			minimalCreate({ promoteUrl: 't.me/name' }),
			/^Promote URL: must be an absolute http\(s\) URL/,
		);
		await expectRefused(
			minimalCreate({ campaignId: 0 }),
			/^Campaign ID: must be a whole number of at least 1/,
		);
		await expectRefused(
			minimalCreate({ targeting: { topics: '12, tech' } }),
			/^Topic IDs: must be whole-number IDs separated by commas \(got "tech"\)/,
		);
		await expectRefused(
			minimalCreate({ adType: 'target_bots' }),
			/^Target Bots: must list at least one entry when Ad Type is target_bots/,
		);
		await expectRefused(
			minimalCreate({ targeting: { onlyCrypto: true }, exclusions: { excludeCrypto: true } }),
			/^Only Crypto Channels: cannot be on together with Exclude Crypto Channels/,
		);
		await expectRefused(update({}), /^Update Fields: add at least one field to change/);
	});

	test('Continue On Fail turns a refusal into an error item paired to its row; the other rows go through', async () => {
		const { items } = await runNode({
			type: 'adCabinetAds',
			parameters: minimalCreate({ cpm: '={{ $json.cpm }}' }),
			credentials: credentialsFor(sandbox()),
			input: [{ cpm: 2 }, { cpm: 0 }, { cpm: 3 }],
			continueOnFail: true,
		});
		expect(items.map((item) => [item.json.error ?? item.json.cpm, item.pairedItem])).toEqual([
			[2, { item: 0 }],
			['CPM: must be a number greater than 0 (got 0). Nothing was sent to the API.', { item: 1 }],
			[3, { item: 2 }],
		]);
		expect(apiRequests(sandbox()).filter((r) => r.method === 'POST')).toHaveLength(2);
	});

	test('writes go out one at a time in row order, and a refused row stops the rows after it', async () => {
		const rows = [
			{ title: 'Row one', cpm: 2 },
			{ title: 'Row two', cpm: 3 },
			{ title: 'Row three', cpm: 0 },
			{ title: 'Row four', cpm: 4 },
		];
		const { error } = await runNode({
			type: 'adCabinetAds',
			parameters: minimalCreate({ title: '={{ $json.title }}', cpm: '={{ $json.cpm }}' }),
			credentials: credentialsFor(sandbox()),
			input: rows,
		});
		expect(error?.message).toBe(
			'CPM: must be a number greater than 0 (got 0). Nothing was sent to the API.',
		);
		const posts = apiRequests(sandbox()).filter((r) => r.method === 'POST');
		expect(posts.map((r) => (r.body as { title?: string }).title)).toEqual(['Row one', 'Row two']);
	});

	test(`the detail the API gives for a refused field names the node's field`, async () => {
		const { error } = await run(minimalCreate({ websiteButton: { mediaToken: 'never-uploaded' } }));
		expect(error?.httpCode).toBe('400');
		expect(error?.message).toContain('media_token (Media Token)');
	});
});
