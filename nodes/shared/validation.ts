import { NodeOperationError, type INode } from 'n8n-workflow';

/**
 * The one shape of every input error: the field as the user sees it, the rule it broke, what was
 * given, and that nothing was sent (so correcting and repeating is safe). Raised before any request
 * to the API; `nothingSent` words that last sentence where another server was asked first.
 */
export function invalidInput(
	node: INode,
	field: string,
	rule: string,
	itemIndex = 0,
	given?: unknown,
	nothingSent = 'Nothing was sent to the API.',
): NodeOperationError {
	const shown =
		given === undefined
			? ''
			: ` (got ${typeof given === 'string' ? `"${given.length > 80 ? `${given.slice(0, 80)}…` : given}"` : JSON.stringify(given)})`;
	const sentence = `${field}: ${rule}${shown}`;
	const message = `${/[.!?…]$/.test(sentence) ? sentence : `${sentence}.`} ${nothingSent}`;
	return new NodeOperationError(node, message, {
		itemIndex,
		description: `Fix "${field}" and run again.`,
	});
}

/** Splits a comma- or newline-separated text (or an array from an expression) into trimmed values. */
export function listOf(value: unknown): string[] {
	if (value === undefined || value === null || value === '') return [];
	const parts = Array.isArray(value) ? value : String(value).split(/[,\n]/);
	return parts.map((part) => String(part).trim()).filter((part) => part !== '');
}
