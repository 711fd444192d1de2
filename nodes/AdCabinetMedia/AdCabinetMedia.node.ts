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
import { mediaResource } from './resources/media';

const resources = [mediaResource];
import { toolDescriptionFields } from '../shared/toolDescription';
import { MEDIA_TOOL_TEXTS } from './toolTexts';

const properties: INodeProperties[] = [
	resourceParameter(resources, 'media'),
	...toolDescriptionFields('media', MEDIA_TOOL_TEXTS),
	...resources.flatMap((resource) => resource.properties),
];

export class AdCabinetMedia extends DeclarativeNodeWithCustomOperations implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Ad Cabinet Media',
		name: 'adCabinetMedia',
		icon: { light: 'file:adCabinetMedia.svg', dark: 'file:adCabinetMedia.dark.svg' },
		group: ['output'],
		// 1.1: Cabinet ID is picked from the cabinet list (or typed); saved version 1 nodes keep the text field.
		// 1.2: Upload takes Dry Run (the request shown, the file as its size and SHA-256, nothing sent).
		version: [1, 1.1, 1.2],
		defaultVersion: 1.2,
		subtitle: operationSubtitle(properties),
		description: 'Upload images and videos for ads to the Ad Cabinet API',
		defaults: { name: 'Ad Cabinet Media' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		requestDefaults: {
			baseURL: baseUrlExpression('client'),
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
