import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INodeParameters } from 'n8n-workflow';
import type { MultipartBody } from '../../sandbox';
import { runNode } from '../../harness';
import { apiRequests, credentialsFor } from '../../harness/sandbox';
import { useSandbox } from '../support/useSandbox';

const UZ_CABINET = 'ACC06163';
const PNG = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
	'base64',
);
const MB = 1024 * 1024;

/** A small web server holding an image, a page, and files above one megabyte. */
let server: Server;
let base: string;
const served: string[] = [];

beforeAll(async () => {
	server = createServer((req, res) => {
		served.push(req.url ?? '');
		if (req.url === '/img/banner.png')
			return void res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
		if (req.url === '/unlabelled') return void res.writeHead(200).end(PNG);
		if (req.url === '/page.html')
			return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
		if (req.url === '/fake.png')
			return void res.writeHead(200, { 'content-type': 'image/png' }).end('not a picture');
		if (req.url === '/declared-big.png') {
			res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(3 * MB) });
			return void res.end(Buffer.alloc(3 * MB));
		}
		if (req.url === '/streamed-big.png') {
			// No Content-Length: only counting while reading can stop it.
			res.writeHead(200, { 'content-type': 'image/png', 'transfer-encoding': 'chunked' });
			for (let i = 0; i < 3; i++) res.write(Buffer.alloc(MB));
			return void res.end();
		}
		res.writeHead(404).end('not found');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
	await new Promise((resolve) => server.close(resolve));
});

/** The test's web server is on 127.0.0.1, so these runs allow private network addresses. */
const fromUrl = (fileUrl: string, parameters: INodeParameters = {}): INodeParameters => ({
	resource: 'media',
	operation: 'upload',
	accountId: UZ_CABINET,
	source: 'url',
	fileUrl,
	allowPrivateNetwork: true,
	...parameters,
});

describe('Ad Cabinet Media: Upload from a URL', () => {
	const sandbox = useSandbox();
	const run = async (parameters: INodeParameters) =>
		await runNode({ type: 'adCabinetMedia', parameters, credentials: credentialsFor(sandbox()) });

	test('downloads the image and uploads exactly its bytes, named after the URL, with the type read from the bytes', async () => {
		for (const [path, name] of [
			['/img/banner.png', 'banner.png'],
			['/unlabelled', 'unlabelled.png'],
		]) {
			const { items, error } = await run(fromUrl(`${base}${path}`));
			expect(error).toBeUndefined();
			expect(items[0].json).toEqual({
				media_token: expect.stringMatching(/^media_/),
				content_type: 'image/png',
			});
			const body = apiRequests(sandbox()).pop()?.body as MultipartBody;
			expect(body.files.media).toMatchObject({
				filename: name,
				type: 'image/png',
				size: PNG.length,
			});
			expect(Buffer.compare(body.files.media.bytes, PNG)).toBe(0);
		}
	});

	test.each([
		[
			'a page',
			'/page.html',
			'File URL: must point at a JPEG, PNG, GIF or WebP image or an MP4 video, but the server sent text/html',
		],
		[
			'a file that only claims to be an image',
			'/fake.png',
			'File URL: must point at a JPEG, PNG, GIF or WebP image or an MP4 video; the file it serves (sent as image/png) is none of these',
		],
		[
			'a missing file',
			'/gone.png',
			'File URL: downloading the file failed: the server answered 404; use a URL that serves the file itself',
		],
		[
			'a file declared larger than Max File Size',
			'/declared-big.png',
			'File URL: the file is 3.0 MB, more than the 1.0 MB allowed by Max File Size; raise Max File Size or use a smaller file',
		],
		[
			'a file that grows past Max File Size while read',
			'/streamed-big.png',
			'File URL: the file is more than the 1.0 MB allowed by Max File Size (stopped reading it there); raise Max File Size or use a smaller file',
		],
	])('%s is refused before anything reaches the API', async (_case, path, rule) => {
		const { error } = await run(fromUrl(`${base}${path}`, { maxFileSizeMb: 1 }));
		expect(error?.message).toBe(
			`${rule} (got "${base}${path}"). Nothing was sent to the Ad Cabinet API, so running again is safe.`,
		);
		expect(apiRequests(sandbox())).toHaveLength(0);
	});

	test('with the default settings an image on this machine is neither downloaded nor uploaded', async () => {
		const before = served.length;
		const uploads = sandbox().data.mediaUploads.length;
		const { error, items } = await run(
			fromUrl(`${base}/img/banner.png`, { allowPrivateNetwork: false }),
		);
		expect(items).toHaveLength(0);
		expect(error?.message).toBe(
			`File URL: must be an address on the public internet, but it is a loopback address, so nothing was downloaded from it. Use a public address, or turn on Allow Private Network Addresses for a file on your own network (got "${base}/img/banner.png"). Nothing was sent to the Ad Cabinet API, so running again is safe.`,
		);
		expect(served.length).toBe(before);
		expect(apiRequests(sandbox())).toHaveLength(0);
		expect(sandbox().data.mediaUploads).toHaveLength(uploads);
	});

	test('an address that is not http(s) is refused without any download', async () => {
		const before = served.length;
		const { error } = await run(fromUrl('ftp://example.com/a.png'));
		expect(error?.message).toBe(
			'File URL: must be an http:// or https:// address of the image or video (got "ftp://example.com/a.png"). Nothing was sent to the Ad Cabinet API, so running again is safe.',
		);
		expect(served.length).toBe(before);
		expect(apiRequests(sandbox())).toHaveLength(0);
	});
	test('with Source From Binary Field and no file (as in a tool call), the refusal says to use a URL', async () => {
		const { error } = await run({
			resource: 'media',
			operation: 'upload',
			accountId: UZ_CABINET,
			source: 'binary',
		});
		expect(error?.message).toBe(
			'Input Binary Field: the input item has no binary field with this name; it has no binary data at all: read the file first, or set Source to From URL (got "data"). Nothing was sent to the API.',
		);
		expect(apiRequests(sandbox())).toHaveLength(0);
	});
});
