/**
 * How many files a maintainer opens to follow one request from the node file to the wire. The path
 * is read from the call stack at the moment n8n's request helper asks the credential to sign the
 * request: every file of the package on that stack, plus the files that lead to it without being
 * on it (the node file, the resource's index that lists the operation, `operation.ts` that turns the
 * operation's execute into the node's custom operation, and the operation's own file). A change that
 * threads a request through more files fails here, with the files in the message.
 */
import { basename } from 'node:path';
import type { INodeParameters } from 'n8n-workflow';
import { runNode } from '../../harness';
import { HarnessCredentialsHelper } from '../../harness/credentialsHelper';
import { credentialsFor } from '../../harness/sandbox';
import { minimalCreate } from '../support/adFixtures';
import { useSandbox } from '../support/useSandbox';

const MOST_FILES = 12;

let stacks: string[] = [];
const authenticate = HarnessCredentialsHelper.prototype.authenticate;
beforeAll(() => {
	HarnessCredentialsHelper.prototype.authenticate = function (
		...args: Parameters<typeof authenticate>
	) {
		const limit = Error.stackTraceLimit;
		Error.stackTraceLimit = 200;
		stacks.push(new Error().stack ?? '');
		Error.stackTraceLimit = limit;
		return authenticate.apply(this, args);
	};
});
afterAll(() => {
	HarnessCredentialsHelper.prototype.authenticate = authenticate;
});

/** The package's files on the stack of the last request, from the wire back to the operation. */
function filesOnStack(): string[] {
	const files: string[] = [];
	for (const line of (stacks.at(-1) ?? '').split('\n')) {
		const match = /[(\s](\/[^():]+\/((?:nodes|credentials)\/[^():]+\.ts)):\d+/.exec(line);
		if (match && !files.includes(match[2])) files.push(match[2]);
	}
	return files;
}

interface Path {
	node: string;
	resource: string;
	operation: string;
}

function followed({ node, resource, operation }: Path): string[] {
	const leading = [
		`nodes/${node}/${node}.node.ts`,
		`nodes/${node}/resources/${resource}/index.ts`,
		`nodes/${node}/resources/${resource}/${operation}.ts`,
		'nodes/shared/operation.ts',
	];
	return [...new Set([...leading, ...filesOnStack().reverse()])];
}

describe('following one request from the node file to the wire', () => {
	const sandbox = useSandbox();
	beforeEach(() => {
		stacks = [];
	});

	const cases: Array<{
		name: string;
		path: Path;
		type: string;
		parameters: () => INodeParameters;
	}> = [
		{
			name: 'Stats → Statistic → Get Many with Return All',
			path: { node: 'AdCabinetStats', resource: 'statistic', operation: 'getAll' },
			type: 'adCabinetStats',
			parameters: () => ({
				resource: 'statistic',
				operation: 'getAll',
				period: 'custom',
				periodFrom: '2026-11-01T00:00:00Z',
				periodTo: '2026-11-10T23:59:59Z',
				periodGroupingUnit: 'day',
				grouping: ['campaign'],
				currency: 'EUR',
				returnAll: true,
				filters: {},
				options: {},
			}),
		},
		{
			name: 'Ads → Ad → Create',
			path: { node: 'AdCabinetAds', resource: 'ad', operation: 'create' },
			type: 'adCabinetAds',
			parameters: () => minimalCreate(),
		},
		{
			name: 'Audiences → Audience → Create from a list',
			path: { node: 'AdCabinetAudiences', resource: 'audience', operation: 'create' },
			type: 'adCabinetAudiences',
			parameters: () => ({
				resource: 'audience',
				operation: 'create',
				accountId: 'ACC06163',
				title: 'Followed',
				source: 'list',
				phoneNumbers: Array.from({ length: 1000 }, (_, i) => `+9989012${10000 + i}`).join(','),
			}),
		},
	];

	test.each(cases)('$name opens at most 12 files', async ({ path, type, parameters }) => {
		const { error } = await runNode({
			type,
			parameters: parameters(),
			credentials: credentialsFor(sandbox()),
		});
		expect(error).toBeUndefined();
		expect(stacks.length).toBeGreaterThan(0);
		const files = followed(path);
		// The operation's own execute or routing is on the path, and the one place a request leaves.
		expect(files).toContain('nodes/shared/transport/send.ts');
		const listed = files.map((file) => basename(file)).join(' → ');
		if (files.length > MOST_FILES)
			throw new Error(`${files.length} files to follow, at most ${MOST_FILES}: ${listed}`);
		if (process.env.SHOW_REQUEST_PATH) console.log(`${files.length} files: ${files.join(' → ')}`);
		expect(files.length).toBeLessThanOrEqual(MOST_FILES);
	});
});
