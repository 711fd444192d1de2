import type { INodeParameters } from 'n8n-workflow';
import type { MultipartBody } from '../../sandbox';
import { runNode } from '../../harness';
import { apiRequests, apiWrites, credentialsFor } from '../../harness/sandbox';
import { cabinetIdIn, PLATFORMS } from '../../sandbox';
import { useSandbox } from '../support/useSandbox';

/** A tiny valid PNG (1x1), as the sandbox sniffs real image signatures. */
const PNG = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
	'base64',
);
const file = {
	json: { name: 'banner.png' },
	binary: { data: { data: PNG.toString('base64'), mimeType: 'image/png', fileName: 'banner.png' } },
};

describe.each(PLATFORMS)('Ad Cabinet Media 1.2 → Upload, Dry Run (%s form)', (platform) => {
	const sandbox = useSandbox({ platform });
	const accountId = cabinetIdIn(platform, '100001');
	const run = (dryRun: boolean, typeVersion = 1.2) =>
		runNode({
			type: 'adCabinetMedia',
			typeVersion,
			parameters: {
				resource: 'media',
				operation: 'upload',
				accountId: { __rl: true, mode: 'id', value: accountId },
				binaryPropertyName: 'data',
				...(dryRun ? { options: { dryRun: true } } : {}),
			} as INodeParameters,
			credentials: credentialsFor(sandbox()),
			input: [file],
		});

	test('sends nothing and shows the upload a real run sends, the file as size, SHA-256 and name', async () => {
		const dry = await run(true);
		expect(dry.error).toBeUndefined();
		expect(apiRequests(sandbox())).toHaveLength(0);
		expect(sandbox().data.mediaUploads).toHaveLength(0);
		const shown = dry.items[0].json;

		const real = await run(false);
		expect(real.error).toBeUndefined();
		const [write] = apiWrites(sandbox());
		expect(apiWrites(sandbox())).toHaveLength(1);
		const sent = (write.body as MultipartBody).files.media;
		expect(shown).toEqual({
			dryRun: true,
			method: write.method,
			path: write.path,
			query: write.query,
			body: { media: { bytes: sent.size, sha256: sent.sha256, fileName: sent.filename } },
		});
	});

	test('version 1.1 has no Dry Run: a saved option is ignored and the file is uploaded', async () => {
		const { error } = await run(true, 1.1);
		expect(error).toBeUndefined();
		expect(apiWrites(sandbox())).toHaveLength(1);
	});
});
