import { createHash } from 'node:crypto';
import type { MultipartBody } from '../../sandbox';
import { itemsOf, listExamples, runExample } from '../../harness';
import { apiRequests, credentialsFor } from '../../harness/sandbox';
import { useSandbox } from '../support/useSandbox';

describe('example workflow audience-from-sheet.json', () => {
	const sandbox = useSandbox();

	test("runs against the sandbox and uploads the sheet's 1,100 distinct numbers, hashed", async () => {
		const example = listExamples().find((e) => e.file === 'audience-from-sheet.json');
		if (!example) throw new Error('examples/audience-from-sheet.json is missing');
		const result = await runExample(example, credentialsFor(sandbox()));
		expect(result.error).toBeUndefined();
		expect(itemsOf(result, 'One row per number')).toHaveLength(1200);
		const [output] = itemsOf(result, 'Create audience');
		expect(output.json).toMatchObject({
			title: 'Customers from sheet',
			report: { valid: 1100, duplicatesRemoved: 100, invalid: 0, hashed: true },
		});
		const requests = apiRequests(sandbox());
		expect(requests).toHaveLength(1);
		const sent = (requests[0].body as MultipartBody).files.audience.bytes
			.toString('utf8')
			.split('\n');
		const expected = Array.from(
			{ length: 1100 },
			(_, i) => `99890${String(10000000 + i).slice(1)}`,
		);
		expect(sent.sort()).toEqual(
			expected.map((n) => createHash('sha256').update(n).digest('hex')).sort(),
		);
	});
});
