import { apiClient, TEST_NOW } from '../support/sandboxClient';
import { useSandbox } from '../support/useSandbox';

/** These tests run the spec's form (platform 'ext'). */
const PLATFORM = 'ext';

const PATH = `/api/v1/advertising/${PLATFORM}/upload_media`;
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 2, 3]);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1');
const WEBP = Buffer.concat([
	Buffer.from('RIFF'),
	Buffer.from([20, 0, 0, 0]),
	Buffer.from('WEBPVP8 '),
]);
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypisom'), Buffer.alloc(12)]);

function form(
	name: string,
	bytes: Buffer,
	filename: string,
	type = 'application/octet-stream',
): FormData {
	const data = new FormData();
	data.append(name, new Blob([bytes], { type }), filename);
	return data;
}

describe('media upload', () => {
	const sandbox = useSandbox({ platform: 'ext', now: TEST_NOW, adCount: 10 });
	const client = apiClient(sandbox, 'client');
	const base = apiClient(sandbox, 'base');
	const upload = (data: FormData, account_id = '100002') =>
		client.post(PATH, { query: { account_id }, form: data });

	test.each([
		['image/jpeg', JPEG, 'photo.bin'],
		['image/png', PNG, 'a.png'],
		['image/gif', GIF, 'a.gif'],
		['image/webp', WEBP, 'a.webp'],
		['video/mp4', MP4, 'clip.mp4'],
	])('the content type is sniffed from the bytes: %s', async (type, bytes, filename) => {
		const { status, body } = await upload(
			form('media', bytes, filename, 'application/octet-stream'),
		);
		expect(status).toBe(200);
		expect(body).toEqual({
			media_token: expect.stringMatching(/^media_/),
			content_type: type,
			error: null,
		});
	});

	test('the upload is logged as multipart with the file digest', async () => {
		sandbox().clearLog();
		await upload(form('media', JPEG, 'photo.jpg', 'image/jpeg'));
		const entry = sandbox().requests[0];
		expect(entry.contentType).toMatch(/^multipart\/form-data; boundary=/);
		expect(entry.query).toEqual({ account_id: '100002' });
		const body = entry.body as {
			files: Record<string, { filename: string; size: number; sha256: string; bytes: Buffer }>;
		};
		expect(body.files.media).toMatchObject({ filename: 'photo.jpg', size: JPEG.length });
		expect(body.files.media.bytes.equals(JPEG)).toBe(true);
		expect(body.files.media.sha256).toMatch(/^[0-9a-f]{64}$/);
	});

	test('unsupported and empty files are 200 with the failure in error', async () => {
		const text = await upload(form('media', Buffer.from('hello'), 'notes.txt', 'text/plain'));
		expect(text.status).toBe(200);
		expect(text.body).toEqual({
			media_token: null,
			content_type: 'text/plain',
			error: expect.stringContaining('Unsupported'),
		});
		const empty = await upload(form('media', Buffer.alloc(0), 'empty.jpg', 'image/jpeg'));
		expect(empty.status).toBe(200);
		expect(empty.body.error).toContain('empty');
		expect(empty.body.media_token).toBeNull();
	});

	test('a missing media part or account_id is a 400; a JSON body is a 415', async () => {
		const wrongPart = await upload(form('file', JPEG, 'a.jpg'));
		expect(wrongPart.status).toBe(400);
		expect(wrongPart.body.errors).toHaveProperty('media');
		expect(wrongPart.body.detail).toContain('file');
		const noAccount = await client.post(PATH, { form: form('media', JPEG, 'a.jpg') });
		expect(noAccount.status).toBe(400);
		expect(noAccount.body.errors).toHaveProperty('account_id');
		const json = await client.post(PATH, { query: { account_id: '100002' }, json: { media: 'x' } });
		expect(json.status).toBe(415);
		expect((await upload(form('media', JPEG, 'a.jpg'), '100004')).status).toBe(403);
	});

	test('an uploaded token can be used in create and edit', async () => {
		const { body } = await upload(form('media', MP4, 'clip.mp4', 'video/mp4'));
		const created = await base.post(`/api/advertisement/${PLATFORM}/`, {
			json: {
				campaign_id: 2201,
				title: 'Video ad',
				text: 'Watch',
				promote_url: 'https://t.me/berlin_startups',
				cpm: 1,
				budget: 10,
				media_token: body.media_token,
			},
		});
		expect(created.status).toBe(201);
		expect(created.body.media).toMatchObject({ token: body.media_token, type: 'video' });
		const image = await upload(form('media', PNG, 'a.png'));
		const edited = await base.put(`/api/advertisement/${PLATFORM}/${created.body.ad_id}`, {
			json: { media_token: image.body.media_token },
		});
		expect(edited.body.media).toMatchObject({ token: image.body.media_token, type: 'image' });
	});
});
