import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { OutboundHttp } from '@n8n/backend-network';
import { Container } from '@n8n/di';
import type {
	IExecuteFunctions,
	IHttpRequestOptions,
	INode,
	NodeEgressFilter,
	UseDefaultSsrfPolicy,
} from 'n8n-workflow';
import { downloadFromParameters, type FileKind } from '../../nodes/shared/download';

/**
 * A stage for the download helper with n8n's own HTTP helper and egress filter (n8n-core 2.41), and
 * without the filter, as on n8n 1.x. Only DNS is stood in for: `*.example.test` names resolve to the
 * addresses below, and requests to files.example.test reach a local server that plays a public
 * web server.
 */
export const PNG = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
	'base64',
);
/** What a metadata service on this machine would hand out. */
const SECRET = 'AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
export const PUBLIC_HOST = 'files.example.test';
const FAKE_DNS: Record<string, string> = {
	[PUBLIC_HOST]: '93.184.215.14',
	'intranet.example.test': '10.0.0.5',
	// NAT64 form of 127.0.0.1: not on n8n's default list, refused by the node's own table.
	'nat64.example.test': '64:ff9b::7f00:1',
};

export const IMAGE: FileKind = {
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
export const portOf = (server: Server) => (server.address() as AddressInfo).port;

/** A service on this machine: every request it gets is counted. */
export let secret: Server;
export let secretHits: string[] = [];
/** The stand-in for a public web server. */
let site: Server;
export let siteHits: string[] = [];
export let closedPort: number;

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

export type N8n = 'n8n 2.x (with its egress filter)' | 'n8n 1.x (no egress filter)';

export function contextFor(n8n: N8n, parameters: Record<string, unknown>) {
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

export async function download(
	n8n: N8n,
	fileUrl: string,
	parameters: Record<string, unknown> = {},
) {
	const { ctx, requested } = contextFor(n8n, { fileUrl, maxFileSizeMb: 1, ...parameters });
	try {
		const file = await downloadFromParameters(ctx, 0, IMAGE, { defaultMb: 1, maxMb: 5 }, {});
		return { file, requested, message: '' };
	} catch (error) {
		return { file: undefined, requested, message: (error as Error).message };
	}
}

export const NOTHING_SENT = 'Nothing was sent to the Ad Cabinet API, so running again is safe.';
export const USE_PUBLIC =
	'Use a public address, or turn on Allow Private Network Addresses for a file on your own network';

/** Starts the stand-in servers for the test file that calls it, and clears what they counted before each test. */
export function useDownloadSite(): void {
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
}
