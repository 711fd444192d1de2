import { createHash } from 'node:crypto';
import type { INodeParameters } from 'n8n-workflow';
import type { MultipartBody } from '../../sandbox';
import { runNode } from '../../harness';
import { apiRequests, credentialsFor } from '../../harness/sandbox';
import { useSandbox } from '../support/useSandbox';

const UZ_CABINET = 'ACC06163';
const NO_ACCESS_CABINET = 'ACC08112';

/** A tiny valid PNG (1x1), as the sandbox sniffs real image signatures. */
const PNG = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
	'base64',
);

function fileItem(bytes: Buffer, mimeType: string, fileName: string, property = 'data') {
	return {
		json: { name: fileName },
		binary: { [property]: { data: bytes.toString('base64'), mimeType, fileName } },
	};
}

const upload = (parameters: INodeParameters = {}): INodeParameters => ({
	resource: 'media',
	operation: 'upload',
	accountId: UZ_CABINET,
	binaryPropertyName: 'data',
	...parameters,
});

describe('Ad Cabinet Media: Upload', () => {
	const sandbox = useSandbox();

	test('sends the binary as the multipart part "media" with identical bytes, name and MIME type', async () => {
		const { items, error } = await runNode({
			type: 'adCabinetMedia',
			parameters: upload(),
			credentials: credentialsFor(sandbox()),
			input: [fileItem(PNG, 'image/png', 'banner.png')],
		});
		expect(error).toBeUndefined();
		const log = apiRequests(sandbox());
		expect(log).toHaveLength(1);
		expect(log[0]).toMatchObject({
			method: 'POST',
			api: 'client',
			path: '/api/v1/advertising/telegram/upload_media',
			query: { account_id: UZ_CABINET },
			authorized: true,
			status: 200,
		});
		const body = log[0].body as MultipartBody;
		expect(Object.keys(body.files)).toEqual(['media']);
		expect(Object.keys(body.fields)).toEqual([]);
		expect(body.files.media).toMatchObject({
			filename: 'banner.png',
			type: 'image/png',
			size: PNG.length,
		});
		expect(body.files.media.sha256).toBe(createHash('sha256').update(PNG).digest('hex'));
		expect(Buffer.compare(body.files.media.bytes, PNG)).toBe(0);

		const [stored] = sandbox().data.mediaUploads;
		expect(items).toHaveLength(1);
		expect(items[0].json).toEqual({ media_token: stored.media_token, content_type: 'image/png' });
		expect(items[0].pairedItem).toEqual({ item: 0 });
	});

	test('one upload per input item, each paired to its item, with the binary field the user named', async () => {
		const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2048, 7)]);
		const { items, error } = await runNode({
			type: 'adCabinetMedia',
			parameters: upload({ binaryPropertyName: 'creative' }),
			credentials: credentialsFor(sandbox()),
			input: [
				fileItem(PNG, 'image/png', 'a.png', 'creative'),
				fileItem(jpeg, 'image/jpeg', 'b.jpg', 'creative'),
			],
		});
		expect(error).toBeUndefined();
		expect(items.map((item) => [item.json.content_type, item.pairedItem])).toEqual([
			['image/png', { item: 0 }],
			['image/jpeg', { item: 1 }],
		]);
		const files = apiRequests(sandbox()).map((r) => (r.body as MultipartBody).files.media);
		expect(files.map((f) => [f.filename, f.type, f.size])).toEqual([
			['a.png', 'image/png', PNG.length],
			['b.jpg', 'image/jpeg', jpeg.length],
		]);
	});

	test('an "error" in the upload answer is a node error, never a silent success', async () => {
		const text = Buffer.from('not an image at all');
		const { items, error } = await runNode({
			type: 'adCabinetMedia',
			parameters: upload(),
			credentials: credentialsFor(sandbox()),
			input: [fileItem(text, 'image/png', 'fake.png')],
		});
		expect(items).toHaveLength(0);
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe(
			'The Ad Cabinet API refused the media file: Unsupported file format: upload a JPEG, PNG, GIF or WebP image or an MP4 video. Nothing was stored, so uploading a corrected file is safe.',
		);
		expect(error?.description).toContain('instead of a media token');
		expect(apiRequests(sandbox())).toHaveLength(1);
	});

	test('with Continue On Fail the refused file becomes an error item and the other items go through', async () => {
		const { items, error } = await runNode({
			type: 'adCabinetMedia',
			parameters: upload(),
			credentials: credentialsFor(sandbox()),
			continueOnFail: true,
			input: [
				fileItem(Buffer.from('plain text'), 'application/octet-stream', 'notes.bin'),
				fileItem(PNG, 'image/png', 'ok.png'),
			],
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(2);
		expect(items[0].json.error).toMatch(
			/^The Ad Cabinet API refused the media file: Unsupported file format/,
		);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[1].json).toMatchObject({ content_type: 'image/png' });
		expect(typeof items[1].json.media_token).toBe('string');
		expect(items[1].pairedItem).toEqual({ item: 1 });
	});

	test('a missing binary field is refused, naming the field and what the item has, with 0 requests', async () => {
		const { error } = await runNode({
			type: 'adCabinetMedia',
			parameters: upload({ binaryPropertyName: 'image' }),
			credentials: credentialsFor(sandbox()),
			input: [fileItem(PNG, 'image/png', 'banner.png')],
		});
		expect(error?.message).toBe(
			'Input Binary Field: the input item has no binary field with this name; it has: data (got "image"). Nothing was sent to the API.',
		);
		expect(apiRequests(sandbox())).toHaveLength(0);
	});

	test('an empty Cabinet ID is refused with 0 requests', async () => {
		const { error } = await runNode({
			type: 'adCabinetMedia',
			parameters: upload({ accountId: '  ' }),
			credentials: credentialsFor(sandbox()),
			input: [fileItem(PNG, 'image/png', 'banner.png')],
		});
		expect(error?.message).toBe(
			'Cabinet ID: is required: pick a cabinet from the list, or give its ID, such as ACC0000 ("Ad Cabinet Ads" → Cabinet → Get Many lists each cabinet\'s ID as account_id). Nothing was sent to the API.',
		);
		expect(apiRequests(sandbox())).toHaveLength(0);
	});

	test('a cabinet without permission gives a 403 that names the cabinet; the upload is not retried', async () => {
		const { error } = await runNode({
			type: 'adCabinetMedia',
			parameters: upload({ accountId: NO_ACCESS_CABINET }),
			credentials: credentialsFor(sandbox()),
			input: [fileItem(PNG, 'image/png', 'banner.png')],
		});
		expect(error?.httpCode).toBe('403');
		expect(error?.message).toContain(`no permission on cabinet ${NO_ACCESS_CABINET}`);
		expect(apiRequests(sandbox())).toHaveLength(1);
	});

	test('a 503 on upload is not repeated automatically (a write), and the error says so', async () => {
		sandbox().faults.onNth(1, '503');
		const { error } = await runNode({
			type: 'adCabinetMedia',
			parameters: upload(),
			credentials: credentialsFor(sandbox()),
			input: [fileItem(PNG, 'image/png', 'banner.png')],
		});
		expect(error?.httpCode).toBe('503');
		expect(error?.message).toContain('This write was not retried and may have taken effect');
		expect(apiRequests(sandbox())).toHaveLength(1);
	});
});

describe("Ad Cabinet Media: Upload in the spec's form (credential platform ext)", () => {
	const sandbox = useSandbox({ platform: 'ext' });

	test('uploads to the ext path and returns the media token', async () => {
		const { items, error } = await runNode({
			type: 'adCabinetMedia',
			parameters: upload({ accountId: '100001' }),
			credentials: credentialsFor(sandbox()),
			input: [fileItem(PNG, 'image/png', 'banner.png')],
		});
		expect(error).toBeUndefined();
		expect(apiRequests(sandbox()).map((r) => [r.method, r.path, r.query, r.status])).toEqual([
			['POST', '/api/v1/advertising/ext/upload_media', { account_id: '100001' }, 200],
		]);
		expect(items[0].json).toEqual({
			media_token: sandbox().data.mediaUploads[0].media_token,
			content_type: 'image/png',
		});
	});
});
