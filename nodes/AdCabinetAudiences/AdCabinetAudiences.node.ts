import {
	NodeConnectionTypes,
	type INodeProperties,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';
import { searchCabinets } from '../shared/methods/cabinets';
import { CREDENTIAL_TYPE } from '../shared/constants';
import { customOperationsOf, resourceParameter } from '../shared/operation';
import { DeclarativeNodeWithCustomOperations } from '../shared/customOperationsInToolCalls';
import { operationSubtitle } from '../shared/subtitle';
import { baseUrlExpression } from '../shared/transport/baseUrl';
import { audienceResource } from './resources/audience';

const resources = [audienceResource];
import { toolDescriptionFields } from '../shared/toolDescription';
import { AUDIENCE_TOOL_TEXTS } from './toolTexts';

const properties: INodeProperties[] = [
	resourceParameter(resources, 'audience'),
	...toolDescriptionFields('audience', AUDIENCE_TOOL_TEXTS),
	...resources.flatMap((resource) => resource.properties),
];

export class AdCabinetAudiences extends DeclarativeNodeWithCustomOperations implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Ad Cabinet Audiences',
		name: 'adCabinetAudiences',
		icon: { light: 'file:adCabinetAudiences.svg', dark: 'file:adCabinetAudiences.dark.svg' },
		group: ['output'],
		// 1.1: a new node opens on Get Many (a read); saved version 1 nodes keep Create.
		// 1.2: Cabinet ID is picked from the cabinet list (or typed); saved 1 and 1.1 nodes keep the text field.
		// 1.3: Create takes Dry Run (the request shown, the file as its size and SHA-256, nothing sent).
		version: [1, 1.1, 1.2, 1.3],
		defaultVersion: 1.3,
		subtitle: operationSubtitle(properties),
		description:
			'Create and list phone-number audiences of Uzbekistan cabinets in the Ad Cabinet API',
		defaults: { name: 'Ad Cabinet Audiences' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		requestDefaults: {
			baseURL: baseUrlExpression('client'),
			headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
			json: true,
		},
		// A copy: n8n adds its own parameters (Request Options) to the list it is given.
		properties: [...properties],
	};

	// Operations with an execute function (work declarative routing cannot express) run from here.
	customOperations = customOperationsOf(resources);

	methods = {
		listSearch: { searchCabinets },
	};
}
