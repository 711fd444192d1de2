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
import { getAdObjects } from '../shared/methods/adObjects';
import { getCabinets } from '../shared/methods/cabinets';
import { baseUrlExpression } from '../shared/transport/baseUrl';
import { advertisedObjectResource } from './resources/advertisedObject';
import { legacyReportResource } from './resources/legacyReport';
import { statisticResource } from './resources/statistic';
import { toolDescriptionFields } from '../shared/toolDescription';
import {
	STATISTIC_TOOL_TEXTS,
	LEGACY_REPORT_TOOL_TEXTS,
	ADVERTISED_OBJECT_TOOL_TEXTS,
} from './toolTexts';

const resources = [statisticResource, legacyReportResource, advertisedObjectResource];

const properties: INodeProperties[] = [
	// Version 1 offers the Legacy Report, which the API switched off; saved version 1 nodes keep it
	// (and still run it), while from 1.1 a new node no longer offers it.
	resourceParameter(resources, 'statistic', { show: { '@version': [1] } }),
	resourceParameter([statisticResource, advertisedObjectResource], 'statistic', {
		hide: { '@version': [1] },
	}),
	...toolDescriptionFields('statistic', STATISTIC_TOOL_TEXTS),
	...toolDescriptionFields('legacyReport', LEGACY_REPORT_TOOL_TEXTS),
	...toolDescriptionFields('advertisedObject', ADVERTISED_OBJECT_TOOL_TEXTS),
	...resources.flatMap((resource) => resource.properties),
];

export class AdCabinetStats extends DeclarativeNodeWithCustomOperations implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Ad Cabinet Stats',
		name: 'adCabinetStats',
		icon: { light: 'file:adCabinetStats.svg', dark: 'file:adCabinetStats.dark.svg' },
		group: ['input'],
		// 1.1: the Legacy Report is no longer offered to new nodes.
		// 1.2: every statistics row carries row_key; the cabinet filter is a list of the cabinets.
		version: [1, 1.1, 1.2],
		defaultVersion: 1.2,
		subtitle: operationSubtitle(properties),
		description: 'Get ad statistics and the advertised objects from the Ad Cabinet API',
		defaults: { name: 'Ad Cabinet Stats' },
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

	// Operations with an execute function (work declarative routing cannot express) run from here.
	customOperations = customOperationsOf(resources);

	methods = {
		loadOptions: { getAdObjects, getCabinets },
	};
}
