import { itemsOf, listExamples, runExample } from '../../harness';
import { apiRequests, credentialsFor } from '../../harness/sandbox';
import { useSandbox } from '../support/useSandbox';

describe('examples/create-ads-from-sheet.json', () => {
	const sandbox = useSandbox();

	test('creates one ad per sheet row with its title, text and URL, and the KKTU code as its id', async () => {
		const example = listExamples().find((e) => e.file === 'create-ads-from-sheet.json');
		if (!example) throw new Error('create-ads-from-sheet.json is missing');
		const result = await runExample(example, credentialsFor(sandbox()));
		expect(result.error).toBeUndefined();
		const rows = itemsOf(result, 'One row per creative').map((item) => item.json);
		expect(rows).toHaveLength(3);
		const ads = itemsOf(result, 'Create ad').map((item) => item.json);
		const leaf = sandbox()
			.data.kktuIdsAtLevel(3)
			.find((id) => sandbox().data.kktuNode(id)?.code === '2.1.1');
		expect(
			ads.map((ad) => [ad.title, ad.text, ad.promote_url, ad.campaign_id, ad.kktu_ids]),
		).toEqual(rows.map((row) => [row.title, row.text, row.url, 2201, [leaf]]));
		for (const ad of ads) expect(sandbox().data.adDetail(ad.ad_id as number)).toEqual(ad);
		const log = apiRequests(sandbox());
		expect(
			log.filter((r) => r.method === 'POST').map((r) => (r.body as { title: string }).title),
		).toEqual(rows.map((row) => row.title));
		expect(log.filter((r) => r.path === '/api/kktu')).toHaveLength(1);
	});
});
