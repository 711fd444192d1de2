import type { IDataObject } from 'n8n-workflow';
import { useSandbox } from '../support/useSandbox';
import { listedAds, pollAds, requestsByKind, setAdStatus } from '../support/adsTrigger';

describe('Ad Cabinet Ads Trigger: one poll of a trigger at a time', () => {
	const sandbox = useSandbox({ now: '2026-11-17T09:00:00Z', adCount: 120 });
	afterEach(() => {
		sandbox().data.answerDelayMs = 0;
	});

	test('a poll that starts while the previous one is under way sends nothing and emits nothing; the change comes once', async () => {
		const staticData: IDataObject = (await pollAds(sandbox(), {})).staticData;
		const [ad] = listedAds(sandbox()).filter((a) => a.status === 'active');
		await setAdStatus(sandbox(), ad.id, 'declined', [{ reason: 'z' }]);
		sandbox().clearLog();
		// A slow API keeps the first poll under way while the second starts.
		sandbox().data.answerDelayMs = 300;
		const first = pollAds(sandbox(), staticData);
		const second = await pollAds(sandbox(), staticData);
		const firstDone = await first;

		expect(second.error).toBeUndefined();
		expect(second.items).toBeNull();
		expect(firstDone.json.map((item) => item.ad_id)).toEqual([ad.id]);
		// One list page and one detail: every request came from the first poll.
		expect(requestsByKind(sandbox()).all.length).toBe(2);
		sandbox().data.answerDelayMs = 0;
		expect((await pollAds(sandbox(), firstDone.staticData)).items).toBeNull();
	});
});
