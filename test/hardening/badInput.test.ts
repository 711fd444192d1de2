import { pollOnce, runNode } from '../../harness';
import { apiRequests, credentialsFor } from '../../harness/sandbox';
import { useSandbox } from '../support/useSandbox';
import { BAD_INPUTS } from '../support/badInputs';

function inputErrorClass(
	error: (Error & { httpCode?: string | null }) | undefined,
): string | undefined {
	return error?.name === 'NodeApiError' && error.httpCode === 'none'
		? 'NodeOperationError'
		: error?.name;
}

describe('bad input is refused before any request, naming the field and the rule', () => {
	const sandbox = useSandbox();

	test('the table covers at least 40 inputs across the nodes', () => {
		expect(BAD_INPUTS.length).toBeGreaterThanOrEqual(40);
		expect(new Set(BAD_INPUTS.map((c) => c.type)).size).toBeGreaterThanOrEqual(6);
	});

	test.each(BAD_INPUTS.map((c) => [c.name, c] as const))('%s', async (_name, bad) => {
		const credentials = { ...credentialsFor(sandbox()), ...(bad.credentials ?? {}) };
		let error: (Error & { description?: string; httpCode?: string | null }) | undefined;
		if (bad.trigger) {
			({ error } = await pollOnce({
				type: bad.type,
				typeVersion: bad.typeVersion,
				parameters: bad.parameters,
				credentials,
				staticData: {},
			}));
		} else {
			const result = await runNode({
				type: bad.type,
				typeVersion: bad.typeVersion,
				parameters: bad.parameters,
				credentials,
				input: bad.input,
			});
			error = result.error;
			expect(result.items).toHaveLength(0);
		}
		expect(inputErrorClass(error)).toBe('NodeOperationError');
		expect(error?.message).toMatch(bad.message);
		expect(error?.message).toContain('Nothing was sent to the API');
		expect(apiRequests(sandbox())).toHaveLength(0);
	});
});
