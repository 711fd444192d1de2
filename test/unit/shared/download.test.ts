import '../../../harness/env';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { OutboundHttp } from '@n8n/backend-network';
import { SsrfProtectionConfig } from '@n8n/config';
import { Container } from '@n8n/di';
import type {
	IExecuteFunctions,
	IHttpRequestOptions,
	INode,
	NodeEgressFilter,
	UseDefaultSsrfPolicy,
} from 'n8n-workflow';
import { downloadFromParameters, type FileKind } from '../../../nodes/shared/download';

/**
 * The download helper with n8n's own HTTP helper and egress filter (n8n-core 2.41), and without
 * the filter, as on n8n 1.x. Only DNS is stood in for: `*.example.test` names resolve to the
 * addresses below, and requests to files.example.test reach a local server that plays a public
 * web server.
 */
const PNG = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
	'base64',
);
/** What a metadata service on this machine would hand out. */
const SECRET = 'AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const PUBLIC_HOST = 'files.example.test';
const FAKE_DNS: Record<string, string> = {
	[PUBLIC_HOST]: '93.184.215.14',
	'intranet.example.test': '10.0.0.5',
	// NAT64 form of 127.0.0.1: not on n8n's default list, refused by the node's own table.
	'nat64.example.test': '64:ff9b::7f00:1',
};

const IMAGE: FileKind = {
	what: 'the image',
	allowed: 'a PNG image',
	acceptsType: (type) => type.startsWith('image/'),
};
const NODE = {
	name: 'Upload',
	type: 'n8n-nodes-ad-cabinet.adCabinetMedia',
	parameters: {},
} as unknown as INode;

function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Server> {
	const server = createServer(handler);
	return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}
const portOf = (server: Server) => (server.address() as AddressInfo).port;

/** A service on this machine: every request it gets is counted. */
let secret: Server;
let secretHits: string[] = [];
/** The stand-in for a public web server. */
let site: Server;
let siteHits: string[] = [];
let closedPort: number;

beforeAll(async () => {
	secret = await listen((req, res) => {
		secretHits.push(req.url ?? '');
		if (req.url === '/image.png')
			return void res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
		res.writeHead(200, { 'content-type': 'text/plain' }).end(SECRET);
	});
	const secretUrl = `http://127.0.0.1:${portOf(secret)}`;
	site = await listen((req, res) => {
		siteHits.push(req.url ?? '');
		const url = req.url ?? '';
		const redirect = (location: string) => void res.writeHead(302, { location }).end();
		if (url === '/banner.png')
			return void res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
		if (url === '/drip.png') {
			// Headers at once, then the file one byte every 100 ms.
			res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(PNG.length) });
			let sent = 0;
			const timer = setInterval(() => {
				if (sent >= PNG.length || res.destroyed) return void clearInterval(timer);
				res.write(PNG.subarray(sent, ++sent));
			}, 100);
			res.on('close', () => clearInterval(timer));
			return;
		}
		if (url === '/to-secret') return redirect(`${secretUrl}/secret`);
		if (url === '/to-image') return redirect(`${secretUrl}/image.png`);
		if (url === '/to-localhost') return redirect(`http://localhost:${portOf(secret)}/secret`);
		if (url === '/to-intranet') return redirect('http://intranet.example.test/secret');
		const chain = /^\/chain\/(\d+)$/.exec(url);
		if (chain) {
			const left = Number(chain[1]);
			return left === 0
				? void res.writeHead(200, { 'content-type': 'image/png' }).end(PNG)
				: redirect(`http://${PUBLIC_HOST}/chain/${left - 1}`);
		}
		res.writeHead(404).end();
	});
	const closed = await listen(() => {});
	closedPort = portOf(closed);
	await new Promise((resolve) => closed.close(resolve));
});

afterAll(async () => {
	await new Promise((resolve) => secret.close(resolve));
	await new Promise((resolve) => site.close(resolve));
});

beforeEach(() => {
	secretHits = [];
	siteHits = [];
});

const isRedirect = (status: number) => [301, 302, 303, 307, 308].includes(status);

/**
 * n8n's HTTP helper (what `this.helpers.httpRequest` runs). A request to files.example.test goes to
 * the stand-in server, and its redirects are followed as n8n follows them unless told not to.
 */
async function n8nHttpRequest(options: IHttpRequestOptions): Promise<unknown> {
	const real = Container.get(OutboundHttp).requests();
	let url = new URL(options.url);
	for (;;) {
		if (url.hostname !== PUBLIC_HOST) return await real.request({ ...options, url: url.href });
		const answer = (await real.request({
			...options,
			url: `http://127.0.0.1:${portOf(site)}${url.pathname}${url.search}`,
			disableFollowRedirect: true,
			ignoreHttpStatusErrors: true,
			returnFullResponse: true,
		})) as { statusCode: number; headers: Record<string, string>; body: { destroy?: () => void } };
		const location = answer.headers.location;
		if (options.disableFollowRedirect || !isRedirect(answer.statusCode) || !location) {
			if (!options.ignoreHttpStatusErrors && answer.statusCode >= 300) {
				answer.body.destroy?.();
				throw Object.assign(new Error(`Request failed with status code ${answer.statusCode}`), {
					response: { status: answer.statusCode },
				});
			}
			return options.returnFullResponse ? answer : answer.body;
		}
		answer.body.destroy?.();
		url = new URL(location, url);
	}
}

/** n8n's egress filter, with the stand-in DNS for *.example.test (each address still checked by n8n). */
function egressFilter(policy?: UseDefaultSsrfPolicy): NodeEgressFilter {
	const real = Container.get(OutboundHttp).egressFilter(policy);
	const lookup: LookupFunction = (hostname, options, callback) => {
		const address = FAKE_DNS[hostname];
		if (!address) return real.createSecureLookup()(hostname, options, callback);
		const checked = real.validateConnectionHost(address);
		if (!checked.ok) return callback(checked.error as NodeJS.ErrnoException, '', undefined);
		const family = address.includes(':') ? 6 : 4;
		if (options.all) return callback(null, [{ address, family }]);
		callback(null, address, family);
	};
	return {
		validateUrl: async (url) => await real.validateUrl(url),
		validateConnectionHost: (host) => real.validateConnectionHost(host),
		validateRedirectSync: (url) => real.validateRedirectSync(url),
		createSecureLookup: () => lookup,
	};
}

type N8n = 'n8n 2.x (with its egress filter)' | 'n8n 1.x (no egress filter)';

function contextFor(n8n: N8n, parameters: Record<string, unknown>) {
	const requested: string[] = [];
	const helpers: Record<string, unknown> = {
		httpRequest: async (options: IHttpRequestOptions) => {
			requested.push(options.url);
			return await n8nHttpRequest(options);
		},
	};
	if (n8n.startsWith('n8n 2')) helpers.getSecureEgressFilter = egressFilter;
	const ctx = {
		getNode: () => NODE,
		getNodeParameter: (name: string, _item: number, fallback?: unknown) =>
			name in parameters ? parameters[name] : fallback,
		helpers,
	} as unknown as IExecuteFunctions;
	return { ctx, requested };
}

async function download(n8n: N8n, fileUrl: string, parameters: Record<string, unknown> = {}) {
	const { ctx, requested } = contextFor(n8n, { fileUrl, maxFileSizeMb: 1, ...parameters });
	try {
		const file = await downloadFromParameters(ctx, 0, IMAGE, { defaultMb: 1, maxMb: 5 }, {});
		return { file, requested, message: '' };
	} catch (error) {
		return { file: undefined, requested, message: (error as Error).message };
	}
}

const NOTHING_SENT = 'Nothing was sent to the Ad Cabinet API, so running again is safe.';
const USE_PUBLIC =
	'Use a public address, or turn on Allow Private Network Addresses for a file on your own network';

describe.each<N8n>(['n8n 2.x (with its egress filter)', 'n8n 1.x (no egress filter)'])(
	'File URL downloads on %s',
	(n8n) => {
		test.each([
			['loopback', () => `http://127.0.0.1:${portOf(secret)}/secret`, 'a loopback address'],
			['localhost', () => `http://localhost:${portOf(secret)}/secret`, 'a loopback address'],
			['IPv6 loopback', () => `http://[::1]:${portOf(secret)}/secret`, 'a loopback address'],
			[
				'IPv4-mapped loopback',
				() => `http://[::ffff:127.0.0.1]:${portOf(secret)}/secret`,
				'a loopback address',
			],
			[
				'NAT64 loopback',
				() => `http://[64:ff9b::7f00:1]:${portOf(secret)}/secret`,
				'a loopback address',
			],
			[
				'loopback written as one number',
				() => `http://2130706433:${portOf(secret)}/secret`,
				'a loopback address',
			],
			[
				'the unspecified address',
				() => `http://0.0.0.0:${portOf(secret)}/secret`,
				'the unspecified address',
			],
			[
				'a cloud metadata service',
				() => 'http://169.254.169.254/latest/meta-data/',
				'a link-local address',
			],
			['a private network', () => 'http://10.0.0.1/banner.png', 'a private network address'],
			[
				'an IPv6 private network',
				() => 'https://[fd00::1]/banner.png',
				'a private network address',
			],
			['multicast', () => 'http://224.0.0.1/banner.png', 'a multicast address'],
		])(
			'%s is refused before any connection, and nothing it serves is quoted',
			async (_case, url, kind) => {
				const { message, requested } = await download(n8n, url());
				expect(message).toBe(
					`File URL: must be an address on the public internet, but it is ${kind}, so nothing was downloaded from it. ${USE_PUBLIC} (got "${new URL(url()).href}"). ${NOTHING_SENT}`,
				);
				expect(requested).toEqual([]);
				expect(secretHits).toEqual([]);
			},
		);

		test('a closed and an open port on this machine get the same refusal, before any connection', async () => {
			const open = await download(n8n, `http://127.0.0.1:${portOf(secret)}/secret`);
			const closed = await download(n8n, `http://127.0.0.1:${closedPort}/secret`);
			const withoutPort = (message: string) => message.replace(/:\d+\//, ':PORT/');
			expect(withoutPort(open.message)).toBe(withoutPort(closed.message));
			expect(open.message).toMatch(/^File URL: must be an address on the public internet/);
			expect([...open.requested, ...closed.requested]).toEqual([]);
			expect(secretHits).toEqual([]);
		});

		test.each([
			['/to-secret', 'a loopback address'],
			['/to-localhost', 'a loopback address'],
		])('a redirect to this machine (%s) is not followed', async (path, kind) => {
			const { message, requested, file } = await download(n8n, `http://${PUBLIC_HOST}${path}`);
			expect(file).toBeUndefined();
			expect(message).toBe(
				`File URL: must lead to an address on the public internet, but it redirects to ${kind}, so the redirect was not followed. ${USE_PUBLIC} (got "http://${PUBLIC_HOST}${path}"). ${NOTHING_SENT}`,
			);
			expect(message).not.toContain('AKIA');
			expect(requested).toEqual([`http://${PUBLIC_HOST}${path}`]);
			expect(siteHits).toEqual([path]);
			expect(secretHits).toEqual([]);
		});

		test('at most 3 redirects are followed, each one checked', async () => {
			const three = await download(n8n, `http://${PUBLIC_HOST}/chain/3`);
			expect(three.message).toBe('');
			expect(Buffer.compare(three.file?.bytes ?? Buffer.alloc(0), PNG)).toBe(0);
			expect(three.file?.url.href).toBe(`http://${PUBLIC_HOST}/chain/0`);
			expect(siteHits).toEqual(['/chain/3', '/chain/2', '/chain/1', '/chain/0']);

			siteHits = [];
			const four = await download(n8n, `http://${PUBLIC_HOST}/chain/4`);
			expect(four.message).toBe(
				`File URL: the address redirected more than 3 times, so the file was not downloaded; use the file's own address (got "http://${PUBLIC_HOST}/chain/4"). ${NOTHING_SENT}`,
			);
			expect(siteHits).toEqual(['/chain/4', '/chain/3', '/chain/2', '/chain/1']);
		});

		test('Allow Private Network Addresses lets a file on this machine through, also after a redirect', async () => {
			const direct = await download(n8n, `http://127.0.0.1:${portOf(secret)}/image.png`, {
				allowPrivateNetwork: true,
			});
			expect(direct.message).toBe('');
			expect(Buffer.compare(direct.file?.bytes ?? Buffer.alloc(0), PNG)).toBe(0);
			const redirected = await download(n8n, `http://${PUBLIC_HOST}/to-image`, {
				allowPrivateNetwork: true,
			});
			expect(redirected.message).toBe('');
			expect(secretHits).toEqual(['/image.png', '/image.png']);
		});

		test('Max File Size above its maximum is refused before any download', async () => {
			const { message, requested } = await download(n8n, `http://${PUBLIC_HOST}/banner.png`, {
				maxFileSizeMb: 6,
			});
			expect(message).toBe(
				'Max File Size (MB): must be a number of megabytes above 0 and at most 5 (got 6). Nothing was sent to the API.',
			);
			expect(requested).toEqual([]);
			expect(siteHits).toEqual([]);
		});
	},
);

describe('host names on n8n 2.x, resolved through its egress filter', () => {
	const n8n: N8n = 'n8n 2.x (with its egress filter)';

	test.each([
		['intranet.example.test', 'a private network address'],
		['nat64.example.test', 'a loopback address'],
	])('%s resolves to %s and is refused before any connection', async (host, kind) => {
		const { message, requested } = await download(n8n, `http://${host}/banner.png`);
		expect(message).toBe(
			`File URL: must be an address on the public internet, but its host name resolves to ${kind}, so nothing was downloaded from it. ${USE_PUBLIC} (got "http://${host}/banner.png"). ${NOTHING_SENT}`,
		);
		expect(requested).toEqual([]);
	});

	test('a redirect to a host name that resolves to a private address is not followed', async () => {
		const { message, requested } = await download(n8n, `http://${PUBLIC_HOST}/to-intranet`);
		expect(message).toMatch(
			/^File URL: must lead to an address on the public internet, but it redirects to a host name that resolves to a private network address, so the redirect was not followed\./,
		);
		expect(requested).toEqual([`http://${PUBLIC_HOST}/to-intranet`]);
	});

	test("with Allow Private Network Addresses on, the instance's own SSRF protection still applies, with its own words", async () => {
		const config = Container.get(SsrfProtectionConfig);
		config.enabled = true;
		try {
			const { message, requested } = await download(
				n8n,
				`http://127.0.0.1:${portOf(secret)}/image.png`,
				{
					allowPrivateNetwork: true,
				},
			);
			expect(message).toBe(
				`File URL: n8n's outbound network policy (its N8N_SSRF_ settings) does not allow this address, so nothing was downloaded from it; use another address or ask the n8n administrator (got "http://127.0.0.1:${portOf(secret)}/image.png"). ${NOTHING_SENT}`,
			);
			expect(requested).toHaveLength(1);
			expect(secretHits).toEqual([]);
		} finally {
			config.enabled = false;
		}
	});

	test('a public host name downloads', async () => {
		const { message, file } = await download(n8n, `http://${PUBLIC_HOST}/banner.png`);
		expect(message).toBe('');
		expect(file?.declared).toBe('image/png');
	});
});

describe('a download has one total deadline: headers and body together', () => {
	test('a server that drips the file a byte at a time is cut off at the Timeout, saying how much had arrived and that nothing was sent to the API', async () => {
		const { ctx } = contextFor('n8n 1.x (no egress filter)', {
			fileUrl: `http://${PUBLIC_HOST}/drip.png`,
			maxFileSizeMb: 1,
			allowPrivateNetwork: true,
		});
		const started = Date.now();
		const error = await downloadFromParameters(ctx, 0, IMAGE, { defaultMb: 1, maxMb: 5 }, { timeout: 700 }).catch(
			(e: unknown) => e as Error,
		);
		const elapsed = Date.now() - started;
		expect(error).toBeInstanceOf(Error);
		const message = (error as Error).message;
		expect(message).toMatch(
			/the download timed out: it did not finish within 0\.7 s \(the Timeout under Request Options, for the headers and the whole file together\), after \d+ bytes? had arrived/,
		);
		const bytes = Number(/after (\d+) byte/.exec(message)?.[1]);
		expect(bytes).toBeGreaterThan(0);
		expect(bytes).toBeLessThan(PNG.length);
		expect(message).toContain(NOTHING_SENT);
		// Cut off near the deadline, not when the file would have ended.
		expect(elapsed).toBeLessThan(PNG.length * 100);
	});

	test('a file that arrives within the Timeout is downloaded whole', async () => {
		const { ctx } = contextFor('n8n 1.x (no egress filter)', {
			fileUrl: `http://${PUBLIC_HOST}/banner.png`,
			maxFileSizeMb: 1,
		});
		const file = await downloadFromParameters(ctx, 0, IMAGE, { defaultMb: 1, maxMb: 5 }, { timeout: 5_000 });
		expect(file.bytes.equals(PNG)).toBe(true);
	});
});
