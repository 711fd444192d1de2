import type { INodeParameters } from 'n8n-workflow';
import { runNode } from '../../harness';
import { apiRequests, apiWrites, credentialsFor } from '../../harness/sandbox';
import { cabinetIdIn, PLATFORMS } from '../../sandbox';
import { useSandbox } from '../support/useSandbox';

describe.each(PLATFORMS)('Ad Cabinet Pixel Events 1.2 → Dry Run (%s form)', (platform) => {
	const sandbox = useSandbox({ platform });
	const CABINET = cabinetIdIn(platform, '100002');
	const cabinet = { __rl: true, mode: 'id', value: CABINET };
	const run = (operation: string, rest: INodeParameters, dryRun: boolean) =>
		runNode({
			type: 'adCabinetPixelEvents',
			typeVersion: 1.2,
			parameters: {
				resource: 'pixelEvent',
				operation,
				accountId: cabinet,
				...rest,
				...(dryRun ? { options: { dryRun: true } } : {}),
			},
			credentials: credentialsFor(sandbox()),
		});

	/** Runs the operation as a dry run, then for real, and checks the dry run showed what was sent. */
	async function dryThenReal(operation: string, rest: INodeParameters) {
		const dry = await run(operation, rest, true);
		expect(dry.error).toBeUndefined();
		expect(apiRequests(sandbox())).toHaveLength(0);
		const shown = dry.items[0].json;
		const real = await run(operation, rest, false);
		expect(real.error).toBeUndefined();
		const [write] = apiWrites(sandbox());
		expect(apiWrites(sandbox())).toHaveLength(1);
		expect(shown).toEqual({
			dryRun: true,
			method: write.method,
			path: write.path,
			body: write.body ?? null,
		});
		sandbox().clearLog();
		return real.items[0].json;
	}

	test('Create, Rename and Delete: a dry run sends nothing and shows the request a real run sends', async () => {
		const created = await dryThenReal('create', { title: 'Dry run signup', type: 'custom' });
		const eventId = { __rl: true, mode: 'id', value: String(created.id) };
		await dryThenReal('rename', { eventId, newTitle: 'Dry run signup (footer)' });
		await dryThenReal('delete', { eventId });
	});

	test('version 1.1 has no Dry Run: a saved option is ignored and the write is sent', async () => {
		const { error } = await runNode({
			type: 'adCabinetPixelEvents',
			typeVersion: 1.1,
			parameters: {
				resource: 'pixelEvent',
				operation: 'create',
				accountId: cabinet,
				title: 'Old node signup',
				type: 'custom',
				options: { dryRun: true },
			},
			credentials: credentialsFor(sandbox()),
		});
		expect(error).toBeUndefined();
		expect(apiWrites(sandbox())).toHaveLength(1);
	});
});
