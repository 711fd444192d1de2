import '../../../harness/env';
import {
	contextFor,
	download,
	IMAGE,
	NOTHING_SENT,
	PNG,
	PUBLIC_HOST,
	siteHits,
	useDownloadSite,
	type N8n,
} from '../../support/downloadSite';
import { downloadFromParameters } from '../../../nodes/shared/download';

/** Downloading a File URL: redirects followed one by one, the size limit, and one total deadline. */
useDownloadSite();

describe.each<N8n>(['n8n 2.x (with its egress filter)', 'n8n 1.x (no egress filter)'])(
	'File URL downloads on %s',
	(n8n) => {
		test('at most 3 redirects are followed, each one checked', async () => {
			const three = await download(n8n, `http://${PUBLIC_HOST}/chain/3`);
			expect(three.message).toBe('');
			expect(Buffer.compare(three.file?.bytes ?? Buffer.alloc(0), PNG)).toBe(0);
			expect(three.file?.url.href).toBe(`http://${PUBLIC_HOST}/chain/0`);
			expect(siteHits).toEqual(['/chain/3', '/chain/2', '/chain/1', '/chain/0']);

			siteHits.length = 0;
			const four = await download(n8n, `http://${PUBLIC_HOST}/chain/4`);
			expect(four.message).toBe(
				`File URL: the address redirected more than 3 times, so the file was not downloaded; use the file's own address (got "http://${PUBLIC_HOST}/chain/4"). ${NOTHING_SENT}`,
			);
			expect(siteHits).toEqual(['/chain/4', '/chain/3', '/chain/2', '/chain/1']);
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

describe('a download has one total deadline: headers and body together', () => {
	test('a server that drips the file a byte at a time is cut off at the Timeout, saying how much had arrived and that nothing was sent to the API', async () => {
		const { ctx } = contextFor('n8n 1.x (no egress filter)', {
			fileUrl: `http://${PUBLIC_HOST}/drip.png`,
			maxFileSizeMb: 1,
			allowPrivateNetwork: true,
		});
		const started = Date.now();
		const error = await downloadFromParameters(
			ctx,
			0,
			IMAGE,
			{ defaultMb: 1, maxMb: 5 },
			{ timeout: 700 },
		).catch((e: unknown) => e as Error);
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
		const file = await downloadFromParameters(
			ctx,
			0,
			IMAGE,
			{ defaultMb: 1, maxMb: 5 },
			{ timeout: 5_000 },
		);
		expect(file.bytes.equals(PNG)).toBe(true);
	});
});
