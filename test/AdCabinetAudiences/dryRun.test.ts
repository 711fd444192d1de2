import type { IDataObject, INodeParameters } from 'n8n-workflow';
import type { MultipartBody } from '../../sandbox';
import { runNode } from '../../harness';
import { apiRequests, apiWrites, credentialsFor } from '../../harness/sandbox';
import { cabinetIdIn, PLATFORMS } from '../../sandbox';
import { useSandbox } from '../support/useSandbox';

const numbers = (n: number) =>
	Array.from({ length: n }, (_, i) => `99893${String(i).padStart(7, '0')}`).join('\n');

describe.each(PLATFORMS)('Ad Cabinet Audiences 1.3 → Create, Dry Run (%s form)', (platform) => {
	const sandbox = useSandbox({ platform });
	const parameters = (dryRun: boolean): INodeParameters => ({
		resource: 'audience',
		operation: 'create',
		accountId: { __rl: true, mode: 'id', value: cabinetIdIn(platform, '100001') },
		title: 'Dry run customers',
		source: 'list',
		phoneNumbers: numbers(1000),
		...(dryRun ? { options: { dryRun: true } } : {}),
	});
	const run = (dryRun: boolean, typeVersion = 1.3) =>
		runNode({
			type: 'adCabinetAudiences',
			typeVersion,
			parameters: parameters(dryRun),
			credentials: credentialsFor(sandbox()),
		});

	test('sends nothing and shows the multipart body a real run sends, the file as size and SHA-256', async () => {
		const dry = await run(true);
		expect(dry.error).toBeUndefined();
		expect(apiRequests(sandbox())).toHaveLength(0);
		const shown = dry.items[0].json;

		const real = await run(false);
		expect(real.error).toBeUndefined();
		const [write] = apiWrites(sandbox());
		expect(apiWrites(sandbox())).toHaveLength(1);
		const sent = write.body as MultipartBody;
		expect(shown).toMatchObject({ dryRun: true, method: write.method, path: write.path });
		expect(shown.body).toEqual({
			title: sent.fields.title,
			audience: {
				bytes: sent.files.audience.size,
				sha256: sent.files.audience.sha256,
				fileName: sent.files.audience.filename,
			},
		});
		expect((shown.report as IDataObject).summary).toEqual(
			((real.items[0].json.report as IDataObject) ?? {}).summary,
		);
	});

	test('version 1.2 has no Dry Run: a saved option is ignored and the audience is created', async () => {
		const { error } = await run(true, 1.2);
		expect(error).toBeUndefined();
		expect(apiWrites(sandbox())).toHaveLength(1);
	});
});
