import { viewOf } from '../../../../nodes/shared/auth';
import { NodeOperationError } from 'n8n-workflow';
import {
	baseUrlExpression,
	baseUrlFrom,
	checkResolvedBaseUrl,
} from '../../../../nodes/shared/transport/baseUrl';
import { NODE, credentials } from '../../../support/fakeContext';

/** Evaluates the expression's JavaScript as n8n would, against a `$credentials` object. */
function evaluate(expression: string, creds: Record<string, unknown>): unknown {
	const match = /^=\{\{(.*)\}\}$/.exec(expression);
	if (!match) throw new Error(`not an n8n expression: ${expression}`);
	return new Function('$credentials', `return ${match[1]};`)(creds) as unknown;
}

function refusal(run: () => unknown): NodeOperationError {
	try {
		run();
	} catch (error) {
		return error as NodeOperationError;
	}
	throw new Error('expected a refusal');
}

describe('baseUrlExpression', () => {
	test('reads the credential field of each API and drops trailing slashes', () => {
		const creds = {
			baseUrl: 'https://api.example.test///',
			clientApiUrl: 'https://client.example.test/v2/',
		};
		expect(evaluate(baseUrlExpression('base'), creds)).toBe('https://api.example.test');
		expect(evaluate(baseUrlExpression('client'), creds)).toBe('https://client.example.test/v2');
	});
});

describe('baseUrlFrom', () => {
	test('gives the credential address for each API without spaces or trailing slashes', () => {
		const creds = credentials({
			baseUrl: '  https://api.example.test/root//  ',
			clientApiUrl: 'http://127.0.0.1:5690/',
		});
		expect(baseUrlFrom(NODE, viewOf(creds), 'base')).toBe('https://api.example.test/root');
		expect(baseUrlFrom(NODE, viewOf(creds), 'client')).toBe('http://127.0.0.1:5690');
	});

	test.each([
		['ftp://files.example.test', 'ftp://files.example.test'],
		['api.example.test', 'api.example.test'],
		['https://', 'https:'],
		['https://exa mple.test', 'https://exa mple.test'],
		['', ''],
	])('refuses %j before any request, naming the credential field and the value', (given, shown) => {
		const error = refusal(() =>
			baseUrlFrom(NODE, viewOf(credentials({ baseUrl: given })), 'base', 3),
		);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe(
			`Base URL (Ad Cabinet API credential): must be an http:// or https:// address (got "${shown}"). Nothing was sent to the API.`,
		);
		expect(error.context.itemIndex).toBe(3);
	});

	test('a missing Client API URL is refused naming that field', () => {
		const creds = credentials();
		delete creds.clientApiUrl;
		expect(() => baseUrlFrom(NODE, viewOf(creds), 'client')).toThrow(
			'Client API URL (Ad Cabinet API credential): must be an http:// or https:// address (got ""). Nothing was sent to the API.',
		);
	});
});

describe('checkResolvedBaseUrl', () => {
	test('an http(s) address routing resolved passes', () => {
		expect(() =>
			checkResolvedBaseUrl(NODE, viewOf(credentials()), 'https://api.example.test', 0),
		).not.toThrow();
		expect(() =>
			checkResolvedBaseUrl(NODE, viewOf(credentials()), 'HTTP://LOCALHOST:80/x', 0),
		).not.toThrow();
	});

	test('a bad address that came from the Client API URL names that field', () => {
		const creds = credentials({ clientApiUrl: 'client.example.test/' });
		const error = refusal(() =>
			checkResolvedBaseUrl(NODE, viewOf(creds), 'client.example.test', 1),
		);
		expect(error.message).toMatch(
			/^Client API URL \(Ad Cabinet API credential\): must be an http:\/\/ or https:\/\/ address \(got "client\.example\.test"\)/,
		);
		expect(error.context.itemIndex).toBe(1);
	});

	test('any other bad address (or none) names the Base URL', () => {
		const creds = credentials({ baseUrl: 'api.example.test' });
		expect(() => checkResolvedBaseUrl(NODE, viewOf(creds), 'api.example.test', 0)).toThrow(
			/^Base URL \(Ad Cabinet API credential\)/,
		);
		expect(() => checkResolvedBaseUrl(NODE, viewOf(creds), undefined, 0)).toThrow(
			/^Base URL .*\(got ""\)/,
		);
		// An empty Client API URL resolving to "" is still reported against the Base URL.
		expect(() =>
			checkResolvedBaseUrl(NODE, viewOf(credentials({ clientApiUrl: '' })), '', 0),
		).toThrow(/^Base URL/);
	});
});
