import '../../../harness/env';
import { Container } from '@n8n/di';
import { SsrfProtectionConfig } from '@n8n/config';
import {
	closedPort,
	download,
	NOTHING_SENT,
	PNG,
	portOf,
	PUBLIC_HOST,
	secret,
	secretHits,
	siteHits,
	USE_PUBLIC,
	useDownloadSite,
	type N8n,
} from '../../support/downloadSite';

/**
 * Which addresses a File URL and its redirects may reach, checked before any connection: literal
 * addresses on n8n 2.x and 1.x alike, host names through n8n 2.x's egress filter.
 */
useDownloadSite();

describe.each<N8n>(['n8n 2.x (with its egress filter)', 'n8n 1.x (no egress filter)'])(
	'File URL addresses on %s',
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
