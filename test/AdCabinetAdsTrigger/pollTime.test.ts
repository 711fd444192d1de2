import type { IDataObject } from 'n8n-workflow';
import type { AdsTriggerState } from '../../nodes/AdCabinetAdsTrigger/adState';
import type { Sandbox } from '../../sandbox';
import { useSandbox } from '../support/useSandbox';
import { addAdLike, listedAds, pollAds, requestsByKind, setAdStatus } from '../support/adsTrigger';

/** How long each page of the ad list takes by the node's clock: two pages outlast a poll's 45 s. */
const PAGE_MS = 30_000;
const BASE_MS = Date.parse('2026-11-17T09:00:00Z');

/** The trigger's state in the workflow's static data (n8n keeps a node's under `node:<name>`). */
const stateOf = (staticData: IDataObject) =>
	(staticData['node:Node'] as IDataObject).adCabinetAds as unknown as AdsTriggerState;

/** The ads in the order the API lists them (by id). */
const inListOrder = (sandbox: Sandbox) => [...listedAds(sandbox)].sort((a, b) => a.id - b.id);

describe('Ad Cabinet Ads Trigger: a poll that cannot read the whole list within its time', () => {
	const sandbox = useSandbox({ now: '2026-11-17T09:00:00Z', adCount: 900 });
	/** Ad list pages the sandbox has answered since the test began. */
	let pagesServed = 0;
	const listPages = () =>
		requestsByKind(sandbox()).list.filter((request) => request.status === 200);

	beforeEach(() => {
		// The node's clock is a count of pages: each page answered moves it PAGE_MS on, so the test
		// never waits and does not depend on how fast the machine is.
		pagesServed = 0;
		let counted = 0;
		jest.spyOn(Date, 'now').mockImplementation(() => {
			const served = listPages().length;
			if (served > counted) {
				pagesServed += served - counted;
				counted = served;
			} else if (served < counted) counted = served; // the log was cleared
			return BASE_MS + pagesServed * PAGE_MS;
		});
	});
	afterEach(() => jest.restoreAllMocks());

	test('it keeps its place, the next poll reads on from there, and each change is emitted once', async () => {
		const like = listedAds(sandbox())[0];
		while (listedAds(sandbox()).length < 1_200) addAdLike(sandbox(), like);
		// 1,200 ads: pages of 500, 500 and 200. A poll reads two pages (60 s by its clock) and stops.
		const ads = inListOrder(sandbox());
		expect(ads.length).toBe(1_200);
		let staticData: IDataObject = {};
		const offsets: number[][] = [];
		const poll = async () => {
			sandbox().clearLog();
			const result = await pollAds(sandbox(), staticData);
			expect(result.error).toBeUndefined();
			offsets.push(listPages().map((request) => Number(request.query.offset)));
			staticData = JSON.parse(JSON.stringify(result.staticData)) as IDataObject;
			return result.json.map((item) => [item.ad_id, item.status, item.previous_status]);
		};

		// The first pass records every ad, in two polls; the first stops at 1,000 after two pages.
		expect(await poll()).toEqual([]);
		expect(stateOf(staticData).o).toBe(1_000);
		expect(await poll()).toEqual([]);
		expect(stateOf(staticData).o).toBeUndefined();

		// Changes on each page, one of them among the 50 ads the next poll reads again.
		const [first, second, overlap, last, later] = [10, 700, 980, 1_100, 20].map((i) => ({
			id: ads[i].id,
			status: ads[i].status as string,
		}));
		for (const ad of [first, second, overlap, last]) await setAdStatus(sandbox(), ad.id, 'on_hold');
		// Out of time after two pages: the changes on them are emitted and the place is kept.
		expect(await poll()).toEqual([
			[first.id, 'on_hold', first.status],
			[second.id, 'on_hold', second.status],
			[overlap.id, 'on_hold', overlap.status],
		]);
		expect(stateOf(staticData).o).toBe(1_000);
		// A change on a page this pass has read already waits for the next pass.
		await setAdStatus(sandbox(), later.id, 'declined', [{ reason: 'r' }]);
		// The next poll reads on (50 ads back, so the overlap is read again but not emitted again).
		expect(await poll()).toEqual([[last.id, 'on_hold', last.status]]);
		expect(stateOf(staticData).o).toBeUndefined();
		expect(await poll()).toEqual([[later.id, 'declined', later.status]]);
		expect(await poll()).toEqual([]);
		expect(await poll()).toEqual([]);
		expect(await poll()).toEqual([]);

		// Where each poll read: two pages from 0, then on from 50 before its place.
		expect(offsets).toEqual([[0, 500], [950], [0, 500], [950], [0, 500], [950], [0, 500], [950]]);
	});
});
