import { useSandbox } from '../support/useSandbox';
import { listedAds, pollAds, requestsByKind, setAdStatus } from '../support/adsTrigger';

describe('Ad Cabinet Ads Trigger: filters and bad input', () => {
	const sandbox = useSandbox({ platform: 'telegram', now: '2026-11-17T09:00:00Z', adCount: 150 });
	const active = () => listedAds(sandbox()).filter((ad) => ad.status === 'active');

	test('cabinets: only ads of the chosen cabinets, each change checked by one read of its detail', async () => {
		const filters = { cabinetIds: ['ACC07021'] };
		const staticData = (await pollAds(sandbox(), {}, { filters })).staticData;
		const cabinetOf = (ad: { accountId: string }) =>
			sandbox().data.cabinet(ad.accountId)?.account_id;
		const inside = active().find((ad) => cabinetOf(ad) === 'ACC07021');
		const outside = active().find((ad) => cabinetOf(ad) !== 'ACC07021');
		if (!inside || !outside) throw new Error('the seed has no ads in two cabinets');
		sandbox().clock.set(new Date('2026-11-17T09:05:00Z'));
		await setAdStatus(sandbox(), inside.id, 'stopped');
		await setAdStatus(sandbox(), outside.id, 'stopped');
		sandbox().clearLog();

		const polled = await pollAds(sandbox(), staticData, { filters });
		expect(polled.error).toBeUndefined();
		expect(polled.json.map((item) => item.ad_id)).toEqual([inside.id]);
		expect(
			requestsByKind(sandbox())
				.detail.map((request) => request.path)
				.sort(),
		).toEqual([inside.id, outside.id].sort().map((id) => `/api/advertisement/telegram/${id}`));
		// The other cabinet's change was recorded, not emitted later.
		expect((await pollAds(sandbox(), polled.staticData, { filters })).items).toBeNull();
	});

	test('campaign names and ad titles go to the API as its filters, and only their ads are emitted', async () => {
		const [ad, other] = active();
		const campaign = sandbox().data.campaign(ad.campaignId)?.name ?? '';
		const filters = { campaignNames: [campaign], advertisementTitles: [ad.fields.title] };
		const staticData = (await pollAds(sandbox(), {}, { filters })).staticData;
		const sent = requestsByKind(sandbox()).list[0].query;
		expect(sent.campaign_names).toBe(campaign);
		expect(sent.advertisement_titles).toBe(ad.fields.title);
		expect(sent.show_deleted).toBe('true');

		sandbox().clock.set(new Date('2026-11-17T09:10:00Z'));
		await setAdStatus(sandbox(), ad.id, 'on_hold');
		await setAdStatus(sandbox(), other.id, 'on_hold');
		const polled = await pollAds(sandbox(), staticData, { filters });
		expect(polled.json.map((item) => item.ad_id)).toEqual(
			other.fields.title === ad.fields.title && other.campaignId === ad.campaignId
				? [ad.id, other.id]
				: [ad.id],
		);
	});

	test('an empty cabinet list watches every cabinet and reads no detail', async () => {
		for (const cabinetIds of [[], '', '={{ [] }}']) {
			sandbox().clearLog();
			const polled = await pollAds(sandbox(), {}, { filters: { cabinetIds } });
			expect(polled.error).toBeUndefined();
			expect(requestsByKind(sandbox()).list.length).toBeGreaterThan(0);
			expect(requestsByKind(sandbox()).detail).toEqual([]);
		}
	});

	test.each([
		[
			'an unknown status',
			{ toStatuses: ['paused'] },
			'To Statuses: each must be one of active, stopped, in_review, on_hold, declined, deleted (none chosen means any status) (got "paused"). Nothing was sent to the API.',
		],
		[
			'an unknown event',
			{ event: 'adDeleted' },
			'Event: must be one of statusChanged, newAd (got "adDeleted"). Nothing was sent to the API.',
		],
		[
			'a cabinet name instead of an ID',
			{ filters: { cabinetIds: '={{ ["Berlin Cabinet"] }}' } },
			'Cabinet Names or IDs: each must be a cabinet ID',
		],
	])('%s is refused before any request', async (_name, parameters, message) => {
		const polled = await pollAds(sandbox(), {}, parameters);
		expect(polled.error?.message).toContain(message);
		expect(requestsByKind(sandbox()).all).toEqual([]);
		expect(polled.staticData['node:Node'] ?? {}).toEqual({});
	});
});
