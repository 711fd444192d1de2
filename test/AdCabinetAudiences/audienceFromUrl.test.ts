import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
	NodeHelpers,
	type INode,
	type INodeParameters,
	type INodeProperties,
	type INodePropertyOptions,
} from 'n8n-workflow';
import type { MultipartBody } from '../../sandbox';
import { nodeTypes, PACKAGE_NAME, runNode } from '../../harness';
import { apiRequests, credentialsFor } from '../../harness/sandbox';
import { useSandbox } from '../support/useSandbox';

const UZ_CABINET = 'ACC06163';
const MB = 1024 * 1024;
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const numbers = (n: number, from = 0) =>
	Array.from({ length: n }, (_, i) => `99890${String(from + i).padStart(7, '0')}`);
const PNG = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
	'base64',
);

/** 1,200 numbers as a sheet exports them: a header, formatted numbers, CRLF, and 40 repeats. */
const UNIQUE = numbers(1200, 3000);
const CSV = `Phone\r\n${UNIQUE.map((n, i) =>
	i % 3 === 0
		? `+${n.slice(0, 3)} ${n.slice(3, 5)} ${n.slice(5, 8)}-${n.slice(8, 10)}-${n.slice(10)}`
		: n,
).join('\r\n')}\r\n${UNIQUE.slice(0, 40).join(',')}\r\n`;
const LINES = Buffer.from(`${numbers(1000).join('\n')}\n`);

/** What a cloud metadata service hands out: never to be quoted in an error. */
const METADATA = `{
  "Code" : "Success",
  "AccessKeyId" : "AKIAIOSFODNN7EXAMPLE",
  "SecretAccessKey" : "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
  "Token" : "IQoJb3JpZ2luX2VjEXAMPLETOKEN"
}`;
const METADATA_SECRETS = ['AKIAIOSFODNN7EXAMPLE', 'wJalrXUtnFEMI', 'IQoJb3JpZ2lu', 'Success'];

/** A small web server holding phone lists, files that are not phone lists, and files above 1 MB. */
let server: Server;
let base: string;
const served: string[] = [];

beforeAll(async () => {
	server = createServer((req, res) => {
		served.push(req.url ?? '');
		if (req.url === '/lists/customers.csv')
			return void res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' }).end(CSV);
		if (req.url === '/download?id=7')
			return void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(LINES);
		if (req.url === '/export.csv')
			return void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(PNG);
		if (req.url === '/photo.png')
			return void res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
		if (req.url === '/share')
			return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
		if (req.url === '/latest/meta-data/credentials')
			return void res.writeHead(200, { 'content-type': 'text/plain' }).end(METADATA);
		if (req.url === '/notes.txt')
			return void res
				.writeHead(200, { 'content-type': 'text/plain' })
				.end('Call back at 10:30\nAsk about prices\n');
		if (req.url === '/declared-big.csv') {
			res.writeHead(200, { 'content-type': 'text/csv', 'content-length': String(3 * MB) });
			return void res.end(Buffer.alloc(3 * MB, '9'));
		}
		if (req.url === '/streamed-big.csv') {
			// No Content-Length: only counting while reading can stop it.
			res.writeHead(200, { 'content-type': 'text/csv', 'transfer-encoding': 'chunked' });
			for (let i = 0; i < 3; i++) res.write(Buffer.alloc(MB, '9'));
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
	resource: 'audience',
	operation: 'create',
	accountId: UZ_CABINET,
	title: 'Customers from the shop',
	source: 'url',
	fileUrl,
	allowPrivateNetwork: true,
	...parameters,
});

const NOTHING_SENT = 'Nothing was sent to the Ad Cabinet API, so running again is safe.';

describe('Ad Cabinet Audiences: Create from a URL', () => {
	const sandbox = useSandbox();
	// One empty input item, as in an AI agent's tool call.
	const run = async (parameters: INodeParameters) =>
		await runNode({
			type: 'adCabinetAudiences',
			parameters,
			credentials: credentialsFor(sandbox()),
			input: [{}],
		});

	test('downloads the CSV and the sandbox receives exactly its numbers, cleaned, deduplicated and hashed', async () => {
		const { items, error } = await run(fromUrl(`${base}/lists/customers.csv`));
		expect(error).toBeUndefined();
		const log = apiRequests(sandbox());
		expect(log).toHaveLength(1);
		expect(log[0]).toMatchObject({
			method: 'POST',
			path: `/api/advertisement/telegram/${UZ_CABINET}/audiences`,
			status: 201,
		});
		const body = log[0].body as MultipartBody;
		expect(body.fields.title).toBe('Customers from the shop');
		expect(body.files.audience).toMatchObject({ filename: 'audience.csv', type: 'text/csv' });
		const sent = body.files.audience.bytes.toString('utf8').split('\n');
		expect(sent.slice().sort()).toEqual(UNIQUE.map(sha).sort());

		const stored = sandbox().data.audienceUploads.at(-1);
		expect(stored?.accountId).toBe(UZ_CABINET);
		expect(stored?.entries.slice().sort()).toEqual(UNIQUE.map(sha).sort());
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({
			title: 'Customers from the shop',
			report: {
				valid: 1200,
				invalid: 0,
				duplicatesRemoved: 40,
				headerSkipped: 'Phone',
				hashed: true,
			},
		});
	});

	test('a download without a file type is read as text; with hashing off the numbers themselves are sent', async () => {
		const { error } = await run(fromUrl(`${base}/download?id=7`, { hashNumbers: false }));
		expect(error).toBeUndefined();
		const body = apiRequests(sandbox())[0].body as MultipartBody;
		expect(body.files.audience.bytes.toString('utf8').split('\n')).toEqual(numbers(1000));
	});

	test.each([
		[
			'a file declared larger than Max File Size',
			'/declared-big.csv',
			'File URL: the file is 3.0 MB, more than the 1.0 MB allowed by Max File Size; raise Max File Size or use a smaller file',
		],
		[
			'a file that grows past Max File Size while read',
			'/streamed-big.csv',
			'File URL: the file is more than the 1.0 MB allowed by Max File Size (stopped reading it there); raise Max File Size or use a smaller file',
		],
		[
			'an image labelled as a download',
			'/export.csv',
			'File URL: must point at a CSV or txt file of phone numbers; the file it serves (sent as application/octet-stream) is not text. Export the numbers as CSV or txt, one per line or separated by commas',
		],
		[
			'an image',
			'/photo.png',
			'File URL: must point at a CSV or txt file of phone numbers (text/csv or text/plain), but the server sent image/png',
		],
		[
			'a web page',
			'/share',
			'File URL: must point at a CSV or txt file of phone numbers (text/csv or text/plain), but the server sent text/html',
		],
		[
			'a text without phone numbers',
			'/notes.txt',
			'File URL: every entry must be a phone number of 12 digits starting with 998, or a SHA-256 hash of 64 hex characters; found 0 valid unique entries, 2 invalid entries (on lines 1, 2), 0 duplicates removed',
		],
		[
			'a missing file',
			'/gone.csv',
			'File URL: downloading the file failed: the server answered 404; use a URL that serves the file itself',
		],
	])('%s is refused before any audience request', async (_case, path, rule) => {
		const audiences = sandbox().data.audienceUploads.length;
		const { error, items } = await run(fromUrl(`${base}${path}`, { maxFileSizeMb: 1 }));
		expect(items).toHaveLength(0);
		expect(error?.message).toBe(`${rule} (got "${base}${path}"). ${NOTHING_SENT}`);
		expect(apiRequests(sandbox())).toHaveLength(0);
		expect(sandbox().data.audienceUploads).toHaveLength(audiences);
	});

	test('a metadata service on this machine: with the default settings never asked; when allowed, its secrets are not quoted', async () => {
		const url = `${base}/latest/meta-data/credentials`;
		const before = served.length;
		const refused = await run(fromUrl(url, { allowPrivateNetwork: false }));
		expect(refused.error?.message).toBe(
			`File URL: must be an address on the public internet, but it is a loopback address, so nothing was downloaded from it. Use a public address, or turn on Allow Private Network Addresses for a file on your own network (got "${url}"). ${NOTHING_SENT}`,
		);
		expect(served.length).toBe(before);

		// Allowed (a file on one's own network), the file is read but refused by line number only: the
		// first line holds no digits, so it is taken as a header.
		const allowed = await run(fromUrl(url));
		expect(served.length).toBe(before + 1);
		expect(allowed.error?.message).toBe(
			`File URL: every entry must be a phone number of 12 digits starting with 998, or a SHA-256 hash of 64 hex characters; found 0 valid unique entries, 5 invalid entries (on lines 2, 3, 4, 5, 6), 0 duplicates removed (got "${url}"). ${NOTHING_SENT}`,
		);
		for (const error of [refused.error, allowed.error]) {
			const everything = JSON.stringify({
				message: error?.message,
				description: error?.description,
			});
			for (const secret of METADATA_SECRETS) expect(everything).not.toContain(secret);
		}
		expect(apiRequests(sandbox())).toHaveLength(0);
	});

	test('an address that is not http(s) is refused without any download', async () => {
		const before = served.length;
		const { error } = await run(fromUrl('file:///tmp/customers.csv'));
		expect(error?.message).toBe(
			`File URL: must be an http:// or https:// address of the CSV or txt file (got "file:///tmp/customers.csv"). ${NOTHING_SENT}`,
		);
		expect(served.length).toBe(before);
		expect(apiRequests(sandbox())).toHaveLength(0);
	});

	test('the AI agent tool offers From URL with its File URL, and says it works there', () => {
		const plain = nodeTypes().getByNameAndVersion(`${PACKAGE_NAME}.adCabinetAudiences`).description;
		const tool = { ...plain, name: `${plain.name}Tool` };
		const parameters = { resource: 'audience', operation: 'create', source: 'url' };
		const node = { parameters, typeVersion: 1 } as unknown as INode;
		const resolved = NodeHelpers.getNodeParameters(
			tool.properties,
			parameters,
			true,
			false,
			node,
			tool,
		);
		expect(resolved).toMatchObject({
			source: 'url',
			fileUrl: '',
			maxFileSizeMb: 20,
			allowPrivateNetwork: false,
		});
		const sources = tool.properties.find(
			(p: INodeProperties) =>
				p.name === 'source' && p.displayOptions?.show?.['@tool']?.[0] === true,
		)?.options as INodePropertyOptions[];
		const url = sources.find((o) => o.value === 'url');
		expect(url?.description).toContain('Works in an AI agent tool');
		expect(url?.description).not.toContain('Not for an AI agent tool');
	});
});
