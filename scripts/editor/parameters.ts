/**
 * The parameters a node's panel shows for its default operation, derived from the node type
 * description n8n serves (/types/nodes.json): every property whose display options hold for the
 * default values of the properties before it, as n8n fills a node added with no parameters set.
 */

interface ServedProperty {
	name: string;
	displayName: string;
	type: string;
	default?: unknown;
	required?: boolean;
	displayOptions?: {
		show?: Record<string, unknown[]>;
		hide?: Record<string, unknown[]>;
	};
}

export interface ServedNodeDescription {
	name: string;
	displayName: string;
	version: number | number[];
	iconUrl?: string | { light: string; dark: string };
	properties: ServedProperty[];
}

/** Property types the panel renders as one input with `data-test-id="parameter-input-<name>"`. */
const SINGLE_INPUT_TYPES = new Set([
	'resourceLocator',
	'options',
	'multiOptions',
	'string',
	'number',
	'boolean',
	'dateTime',
	'color',
	'json',
]);

/** Property types that are text or groups of optional fields, not an input of their own. */
const NOT_AN_INPUT = new Set(['notice', 'callout', 'collection', 'fixedCollection', 'hidden']);

interface MainParameter {
	name: string;
	displayName: string;
	type: string;
	/** Why it is expected: resource/operation, required, or a visible input of the default operation. */
	reason: 'resource/operation' | 'required' | 'visible';
}

export function latestVersion(description: ServedNodeDescription): number {
	return Array.isArray(description.version)
		? Math.max(...description.version)
		: description.version;
}

function matches(value: unknown, allowed: unknown[], property: string, key: string): boolean {
	for (const entry of allowed) {
		if (entry !== null && typeof entry === 'object') {
			throw new Error(
				`"${property}" shows on a condition object for "${key}" (${JSON.stringify(entry)}), which this check does not evaluate`,
			);
		}
	}
	return Array.isArray(value) ? value.some((v) => allowed.includes(v)) : allowed.includes(value);
}

function isShown(
	property: ServedProperty,
	values: Record<string, unknown>,
	version: number,
): boolean {
	const { show, hide } = property.displayOptions ?? {};
	const valueOf = (key: string) => (key === '@version' ? version : values[key.replace(/^\//, '')]);
	for (const [key, allowed] of Object.entries(show ?? {})) {
		if (!matches(valueOf(key), allowed, property.name, key)) return false;
	}
	for (const [key, hidden] of Object.entries(hide ?? {})) {
		if (matches(valueOf(key), hidden, property.name, key)) return false;
	}
	return true;
}

/**
 * The inputs the panel must show for a node with `parameters` set (none: a node just added):
 * resource and operation, the required parameters, and every other single-input parameter of the
 * chosen (or default) operation.
 */
export function mainParameters(
	description: ServedNodeDescription,
	parameters: Record<string, unknown> = {},
): MainParameter[] {
	const version = latestVersion(description);
	const values: Record<string, unknown> = {};
	const decided = new Set<string>();
	const shown: ServedProperty[] = [];
	for (const property of description.properties) {
		if (decided.has(property.name) || !isShown(property, values, version)) continue;
		decided.add(property.name);
		values[property.name] =
			property.name in parameters ? parameters[property.name] : property.default;
		shown.push(property);
	}
	const main: MainParameter[] = [];
	for (const property of shown) {
		if (NOT_AN_INPUT.has(property.type) && !property.required) continue;
		if (!SINGLE_INPUT_TYPES.has(property.type)) {
			throw new Error(
				`"${property.name}" (${property.type}) is shown by default and has no known input selector`,
			);
		}
		const reason = ['resource', 'operation'].includes(property.name)
			? 'resource/operation'
			: property.required
				? 'required'
				: 'visible';
		main.push({
			name: property.name,
			displayName: property.displayName,
			type: property.type,
			reason,
		});
	}
	return main;
}
