import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { runAsTool, runNode } from '../../harness';
import { apiRequests, credentialsFor } from '../../harness/sandbox';
import { cabinetIdIn } from '../../sandbox';
import { FRESH_AD_READ_MS, recentAdReads } from '../../nodes/AdCabinetAds/resources/ad/recentReads';
import { AD_PATH, locator } from '../support/adFixtures';
import { useSandbox } from '../support/useSandbox';

/**
 * Under a limit of 10 requests a minute per path, a model's "read the ad, preview the change, apply
 * it" should cost one read of the ad, not one per step: a read of the ad by the same credential in
 * the last seconds serves the tool calls that follow, until a write to the ad.
 */
const NOW = '2026-11-20T12:00:00.000Z';
const DE = cabinetIdIn('telegram', '100002');
const fromAI = (key: string, type = 'string') => `={{ $fromAI('${key}', '${key}', '${type}') }}`;

describe('Ads → Ad: a fresh read of an ad serves the tool calls that follow', () => {
	const sandbox = useSandbox({ platform: 'telegram', now: NOW });
	const credentials = () => credentialsFor(sandbox());
	beforeEach(() => recentAdReads.reset());

	const activeAd = () => {
		const ad = sandbox().data.ads.find((a) => a.status === 'active' && a.accountId === DE);
		if (!ad) throw new Error('no active ad');
		return { id: ad.id, cpm: Number(sandbox().data.adDetail(ad.id)?.cpm) };
	};
	/** The requests that reached the sandbox on the ad's own path, as `METHOD` words in order. */
	const onAdPath = (id: number) =>
		apiRequests(sandbox())
			.filter((r) => r.path === `${AD_PATH.telegram}${id}`)
			.map((r) => r.method);

	const GET: INodeParameters = { resource: 'ad', operation: 'get', adId: locator(fromAI('Ad_ID')) };
	const update = (dryRun: boolean): INodeParameters => ({
		resource: 'ad',
		operation: 'update',
		adId: locator(fromAI('Ad_ID')),
		updateFields: { cpm: fromAI('CPM', 'number') },
		options: { cpmMin: 0.5, cpmMax: 10, maxChangePercent: 50, skipUnchanged: true, dryRun },
	});
	const tool = (parameters: INodeParameters, args: IDataObject, credentialId?: string) =>
		runAsTool({
			type: 'adCabinetAds',
			typeVersion: 1.3,
			parameters,
			credentials: credentials(),
			calls: [args],
			credentialId,
		});
	const only = (run: Awaited<ReturnType<typeof tool>>) => {
		const [call] = run.calls;
		expect(call.error).toBeUndefined();
		return call.result?.[0] as IDataObject;
	};

	test('as tools, Get then Dry Run then Update reach the API as 1 GET and 1 PUT (3 GETs and 1 PUT without the reuse)', async () => {
		const { id, cpm } = activeAd();
		const asked = Math.round(cpm * 110) / 100;
		const args = { Ad_ID: String(id), CPM: asked };

		const got = only(await tool(GET, args));
		expect(got).toMatchObject({ ad_id: id });
		expect(Number(got.cpm)).toBe(cpm);
		const preview = only(await tool(update(true), args));
		expect(preview).toMatchObject({ dryRun: true, changes: { cpm: { from: cpm, to: asked } } });
		const applied = only(await tool(update(false), args));
		expect(applied.skipped).toBeUndefined();

		expect(onAdPath(id)).toEqual(['GET', 'PUT']);
		expect(Number(sandbox().data.adDetail(id)?.cpm)).toBe(asked);
	});

	test('as workflow nodes, the same steps read the ad before the preview and right before the write', async () => {
		const { id, cpm } = activeAd();
		const asked = Math.round(cpm * 110) / 100;
		const input = [{ Ad_ID: String(id), CPM: asked }];
		const plain = (parameters: INodeParameters) => {
			const values = JSON.parse(
				JSON.stringify(parameters)
					.replace(fromAI('Ad_ID'), '={{ $json.Ad_ID }}')
					.replace(fromAI('CPM', 'number'), '={{ $json.CPM }}'),
			) as INodeParameters;
			return runNode({
				type: 'adCabinetAds',
				typeVersion: 1.3,
				parameters: values,
				credentials: credentials(),
				input,
			});
		};
		for (const step of [GET, update(true), update(false)]) {
			const { error } = await plain(step);
			expect(error).toBeUndefined();
		}
		expect(onAdPath(id)).toEqual(['GET', 'GET', 'GET', 'PUT']);
		expect(Number(sandbox().data.adDetail(id)?.cpm)).toBe(asked);
	});

	test('a Get after an Update asks the API again and shows the new value', async () => {
		const { id, cpm } = activeAd();
		const asked = Math.round(cpm * 90) / 100;
		const args = { Ad_ID: String(id), CPM: asked };
		only(await tool(GET, args));
		only(await tool(update(false), args));
		const after = only(await tool(GET, args));
		expect(Number(after.cpm)).toBe(asked);
		expect(onAdPath(id)).toEqual(['GET', 'PUT', 'GET']);
	});

	test('a read is not shared with another credential, nor kept past its few seconds', async () => {
		const { id } = activeAd();
		const args = { Ad_ID: String(id) };
		only(await tool(GET, args, 'cred-1'));
		only(await tool(GET, args, 'cred-2'));
		expect(onAdPath(id)).toEqual(['GET', 'GET']);
		only(await tool(GET, args, 'cred-1'));
		only(await tool(GET, args, 'cred-2'));
		expect(onAdPath(id)).toEqual(['GET', 'GET']);

		recentAdReads.age(FRESH_AD_READ_MS + 1);
		only(await tool(GET, args, 'cred-1'));
		expect(onAdPath(id)).toEqual(['GET', 'GET', 'GET']);
	});

	test('a Get in a workflow always asks the API, and its answer serves a tool call that follows', async () => {
		const { id } = activeAd();
		const plainGet = () =>
			runNode({
				type: 'adCabinetAds',
				typeVersion: 1.3,
				parameters: { resource: 'ad', operation: 'get', adId: locator(String(id)) },
				credentials: credentials(),
			});
		expect((await plainGet()).error).toBeUndefined();
		expect((await plainGet()).error).toBeUndefined();
		expect(onAdPath(id)).toEqual(['GET', 'GET']);
		const viaTool = only(await tool(GET, { Ad_ID: String(id) }));
		expect(viaTool.ad_id).toBe(id);
		expect(onAdPath(id)).toEqual(['GET', 'GET']);
	});
});
