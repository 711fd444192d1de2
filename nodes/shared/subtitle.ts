import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

function optionsOf(property: INodeProperties): INodePropertyOptions[] {
	return (property.options ?? []) as INodePropertyOptions[];
}

/** A JSON object literal that is safe inside `{{ }}`: no `}}` can appear in it. */
function literal(map: Record<string, string>): string {
	return `{ ${Object.entries(map)
		.map(([key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}`)
		.join(', ')} }`;
}

/**
 * The node's subtitle on the canvas in words, e.g. "Get Many: Statistic", built from the option
 * names of its Resource and Operation parameters (every version's, so saved nodes read right too).
 */
export function operationSubtitle(properties: INodeProperties[]): string {
	const resources: Record<string, string> = {};
	for (const property of properties.filter((p) => p.name === 'resource')) {
		for (const option of optionsOf(property)) resources[String(option.value)] = option.name;
	}
	const words: Record<string, string> = {};
	for (const property of properties.filter((p) => p.name === 'operation')) {
		for (const resource of (property.displayOptions?.show?.resource ?? []) as string[]) {
			for (const option of optionsOf(property)) {
				words[`${resource}:${String(option.value)}`] =
					`${option.name}: ${resources[resource] ?? resource}`;
			}
		}
	}
	return `={{ (${literal(words)})[$parameter["resource"] + ":" + $parameter["operation"]] || $parameter["operation"] }}`;
}

/** A subtitle that looks one parameter's value up in a table of words, e.g. a unit's name. */
export function lookupSubtitle(
	parameter: string,
	words: Record<string, string>,
	suffix = '',
): string {
	return `={{ ((${literal(words)})[$parameter[${JSON.stringify(parameter)}]] || $parameter[${JSON.stringify(parameter)}])${suffix} }}`;
}
