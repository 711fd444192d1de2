import { runNode } from '../../harness';
import { credentialsFor } from '../../harness/sandbox';
import { useSandbox } from '../support/useSandbox';
import { CONTINUE_ON_FAIL_CASES as CASES } from '../support/continueOnFail';

describe('Continue On Fail: the failing item becomes an error item paired to it, the others go through', () => {
	const sandbox = useSandbox();

	test.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, testCase) => {
		const { items, error } = await runNode({
			type: testCase.type,
			parameters: testCase.parameters,
			credentials: credentialsFor(sandbox()),
			input: testCase.input,
			typeVersion: testCase.typeVersion,
			continueOnFail: true,
		});
		expect(error).toBeUndefined();
		const failed = items.filter((item) => item.json.error !== undefined);
		const passed = items.filter((item) => item.json.error === undefined);
		expect(failed).toHaveLength(1);
		expect(failed[0].pairedItem).toEqual({ item: 1 });
		expect(failed[0].json.error).toMatch(testCase.error);
		expect(passed.length).toBeGreaterThan(0);
		expect(passed.every((item) => JSON.stringify(item.pairedItem) === '{"item":0}')).toBe(true);
		// Without Continue On Fail the same input stops the node with that error.
		const stopped = await runNode({
			type: testCase.type,
			parameters: testCase.parameters,
			credentials: credentialsFor(sandbox()),
			input: testCase.input,
			typeVersion: testCase.typeVersion,
		});
		expect(stopped.error?.message).toMatch(testCase.error);
	});
});
