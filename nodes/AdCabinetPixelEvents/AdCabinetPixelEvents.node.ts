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
import { getPixelEventTypes } from '../shared/methods/cabinetLists';
import { baseUrlExpression } from '../shared/transport/baseUrl';
import { searchPixelEvents } from './methods/searchPixelEvents';
import { pixelEventResource } from './resources/pixelEvent';

const resources = [pixelEventResource];
import { toolDescriptionFields } from '../shared/toolDescription';
import { PIXEL_EVENT_TOOL_TEXTS } from './toolTexts';

const properties: INodeProperties[] = [
	resourceParameter(resources, 'pixelEvent'),
	...toolDescriptionFields('pixelEvent', PIXEL_EVENT_TOOL_TEXTS),
	...resources.flatMap((resource) => resource.properties),
];

export class AdCabinetPixelEvents extends DeclarativeNodeWithCustomOperations implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Ad Cabinet Pixel Events',
		name: 'adCabinetPixelEvents',
		icon: { light: 'file:adCabinetPixelEvents.svg', dark: 'file:adCabinetPixelEvents.dark.svg' },
		group: ['transform'],
		// 1.1: Cabinet ID is picked from the cabinet list (or typed); saved version 1 nodes keep the text field.
		// 1.2: Create, Rename and Delete take Dry Run (the request shown, nothing sent).
		version: [1, 1.1, 1.2],
		defaultVersion: 1.2,
		subtitle: operationSubtitle(properties),
		description: 'Manage the pixel tag events of an Ad Cabinet cabinet',
		defaults: { name: 'Ad Cabinet Pixel Events' },
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
		loadOptions: { getPixelEventTypes },
		listSearch: { searchCabinets, searchPixelEvents },
	};
}
