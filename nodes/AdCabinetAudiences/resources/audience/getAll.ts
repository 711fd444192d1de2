import type {
	DeclarativeRestApiSettings,
	IExecuteSingleFunctions,
	INodeProperties,
} from 'n8n-workflow';
import type { Operation } from '../../../shared/operation';
import { cabinetIdFields, readCabinetId } from '../../../shared/cabinetId';
import type { PlatformNames } from '../../../shared/platform';
import type { Failure } from '../../../shared/transport/apiFailure';
import { AUDIENCE_CABINET_TYPED_IN, audienceHint } from './hints';
import { readLimit, returnAllFields } from '../../../shared/returnAll';
import { listToItems, routed } from '../../../shared/transport/routing';

const show = { resource: ['audience'], operation: ['getAll'] };

const fields: INodeProperties[] = [
	...cabinetIdFields(
		show,
		AUDIENCE_CABINET_TYPED_IN,
		'The cabinet (account) ID; audiences exist only for cabinets in Uzbekistan',
	),
	...returnAllFields(show, { returnAllByDefault: true, cutOutputToLimit: true }),
];

/** GET /api/advertisement/{platform}/{account_id}/audiences/ */
async function prepareAudienceGetAll(
	this: IExecuteSingleFunctions,
	options: DeclarativeRestApiSettings.HttpRequestOptions,
	names: PlatformNames,
): Promise<void> {
	const accountId = readCabinetId(
		this.getNode(),
		this.getNodeParameter('accountId', ''),
		this.getItemIndex(),
	);
	readLimit(this.getNode(), this.getItemIndex(), (name) =>
		this.getNodeParameter(name, name === 'returnAll' ? true : 50),
	);
	options.url = names.paths.audiencesList(accountId);
}

function audienceGetAllHint(this: IExecuteSingleFunctions, failure: Failure): string | undefined {
	const accountId = String(this.getNodeParameter('accountId', '')).trim();
	return audienceHint(accountId)(failure);
}

export const audienceGetAll: Operation = {
	option: {
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many audiences',
		description: "List a cabinet's phone-number audiences",
	},
	fields,
	routing: {
		// The path names the cabinet: prepareAudienceGetAll writes it.
		request: { method: 'GET' },
		...routed({ prepare: prepareAudienceGetAll, hint: audienceGetAllHint }),
		output: { postReceive: [listToItems(['items', 'data', 'results'])] },
	},
};
