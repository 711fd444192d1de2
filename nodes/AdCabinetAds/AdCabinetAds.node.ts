import {
	NodeConnectionTypes,
	type INodeProperties,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';
import { searchCabinets } from '../shared/methods/cabinets';
import { searchCampaigns } from '../shared/methods/campaigns';
import { CREDENTIAL_TYPE } from '../shared/constants';
import { customOperationsOf, resourceParameter } from '../shared/operation';
import { DeclarativeNodeWithCustomOperations } from '../shared/customOperationsInToolCalls';
import { operationSubtitle } from '../shared/subtitle';
import { searchKktu } from '../shared/kktu';
import { getAudiences, getPixelEvents } from '../shared/methods/cabinetLists';
import { baseUrlExpression } from '../shared/transport/baseUrl';
import { searchAds } from './methods/searchAds';
import { toolDescriptionFields } from '../shared/toolDescription';
import {
	AD_TOOL_TEXTS,
	BALANCE_TOOL_TEXTS,
	CABINET_TOOL_TEXTS,
	CAMPAIGN_TOOL_TEXTS,
} from './toolTexts';
import { adResource } from './resources/ad';
import { balanceResource } from './resources/balance';
import { cabinetResource } from './resources/cabinet';
import { campaignResource } from './resources/campaign';

const resources = [adResource, cabinetResource, campaignResource, balanceResource];

const properties: INodeProperties[] = [
	resourceParameter(resources, 'ad'),
	...toolDescriptionFields('ad', AD_TOOL_TEXTS),
	...toolDescriptionFields('cabinet', CABINET_TOOL_TEXTS),
	...toolDescriptionFields('campaign', CAMPAIGN_TOOL_TEXTS),
	...toolDescriptionFields('balance', BALANCE_TOOL_TEXTS),
	...resources.flatMap((resource) => resource.properties),
];

export class AdCabinetAds extends DeclarativeNodeWithCustomOperations implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Ad Cabinet Ads',
		name: 'adCabinetAds',
		icon: { light: 'file:adCabinetAds.svg', dark: 'file:adCabinetAds.dark.svg' },
		group: ['transform'],
		// 1.1: one Currency choice (the cabinet's own currency, or a code) instead of Currency plus
		// Use Cabinet Currency; saved version 1 nodes keep both fields.
		// 1.2: Cabinet ID and Ad → Create's Campaign ID are picked from the real service's lists (or
		// typed); saved 1 and 1.1 nodes keep the typed fields.
		// 1.3: Create and Update take Dry Run, money bounds, and skip a write that would duplicate an
		// ad or change nothing (Skip Identical, Skip Unchanged, on by default); older nodes write as before.
		version: [1, 1.1, 1.2, 1.3],
		defaultVersion: 1.3,
		subtitle: operationSubtitle(properties),
		description:
			'List, get, create and edit ads, validate target bots, and read cabinets, campaigns and balances in the Ad Cabinet API',
		defaults: { name: 'Ad Cabinet Ads' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		requestDefaults: {
			baseURL: baseUrlExpression('base'),
			headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
			json: true,
		},
		// A copy: n8n adds its own parameters (Request Options) to the list it is given.
		properties: [...properties],
	};

	// Operations with an execute function run from here: cabinets, campaigns and balances page by
	// offset until the API's count, which declarative routing cannot read.
	customOperations = customOperationsOf(resources);

	methods = {
		loadOptions: { getAudiences, getPixelEvents },
		listSearch: { searchAds, searchCabinets, searchCampaigns, searchKktu },
	};
}
