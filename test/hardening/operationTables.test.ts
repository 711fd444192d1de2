import type { INodeParameters, INodeProperties, INodeType } from 'n8n-workflow';
import { AdCabinetAds } from '../../nodes/AdCabinetAds/AdCabinetAds.node';
import { AdCabinetAudiences } from '../../nodes/AdCabinetAudiences/AdCabinetAudiences.node';
import { AdCabinetKktu } from '../../nodes/AdCabinetKktu/AdCabinetKktu.node';
import { AdCabinetMedia } from '../../nodes/AdCabinetMedia/AdCabinetMedia.node';
import { AdCabinetPixelEvents } from '../../nodes/AdCabinetPixelEvents/AdCabinetPixelEvents.node';
import { AdCabinetStats } from '../../nodes/AdCabinetStats/AdCabinetStats.node';
import { AdCabinetStatsTrigger } from '../../nodes/AdCabinetStatsTrigger/AdCabinetStatsTrigger.node';
import { AdCabinetAdsTrigger } from '../../nodes/AdCabinetAdsTrigger/AdCabinetAdsTrigger.node';
import { BAD_INPUTS } from '../support/badInputs';
import { CONTINUE_ON_FAIL_CASES } from '../support/continueOnFail';

/**
 * Every operation a node offers is in the table of bad inputs (each refused before sending) and in
 * the Continue On Fail table, so a new operation cannot ship without both. The operations are read
 * from the node descriptions themselves, not from a list that could fall behind them.
 */
const NODES: Array<new () => INodeType> = [
	AdCabinetStats,
	AdCabinetAds,
	AdCabinetMedia,
	AdCabinetKktu,
	AdCabinetPixelEvents,
	AdCabinetAudiences,
];

/**
 * Operations the Continue On Fail table cannot hold, each with the reason. Most take no
 * parameters, so every item sends the same request and no input makes one item fail while another
 * succeeds; what they do under failure is covered by the fault suites (faults.test.ts,
 * apiHostility.test.ts).
 */
const CONTINUE_ON_FAIL_EXEMPT = new Set([
	// The table runs each case twice (with and without Continue On Fail), and an event can be
	// deleted once; its Continue On Fail is tested in test/AdCabinetPixelEvents/pixelEvents.test.ts.
	'adCabinetPixelEvents pixelEvent delete',
	// The event types of the account: no parameters.
	'adCabinetPixelEvents pixelEvent getTypes',
	// The whole KKTU tree: no parameters.
	'adCabinetKktu category getTree',
	// The account's balances: no parameters.
	'adCabinetAds balance get',
]);

/** `<node type> <resource> <operation>` for every option of every Operation parameter. */
function operationsOf(Node: new () => INodeType): string[] {
	const { name, properties } = new Node().description;
	return properties
		.filter((property: INodeProperties) => property.name === 'operation')
		.flatMap((property) =>
			((property.displayOptions?.show?.resource ?? []) as string[]).flatMap((resource) =>
				(property.options ?? []).map(
					(option) => `${name} ${resource} ${String((option as { value: string }).value)}`,
				),
			),
		);
}

const keyOf = (type: string, parameters: INodeParameters) =>
	`${type} ${String(parameters.resource)} ${String(parameters.operation)}`;

const OPERATIONS = [...new Set(NODES.flatMap(operationsOf))].sort();

describe('every operation is in the hardening tables', () => {
	it('reads the operations from the descriptions', () => {
		// Stats 3, Ads 9, Media 1, KKTU 2, Pixel Events 6, Audiences 2.
		expect(OPERATIONS).toHaveLength(23);
		expect(OPERATIONS).toContain('adCabinetAds ad create');
	});

	const badInputs = new Set(BAD_INPUTS.map((bad) => keyOf(bad.type, bad.parameters)));
	it.each(OPERATIONS)('bad input: %s', (operation) => {
		expect(badInputs.has(operation) ? operation : `${operation} has no bad-input case`).toBe(
			operation,
		);
	});

	const continueOnFail = new Set(
		CONTINUE_ON_FAIL_CASES.map((testCase) => keyOf(testCase.type, testCase.parameters)),
	);
	it.each(OPERATIONS.filter((operation) => !CONTINUE_ON_FAIL_EXEMPT.has(operation)))(
		'Continue On Fail: %s',
		(operation) => {
			expect(
				continueOnFail.has(operation) ? operation : `${operation} has no Continue On Fail case`,
			).toBe(operation);
		},
	);

	it('the exemptions name operations that exist and have no case', () => {
		for (const operation of CONTINUE_ON_FAIL_EXEMPT) {
			expect(OPERATIONS).toContain(operation);
			expect(continueOnFail.has(operation)).toBe(false);
		}
	});

	it.each(
		[AdCabinetStatsTrigger, AdCabinetAdsTrigger].map((Trigger) => new Trigger().description.name),
	)('the trigger %s, which has no operations, is in the bad-input table', (trigger) => {
		expect(BAD_INPUTS.some((bad) => bad.type === trigger && bad.trigger === true)).toBe(true);
	});
});
