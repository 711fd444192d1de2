import {
	NodeConnectionTypes,
	type INodeProperties,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';
import { CREDENTIAL_TYPE } from '../shared/constants';
import { customOperationsOf, resourceParameter } from '../shared/operation';
import { DeclarativeNodeWithCustomOperations } from '../shared/customOperationsInToolCalls';
import { operationSubtitle } from '../shared/subtitle';
import { baseUrlExpression } from '../shared/transport/baseUrl';
import { categoryResource } from './resources/category';

const resources = [categoryResource];
import { toolDescriptionFields } from '../shared/toolDescription';
import { CATEGORY_TOOL_TEXTS } from './toolTexts';

const properties: INodeProperties[] = [
	resourceParameter(resources, 'category'),
	...toolDescriptionFields('category', CATEGORY_TOOL_TEXTS),
	...resources.flatMap((resource) => resource.properties),
];

export class AdCabinetKktu extends DeclarativeNodeWithCustomOperations implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Ad Cabinet KKTU',
		name: 'adCabinetKktu',
		icon: { light: 'file:adCabinetKktu.svg', dark: 'file:adCabinetKktu.dark.svg' },
		group: ['input'],
		version: 1,
		subtitle: operationSubtitle(properties),
		description: 'Get the KKTU ad-marking classifier of the Ad Cabinet API',
		defaults: { name: 'Ad Cabinet KKTU' },
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
}
