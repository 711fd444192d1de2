import type { IDataObject, INodeParameters } from 'n8n-workflow';
import type { Sandbox } from '../../sandbox';
import { pollOnce } from '../../harness';
import {
	apiRequests,
	credentialsFor,
	type SandboxCredential,
	type SignInCredential,
} from '../../harness/sandbox';

/** The Ads Trigger's parameters as a test gives them, over its defaults. */
function adsTriggerParams(parameters: INodeParameters = {}): INodeParameters {
	return { event: 'statusChanged', toStatuses: [], filters: {}, ...parameters };
}

/** One poll of the Ads Trigger; the caller keeps the static data between polls, as n8n does. */
export async function pollAds(
	sandbox: Sandbox,
	staticData: IDataObject,
	parameters: INodeParameters = {},
	options: {
		mode?: 'trigger' | 'manual';
		credentials?: SandboxCredential | SignInCredential;
	} = {},
) {
	const result = await pollOnce({
		type: 'adCabinetAdsTrigger',
		parameters: adsTriggerParams(parameters),
		credentials: options.credentials ?? credentialsFor(sandbox),
		staticData,
		mode: options.mode,
	});
	return { ...result, json: (result.items ?? []).map((item) => item.json) };
}

/** Sets an ad's status through the sandbox's control endpoint, as a test of moderation would. */
export async function setAdStatus(
	sandbox: Sandbox,
	adId: number,
	status: string,
	declineReason?: IDataObject[],
): Promise<void> {
	const response = await fetch(`http://127.0.0.1:${sandbox.port}/__sandbox/ads/${adId}/status`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(
			declineReason === undefined ? { status } : { status, decline_reason: declineReason },
		),
	});
	if (response.status !== 200) throw new Error(`status control answered ${response.status}`);
}

/** The ads of the permitted cabinets the list shows now, deleted ones included. */
export function listedAds(sandbox: Sandbox) {
	const now = sandbox.data.nowMs();
	return sandbox.data.ads.filter(
		(ad) => ad.createdAt <= now && sandbox.data.cabinet(ad.accountId)?.permitted === true,
	);
}

/** A copy of a listed ad as a new ad, created now by the sandbox's clock. */
export function addAdLike(sandbox: Sandbox, like = listedAds(sandbox)[0]) {
	const now = sandbox.data.nowMs();
	const ad = {
		...structuredClone(like),
		id: sandbox.data.nextAdId(),
		status: 'in_review' as const,
		createdAt: now,
		statusUpdatedAt: now,
	};
	sandbox.data.addAd(ad);
	return ad;
}

/** The API requests a poll sent, by kind: ad list pages and ad details. */
export function requestsByKind(sandbox: Sandbox) {
	const requests = apiRequests(sandbox);
	const list = requests.filter((request) => request.path.startsWith('/api/v2/advertisement'));
	return { list, detail: requests.filter((request) => !list.includes(request)), all: requests };
}
