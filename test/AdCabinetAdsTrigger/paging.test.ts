import type { IDataObject } from 'n8n-workflow';
import { pacer } from '../../nodes/shared/transport/pacing';
import { StatusMap, type AdsTriggerState } from '../../nodes/AdCabinetAdsTrigger/adState';
import type { Sandbox } from '../../sandbox';
import { signInCredentialsFor } from '../../harness/sandbox';
import { useSandbox } from '../support/useSandbox';
import { addAdLike, listedAds, pollAds, requestsByKind, setAdStatus } from '../support/adsTrigger';

/** Adds ads until the list (deleted ones included) holds `count`. */
function fillTo(sandbox: Sandbox, count: number): void {
	const like = listedAds(sandbox)[0];
	for (let listed = listedAds(sandbox).length; listed < count; listed++) addAdLike(sandbox, like);
	if (listedAds(sandbox).length !== count) throw new Error('the seed lists more ads than asked');
}

/** A minute passes for the rate limit: the pacer's windows and the sandbox's both start afresh. */
function nextMinute(sandbox: Sandbox): void {
	pacer.reset();
	sandbox.rateLimiter.reset();
}

/** The trigger's state in the workflow's static data (n8n keeps a node's under `node:<name>`). */
const stateOf = (staticData: IDataObject) =>
	(staticData['node:Node'] as IDataObject).adCabinetAds as unknown as AdsTriggerState;

describe('Ad Cabinet Ads Trigger: 500 ads', () => {
	const sandbox = useSandbox({ now: '2026-11-17T09:00:00Z', adCount: 400 });

	test('the requests one poll costs', async () => {
		fillTo(sandbox(), 500);
		const first = await pollAds(sandbox(), {});
		const firstCost = requestsByKind(sandbox());
		sandbox().clearLog();
		const quiet = await pollAds(sandbox(), first.staticData);
		const quietCost = requestsByKind(sandbox());
		const [ad] = listedAds(sandbox()).filter((a) => a.status === 'active');
		await setAdStatus(sandbox(), ad.id, 'declined', [{ reason: 'x' }]);
		sandbox().clearLog();
		const changed = await pollAds(sandbox(), quiet.staticData);
		const changedCost = requestsByKind(sandbox());
		expect(changed.json.map((item) => item.ad_id)).toEqual([ad.id]);
		// 500 ads fill one page of 500; the list ends with the empty page after it.
		expect([firstCost.list.length, quietCost.list.length, changedCost.list.length]).toEqual([
			2, 2, 2,
		]);
		expect([firstCost.detail.length, quietCost.detail.length, changedCost.detail.length]).toEqual([
			0, 0, 1,
		]);
		console.log(
			`Ads Trigger, 500 ads: first poll ${firstCost.all.length} requests, a quiet poll ${quietCost.all.length}, a poll with one declined ad ${changedCost.all.length}; state ${JSON.stringify(changed.staticData).length} bytes`,
		);
	});
});

describe('Ad Cabinet Ads Trigger: 5,000 ads within the rate limit', () => {
	// The real service's limit, 10 requests per 60 s and path, and the credential paced to match.
	const sandbox = useSandbox({ now: '2026-11-17T09:00:00Z', adCount: 4000, rateLimit: '10/60' });

	test('a pass over 5,000 ads (10 full pages and the empty one that ends the list) takes two polls, each within the limit; each change is emitted once; the state stays small', async () => {
		fillTo(sandbox(), 5_000);
		const polls: Array<{ list: number; detail: number }> = [];
		let staticData: IDataObject = {};
		const poll = async () => {
			nextMinute(sandbox());
			sandbox().clearLog();
			const result = await pollAds(sandbox(), staticData);
			expect(result.error).toBeUndefined();
			const cost = requestsByKind(sandbox());
			expect(cost.all.filter((request) => request.rateLimited)).toEqual([]);
			polls.push({ list: cost.list.length, detail: cost.detail.length });
			staticData = result.staticData;
			return result;
		};

		// The first pass records every ad, in two polls.
		expect((await poll()).items).toBeNull();
		expect(stateOf(staticData).o).toBe(5_000);
		expect((await poll()).items).toBeNull();
		expect(stateOf(staticData).o).toBeUndefined();
		const size = JSON.stringify(staticData).length;
		expect(size).toBeLessThan(64 * 1024);
		// Every ad is stored but those deleted over 30 days before the newest status change listed.
		const newest = Math.max(...listedAds(sandbox()).map((ad) => ad.statusUpdatedAt));
		const longDeleted = listedAds(sandbox()).filter(
			(ad) => ad.status === 'deleted' && ad.statusUpdatedAt < newest - 30 * 86_400_000,
		);
		expect(longDeleted.length).toBeGreaterThan(0);
		const stored = new StatusMap(stateOf(staticData)).entries;
		expect(stored.size).toBe(5_000 - longDeleted.length);
		for (const ad of longDeleted) expect(stored.has(ad.id)).toBe(false);

		// A change on the first page, emitted by the poll that reads it; then a change on the last
		// ads, which the second poll of the pass reads again (it resumes 50 ads before its place).
		const ids = listedAds(sandbox()).map((ad) => ad.id);
		const low = listedAds(sandbox()).find((ad) => ad.status === 'active');
		const high = Math.max(...ids);
		if (!low) throw new Error('no active ad');
		sandbox().clock.set(new Date('2026-11-17T09:30:00Z'));
		await setAdStatus(sandbox(), low.id, 'stopped');
		const third = await poll();
		expect(third.json.map((item) => [item.ad_id, item.previous_status])).toEqual([
			[low.id, 'active'],
		]);
		expect(stateOf(staticData).o).toBe(5_000);
		sandbox().clock.set(new Date('2026-11-17T09:31:00Z'));
		await setAdStatus(sandbox(), high, 'declined', [{ reason: 'y' }]);
		const fourth = await poll();
		expect(fourth.json.map((item) => [item.ad_id, item.previous_status])).toEqual([
			[high, 'in_review'],
		]);
		// A restart in the middle of a pass, and the next pass: nothing again.
		staticData = JSON.parse(JSON.stringify(staticData)) as IDataObject;
		expect((await poll()).items).toBeNull();
		expect((await poll()).items).toBeNull();

		expect(polls.map((p) => p.list)).toEqual([10, 1, 10, 1, 10, 1]);
		expect(polls.map((p) => p.detail)).toEqual([0, 0, 0, 1, 0, 0]);
		console.log(
			`Ads Trigger, 5,000 ads at 10 requests per 60 s: list requests per poll ${polls.map((p) => p.list).join(', ')}, detail reads ${polls.map((p) => p.detail).join(', ')}; state ${size} bytes`,
		);
	});
});

describe('Ad Cabinet Ads Trigger: the pages a poll may read', () => {
	const sandbox = useSandbox({ now: '2026-11-17T09:00:00Z', adCount: 900, rateLimit: '3/60' });

	test('as many as the rate limit lets start in a window; one fewer for a credential that renews its token', async () => {
		fillTo(sandbox(), 1_200);
		const listPages = async (credentials?: ReturnType<typeof signInCredentialsFor>) => {
			nextMinute(sandbox());
			sandbox().clearLog();
			const result = await pollAds(sandbox(), {}, {}, { credentials });
			expect(result.error).toBeUndefined();
			expect(requestsByKind(sandbox()).all.filter((r) => r.rateLimited)).toEqual([]);
			return { pages: requestsByKind(sandbox()).list.length, state: stateOf(result.staticData) };
		};
		// 1,200 ads are three pages: the access token reads them all in one poll.
		const byToken = await listPages();
		expect(byToken.pages).toBe(3);
		expect(byToken.state.o).toBeUndefined();
		// Username and password: one place of the window stays free for n8n's repeat after a renewal.
		const bySignIn = await listPages(signInCredentialsFor(sandbox()));
		expect(bySignIn.pages).toBe(2);
		expect(bySignIn.state.o).toBe(1_000);
	});
});
