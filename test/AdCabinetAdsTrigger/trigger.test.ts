import type { IDataObject } from 'n8n-workflow';
import { capturedLogs } from '../../harness';
import { useSandbox } from '../support/useSandbox';
import { addAdLike, listedAds, pollAds, requestsByKind, setAdStatus } from '../support/adsTrigger';

const REASONS = [{ reason: 'The text promises guaranteed income' }];
/** What a restart keeps: the static data as n8n writes it to its database. */
const restarted = (staticData: IDataObject) =>
	JSON.parse(JSON.stringify(staticData)) as IDataObject;

describe.each(['telegram', 'ext'] as const)('Ad Cabinet Ads Trigger (%s form)', (platform) => {
	const sandbox = useSandbox({ platform, now: '2026-11-17T09:00:00Z', adCount: 120 });
	const active = () => listedAds(sandbox()).filter((ad) => ad.status === 'active');

	test('the first poll records every ad and emits nothing; a decline is emitted once, with its reasons from the detail', async () => {
		const logged = capturedLogs.length;
		const first = await pollAds(sandbox(), {});
		expect(first.error).toBeUndefined();
		expect(first.items).toBeNull();
		expect(requestsByKind(sandbox()).detail).toEqual([]);
		// n8n's log says why an active trigger emitted nothing, once. Ads deleted over 30 days
		// before the newest status change are not kept.
		const listed = listedAds(sandbox());
		const newest = Math.max(...listed.map((ad) => ad.statusUpdatedAt));
		const kept = listed.filter(
			(ad) => ad.status !== 'deleted' || ad.statusUpdatedAt >= newest - 30 * 86_400_000,
		);
		const recorded = capturedLogs.slice(logged).filter((line) => line.includes('first poll'));
		expect(recorded).toEqual([
			`info: Ad Cabinet Ads Trigger: the first poll of "Node" recorded the status of ${kept.length} ads and emits nothing; from the next poll on it emits each change`,
		]);

		const [ad] = active();
		sandbox().clock.set(new Date('2026-11-17T09:05:00Z'));
		await setAdStatus(sandbox(), ad.id, 'declined', REASONS);
		sandbox().clearLog();
		const second = await pollAds(sandbox(), first.staticData);
		expect(second.error).toBeUndefined();
		expect(second.json).toEqual([
			{
				ad_id: ad.id,
				title: ad.fields.title,
				campaign_id: ad.campaignId,
				campaign_name: sandbox().data.campaign(ad.campaignId)?.name,
				status: 'declined',
				previous_status: 'active',
				status_updated_dt: '2026-11-17T09:05:00+00:00',
				decline_reason: REASONS,
			},
		]);
		// One read of the declined ad's detail, in the credential's form.
		expect(requestsByKind(sandbox()).detail.map((r) => r.path)).toEqual([
			`/api/advertisement/${platform}/${ad.id}`,
		]);

		// Restarted n8n: the stored place holds, nothing is emitted again.
		const third = await pollAds(sandbox(), restarted(second.staticData));
		expect(third.items).toBeNull();

		// Approved after a fix: a change from declined, without reasons.
		sandbox().clock.set(new Date('2026-11-17T09:10:00Z'));
		await setAdStatus(sandbox(), ad.id, 'active');
		const fourth = await pollAds(sandbox(), restarted(third.staticData));
		expect(fourth.json).toEqual([
			expect.objectContaining({ ad_id: ad.id, status: 'active', previous_status: 'declined' }),
		]);
		expect(fourth.json[0]).not.toHaveProperty('decline_reason');
	});

	test('several changes come in the order they happened; To Statuses keeps only those asked for, and the others are not emitted later', async () => {
		const staticData = (await pollAds(sandbox(), {})).staticData;
		const [a, b, c] = active();
		sandbox().clock.set(new Date('2026-11-17T10:00:00Z'));
		await setAdStatus(sandbox(), b.id, 'stopped');
		sandbox().clock.set(new Date('2026-11-17T10:01:00Z'));
		await setAdStatus(sandbox(), a.id, 'declined');
		sandbox().clock.set(new Date('2026-11-17T10:02:00Z'));
		await setAdStatus(sandbox(), c.id, 'on_hold');

		const all = await pollAds(sandbox(), restarted(staticData));
		expect(all.json.map((item) => [item.ad_id, item.status])).toEqual([
			[b.id, 'stopped'],
			[a.id, 'declined'],
			[c.id, 'on_hold'],
		]);
		expect(all.json[1].decline_reason).toEqual([]);

		const onlyDeclined = await pollAds(sandbox(), restarted(staticData), {
			toStatuses: ['declined'],
		});
		expect(onlyDeclined.json.map((item) => item.ad_id)).toEqual([a.id]);
		// The stopped and on-hold changes were recorded: the next poll emits neither.
		const next = await pollAds(sandbox(), onlyDeclined.staticData);
		expect(next.items).toBeNull();
	});

	test('New Ad: an ad created since the last poll, once; Status Changed shows it with no previous status', async () => {
		const staticData = (await pollAds(sandbox(), {}, { event: 'newAd' })).staticData;
		const [ad] = active();
		sandbox().clock.set(new Date('2026-11-17T11:00:00Z'));
		await setAdStatus(sandbox(), ad.id, 'stopped');
		const created = addAdLike(sandbox());

		const fresh = await pollAds(sandbox(), restarted(staticData), { event: 'newAd' });
		expect(fresh.json).toEqual([
			expect.objectContaining({
				ad_id: created.id,
				status: 'in_review',
				previous_status: null,
				status_updated_dt: '2026-11-17T11:00:00+00:00',
			}),
		]);
		expect((await pollAds(sandbox(), fresh.staticData, { event: 'newAd' })).items).toBeNull();

		const changed = await pollAds(sandbox(), restarted(staticData));
		expect(changed.json.map((item) => [item.ad_id, item.previous_status])).toEqual([
			[ad.id, 'active'],
			[created.id, null],
		]);
	});

	test('Fetch Test Event shows the latest changes and leaves the trigger where it was', async () => {
		const staticData = (await pollAds(sandbox(), {})).staticData;
		const stored = JSON.stringify(staticData);
		const [a, b] = active();
		sandbox().clock.set(new Date('2026-11-17T12:00:00Z'));
		await setAdStatus(sandbox(), a.id, 'declined', REASONS);
		sandbox().clock.set(new Date('2026-11-17T12:01:00Z'));
		await setAdStatus(sandbox(), b.id, 'stopped');

		const manual = await pollAds(sandbox(), staticData, {}, { mode: 'manual' });
		expect(manual.error).toBeUndefined();
		expect(manual.json.length).toBe(5);
		expect(manual.json.slice(-2)).toEqual([
			expect.objectContaining({ ad_id: a.id, status: 'declined', previous_status: 'active' }),
			expect.objectContaining({ ad_id: b.id, status: 'stopped', previous_status: 'active' }),
		]);
		expect(manual.json[3].decline_reason).toEqual(REASONS);
		expect(JSON.stringify(manual.staticData)).toBe(stored);

		// The active trigger still emits both changes, once.
		const live = await pollAds(sandbox(), staticData);
		expect(live.json.map((item) => item.ad_id)).toEqual([a.id, b.id]);
	});

	test('a poll that fails stores nothing: the next one emits the change once', async () => {
		const staticData = (await pollAds(sandbox(), {})).staticData;
		const [ad] = active();
		sandbox().clock.set(new Date('2026-11-17T13:00:00Z'));
		await setAdStatus(sandbox(), ad.id, 'declined', REASONS);
		sandbox().faults.set({ rate: 1, kinds: ['503'], match: (path) => path.includes(`/${ad.id}`) });
		const failed = await pollAds(sandbox(), staticData);
		expect(failed.error).toBeDefined();
		sandbox().faults.clear();
		const next = await pollAds(sandbox(), failed.staticData);
		expect(next.json.map((item) => item.ad_id)).toEqual([ad.id]);
		expect((await pollAds(sandbox(), next.staticData)).items).toBeNull();
	});
});
