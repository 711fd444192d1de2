import type {
	DeclarativeRestApiSettings,
	IExecuteSingleFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import type { CredentialView } from '../../../shared/auth';
import type { Operation } from '../../../shared/operation';
import type { PlatformNames } from '../../../shared/platform';
import { adIdField, readAdId } from './fields/adId';
import { recordToItem, routed } from '../../../shared/transport/routing';
import { adHint } from './hints';
import { recentAdRead } from './recentReads';

const show = { resource: ['ad'], operation: ['get'] };

const fields: INodeProperties[] = [adIdField(show)];

/** GET /api/advertisement/{platform}/{ad_id} */
async function prepareAdGet(
	this: IExecuteSingleFunctions,
	options: DeclarativeRestApiSettings.HttpRequestOptions,
	names: PlatformNames,
): Promise<void> {
	options.url = names.paths.ad(readAdId(this));
}

/**
 * In a tool call, the ad as this credential read it in the last seconds (a Get, or an Update's
 * Dry Run, Skip Unchanged or change bound) answers without a request: a model that reads an ad,
 * previews a change and applies it, or asks twice, spends one read of the ad's path instead of
 * one each time, under a limit of 10 requests a minute per path. A write through this process
 * drops the read at once. A workflow's Get always reads (and keeps what it read for a tool call).
 * The answer is kept as it came: this operation's output is the API's object unchanged.
 */
function recentAdGet(
	this: IExecuteSingleFunctions,
	options: DeclarativeRestApiSettings.HttpRequestOptions,
	_names: PlatformNames,
	credentials: CredentialView,
) {
	const recent = recentAdRead(this.getNode(), credentials, String(options.url));
	return {
		answer: recent.answer,
		keep: (items: INodeExecutionData[]) => {
			if (items.length === 1) recent.keep(items[0].json);
		},
	};
}

export const adGet: Operation = {
	option: {
		name: 'Get',
		value: 'get',
		action: 'Get an ad',
		description: 'Get the full settings of one ad',
	},
	fields,
	routing: {
		request: { method: 'GET' },
		...routed({ prepare: prepareAdGet, recent: recentAdGet, hint: adHint('get') }),
		output: { postReceive: [recordToItem()] },
	},
};
