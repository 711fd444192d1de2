import { createHash } from 'node:crypto';
import { apiClient, TEST_NOW } from '../support/sandboxClient';
import { useSandbox } from '../support/useSandbox';

/** These tests run the spec's form (platform 'ext'). */
const PLATFORM = 'ext';

const ID = `${PLATFORM}_id`;
const list = (account: string) => `/api/advertisement/${PLATFORM}/${account}/audiences/`;
const create = (account: string) => `/api/advertisement/${PLATFORM}/${account}/audiences`;

function phones(count: number, start = 0): string[] {
	return Array.from({ length: count }, (_, i) => `998${String(900000000 + start + i)}`);
}

function audienceForm(
	title: string | undefined,
	content: string | Buffer,
	filename = 'audience.csv',
	type = 'text/csv',
): FormData {
	const data = new FormData();
	if (title !== undefined) data.append('title', title);
	data.append('audience', new Blob([content], { type }), filename);
	return data;
}

describe('phone-number audiences', () => {
	const sandbox = useSandbox({ platform: 'ext', now: TEST_NOW, adCount: 10 });
	const client = apiClient(sandbox, 'client');

	async function expect400(data: FormData, field: string, text: string) {
		const response = await client.post(create('100001'), { form: data });
		expect(response.status).toBe(400);
		expect(response.body.errors).toHaveProperty([field]);
		expect(response.body.detail).toContain(text);
	}

	test('the Uzbekistan cabinet lists its audiences as { {platform}_id, title }', async () => {
		const { status, body } = await client.get(list('100001'));
		expect(status).toBe(200);
		expect(body).toEqual([
			{ [ID]: 55001, title: 'Loyal customers Tashkent' },
			{ [ID]: 55002, title: 'App installers' },
			{ [ID]: 55003, title: 'Newsletter subscribers' },
		]);
	});

	test('other geolocations are 403, cabinets without permission 403, unknown ones 404', async () => {
		const german = await client.get(list('100002'));
		expect(german.status).toBe(403);
		expect(german.body.detail).toContain('Uzbekistan');
		expect(
			(await client.post(create('100003'), { form: audienceForm('x', phones(1000).join(',')) }))
				.status,
		).toBe(403);
		const forbidden = await client.get(list('100004'));
		expect(forbidden.status).toBe(403);
		expect(forbidden.body.detail).toContain('permission');
		expect((await client.get(list('999999'))).status).toBe(404);
	});

	test('a CSV of 1,000 numbers creates an audience: 201, listed, entries recorded exactly', async () => {
		const entries = phones(1000);
		const response = await client.post(create('100001'), {
			form: audienceForm('Spring buyers', entries.join(',')),
		});
		expect(response.status).toBe(201);
		expect(response.body).toEqual({ [ID]: expect.any(Number), title: 'Spring buyers' });
		expect((await client.get(list('100001'))).body).toContainEqual(response.body);
		const upload = sandbox().data.audienceUploads.at(-1);
		expect(upload).toEqual({ accountId: '100001', title: 'Spring buyers', entries });
	});

	test('a txt file with line breaks and SHA256 hashes is accepted', async () => {
		const hashes = phones(500, 5000).map((p) => createHash('sha256').update(p).digest('hex'));
		const entries = [...phones(500, 7000), ...hashes];
		const content = `${entries.slice(0, 700).join('\r\n')}\n${entries.slice(700).join(',\n')}\n`;
		const response = await client.post(create('100001'), {
			form: audienceForm('Mixed', content, 'list.txt', 'text/plain'),
		});
		expect(response.status).toBe(201);
		expect(sandbox().data.audienceUploads.at(-1)?.entries).toEqual(entries);
	});

	test('CSV or txt only: by extension or content type', async () => {
		await expect400(
			audienceForm('x', phones(1000).join(','), 'list.xlsx', 'application/vnd.ms-excel'),
			'audience',
			'CSV or txt',
		);
		const byType = await client.post(create('100001'), {
			form: audienceForm('By type', phones(1000).join(','), 'blob', 'text/csv'),
		});
		expect(byType.status).toBe(201);
	});

	test('at most 10 MB', async () => {
		const big = `${phones(1000).join(',')},${'9'.repeat(10 * 1024 * 1024)}`;
		await expect400(audienceForm('Big', big), 'audience', '10 MB');
	});

	test('at least 1,000 numbers', async () => {
		await expect400(audienceForm('Small', phones(999).join(',')), 'audience', 'at least 1,000');
	});

	test('digits only, international format starting with 998, 12 digits', async () => {
		const withPlus = ['+998901234567', ...phones(1000)].join(',');
		await expect400(audienceForm('Plus', withPlus), 'audience', 'digits only');
		const russian = [...phones(1000), '79001234567'].join(',');
		await expect400(audienceForm('RU', russian), 'audience', 'starting with 998');
		const short = [...phones(1000), '99890123456'].join(',');
		await expect400(audienceForm('Short', short), 'audience', '12 digits');
	});

	test('title and the audience file part are required', async () => {
		await expect400(audienceForm(undefined, phones(1000).join(',')), 'title', 'required');
		const noFile = new FormData();
		noFile.append('title', 'No file');
		await expect400(noFile, 'audience', 'file');
		const textPart = new FormData();
		textPart.append('title', 'Text part');
		textPart.append('audience', phones(1000).join(','));
		await expect400(textPart, 'audience', 'file part');
		const count = sandbox().data.audienceUploads.length;
		await expect400(audienceForm('', phones(1000).join(',')), 'title', 'required');
		expect(sandbox().data.audienceUploads).toHaveLength(count);
	});
});
