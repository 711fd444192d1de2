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
	const shown = given === undefined ? '' : ` (got ${shownValue(given)})`;
	const sentence = `${field}: ${rule}${shown}`;
	const message = `${/[.!?…]$/.test(sentence) ? sentence : `${sentence}.`} ${nothingSent}`;
	return new NodeOperationError(node, message, {
		itemIndex,
		description: `Fix "${field}" and run again.`,
	});
}

/**
 * A URL without what may be a secret: no user or password, no query or fragment (a signed link
 * carries its signature there), only the scheme, host and path.
 */
function redactedUrl(text: string): string {
	try {
		const url = new URL(text);
		const signed =
			/^(https?|ftps?):$/i.test(url.protocol) && (url.search !== '' || url.hash !== '');
		const login = url.username !== '' || url.password !== '';
		if (!login && !signed) return text;
		url.username = '';
		url.password = '';
		if (signed) {
			url.search = '';
			url.hash = '';
		}
		const hidden = [login ? 'user and password' : '', signed ? 'query' : '']
			.filter(Boolean)
			.join(' and ');
		return `${url.href} (${hidden} not shown)`;
	} catch {
		return text;
	}
}

/** How a refused value is quoted back: cut to 80 characters, with anything URL-like redacted. */
function shownValue(given: unknown): string {
	if (typeof given !== 'string') {
		try {
			const json = JSON.stringify(given) ?? String(given);
			return json.length > 80 ? `${json.slice(0, 80)}…` : json;
		} catch {
			return String(given);
		}
	}
	const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(given.trim()) ? redactedUrl(given.trim()) : given;
	return `"${text.length > 80 ? `${text.slice(0, 80)}…` : text}"`;
}

/**
 * A resource locator's value (From List or By ID), or the value itself when it is plain (a saved
 * text field, an expression's result).
 */
export function locatorValue(value: unknown): unknown {
	return value !== null &&
		typeof value === 'object' &&
		!Array.isArray(value) &&
		('__rl' in value || 'mode' in value)
		? (value as { value?: unknown }).value
		: value;
}

/** Splits a comma- or newline-separated text (or an array from an expression) into trimmed values. */
export function listOf(value: unknown): string[] {
	if (value === undefined || value === null || value === '') return [];
	const parts = Array.isArray(value) ? value : String(value).split(/[,\n]/);
	return parts.map((part) => String(part).trim()).filter((part) => part !== '');
}
