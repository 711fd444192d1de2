import { createHash } from 'node:crypto';
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import type { MultipartBody } from '../../sandbox';
import { runNode } from '../../harness';
import { apiRequests, credentialsFor } from '../../harness/sandbox';
import { useSandbox } from '../support/useSandbox';

const UZ_CABINET = 'ACC06163';
const DE_CABINET = 'ACC07021';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const numbers = (n: number, from = 0) =>
	Array.from({ length: n }, (_, i) => `99893${String(from + i).padStart(7, '0')}`);
/** The ways a spreadsheet column holds the same number. */
const FORMATS = [
	(n: string) =>
		`+${n.slice(0, 3)} ${n.slice(3, 5)} ${n.slice(5, 8)}-${n.slice(8, 10)}-${n.slice(10)}`,
	(n: string) => `+998 (${n.slice(3, 5)}) ${n.slice(5)}`,
	(n: string) => Number(n),
	(n: string) => n,
];

const fromItems = (parameters: INodeParameters = {}): INodeParameters => ({
	resource: 'audience',
	operation: 'create',
	accountId: UZ_CABINET,
	title: 'Sheet customers',
	source: 'items',
	phoneField: 'phone',
	...parameters,
});

/** A sheet of 1,000 valid numbers in mixed formats, plus duplicates and rows without a phone. */
function sheet(): { rows: IDataObject[]; unique: string[] } {
	const unique = numbers(1000);
	const rows: IDataObject[] = unique.map((n, i) => ({
		name: `Customer ${i}`,
		phone: FORMATS[i % 4](n),
	}));
	for (let i = 0; i < 150; i++)
		rows.push({ name: `Repeat ${i}`, phone: FORMATS[(i + 1) % 4](unique[i * 3]) });
	for (let i = 0; i < 20; i++) rows.push({ name: `No phone ${i}`, phone: i % 2 ? '' : null });
	rows.push({ name: 'Missing field' });
	return { rows, unique };
}

function sentEntries(sandbox: { requests: { body?: unknown }[] }): {
	title: string;
	entries: string[];
	file: MultipartBody['files'][string];
} {
	const body = sandbox.requests[0].body as MultipartBody;
	return {
		title: body.fields.title,
		entries: body.files.audience.bytes.toString('utf8').split('\n'),
		file: body.files.audience,
	};
}

describe('Ad Cabinet Audiences', () => {
	const sandbox = useSandbox();
	const run = async (parameters: INodeParameters, input?: IDataObject[], continueOnFail = false) =>
		await runNode({
			type: 'adCabinetAudiences',
			parameters,
			credentials: credentialsFor(sandbox()),
			input,
			continueOnFail,
		});

	test('From Input Items: the sandbox receives exactly the normalized, deduplicated, hashed numbers in one request', async () => {
		const { rows, unique } = sheet();
		const { items, error } = await run(fromItems(), rows);
		expect(error).toBeUndefined();
		const log = apiRequests(sandbox());
		expect(log).toHaveLength(1);
		expect(log[0]).toMatchObject({
			method: 'POST',
			api: 'client',
			path: `/api/advertisement/telegram/${UZ_CABINET}/audiences`,
			status: 201,
		});
		const sent = sentEntries(sandbox());
		expect(sent.title).toBe('Sheet customers');
		expect(sent.file).toMatchObject({ filename: 'audience.csv', type: 'text/csv' });
		expect(sent.entries.slice().sort()).toEqual(unique.map(sha).sort());
		expect(sent.entries.every((entry) => /^[0-9a-f]{64}$/.test(entry))).toBe(true);

		const [upload] = sandbox().data.audienceUploads;
		expect(upload.entries).toHaveLength(1000);
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({
			tg_id: sandbox().data.audiencesOf(UZ_CABINET).at(-1)?.tg_id,
			title: 'Sheet customers',
			report: {
				valid: 1000,
				invalid: 0,
				duplicatesRemoved: 150,
				emptySkipped: 21,
				phoneNumbers: 1000,
				hashed: true,
				summary:
					'1,000 valid unique entries, 0 invalid entries, 150 duplicates removed, 21 empty values skipped',
			},
		});
		expect(items[0].pairedItem).toEqual(rows.map((_row, index) => ({ item: index })));
	});

	test('with Hash Numbers Before Upload off, the normalized numbers themselves are sent', async () => {
		const { rows, unique } = sheet();
		const { error } = await run(fromItems({ hashNumbers: false }), rows);
		expect(error).toBeUndefined();
		expect(sentEntries(sandbox()).entries.slice().sort()).toEqual(unique);
	});

	test('numbers already hashed in the sheet are sent as they are', async () => {
		const hashes = numbers(1000).map(sha);
		const { items, error } = await run(
			fromItems({ phoneField: 'contact.hash' }),
			hashes.map((h) => ({ contact: { hash: h.toUpperCase() } })),
		);
		expect(error).toBeUndefined();
		expect(sentEntries(sandbox()).entries).toEqual(hashes);
		expect(items[0].json.report).toMatchObject({ sha256Hashes: 1000, phoneNumbers: 0 });
	});

	test('From Binary File: a CSV with a header is read, cleaned and hashed, one audience per item', async () => {
		const unique = numbers(1200, 5000);
		const csv = `phone\n${unique.map((n, i) => (i % 2 ? `+${n}` : n)).join('\n')}\n${unique.slice(0, 10).join(',')}\n`;
		const input = [
			{
				json: { list: 'March' },
				binary: {
					file: {
						data: Buffer.from(csv).toString('base64'),
						mimeType: 'text/csv',
						fileName: 'march.csv',
					},
				},
			},
		];
		const { items, error } = await runNode({
			type: 'adCabinetAudiences',
			parameters: fromItems({
				source: 'binary',
				binaryPropertyName: 'file',
				title: '={{ "Customers " + $json.list }}',
			}),
			credentials: credentialsFor(sandbox()),
			input,
		});
		expect(error).toBeUndefined();
		const sent = sentEntries(sandbox());
		expect(sent.title).toBe('Customers March');
		expect(sent.entries.slice().sort()).toEqual(unique.map(sha).sort());
		expect(items[0].json.report).toMatchObject({
			valid: 1200,
			duplicatesRemoved: 10,
			headerSkipped: 'phone',
		});
		expect(items[0].pairedItem).toEqual({ item: 0 });
	});

	const rules: [string, () => IDataObject[], string][] = [
		[
			'fewer than 1,000 numbers after normalization and duplicate removal',
			() => [...numbers(999), '+998 93 000-00-01'].map((phone) => ({ phone })),
			'Phone Field: an audience needs at least 1,000 numbers after normalization and duplicate removal; found 999 valid unique entries, 0 invalid entries, 1 duplicate removed',
		],
		[
			'entries that are neither 998 numbers nor SHA-256 hashes',
			() => [...numbers(1000), 'n/a', '+7 999 123-45-67', '99893123'].map((phone) => ({ phone })),
			'Phone Field: every entry must be a phone number of 12 digits starting with 998, or a SHA-256 hash of 64 hex characters; found 1,000 valid unique entries, 3 invalid entries (first: "n/a", "+7 999 123-45-67", "99893123"), 0 duplicates removed',
		],
		[
			'raw numbers mixed with hashes',
			() => [...numbers(1000), sha('998930000001')].map((phone) => ({ phone })),
			'Phone Field: entries must be all phone numbers or all SHA-256 hashes, not a mix; found 1,000 phone numbers and 1 hash',
		],
		[
			'a file over 10 MB',
			() => numbers(161_400).map((phone) => ({ phone })),
			'Phone Field: the audience file may be at most 10 MB (10,485,760 bytes); 161,400 entries as SHA-256 hashes make 10,490,999 bytes.',
		],
		[
			'a field no item has',
			() => numbers(1000).map((phone) => ({ mobile: phone })),
			'Phone Field: no input item has a value in this field (1,000 items read) (got "phone")',
		],
	];

	test.each(rules)(
		'refuses %s, with the counts, before any request',
		async (_rule, rows, message) => {
			const { error, items } = await run(fromItems(), rows());
			expect(items).toHaveLength(0);
			expect(error?.message.startsWith(message)).toBe(true);
			expect(apiRequests(sandbox())).toHaveLength(0);
		},
	);

	test("a cabinet outside Uzbekistan: the API's refusal is explained", async () => {
		const { rows } = sheet();
		const { error } = await run(fromItems({ accountId: DE_CABINET }), rows);
		expect(error?.httpCode).toBe('403');
		expect(error?.message).toContain(
			'Audiences are available only for cabinets whose geolocation is Uzbekistan',
		);
		expect(error?.message).toContain(
			'phone-number audiences are available only for cabinets whose geolocation is Uzbekistan',
		);
		expect(error?.message).toContain(DE_CABINET);
		expect(apiRequests(sandbox())).toHaveLength(1);
	});

	test('Continue On Fail: one error item paired to every input item', async () => {
		const rows = numbers(10).map((phone) => ({ phone }));
		const { items, error } = await run(fromItems(), rows, true);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json.error).toMatch(/^Phone Field: an audience needs at least 1,000 numbers/);
		expect(items[0].pairedItem).toEqual(rows.map((_row, index) => ({ item: index })));
	});

	test('From a List: one parameter of numbers (a text or an array) makes one audience per item, cleaned and hashed', async () => {
		const unique = numbers(1000);
		const text = [...unique.map((n, i) => FORMATS[i % 2](n) as string), unique[0]].join(',\n');
		const list = (phoneNumbers: unknown, title: string): INodeParameters => ({
			resource: 'audience',
			operation: 'create',
			accountId: UZ_CABINET,
			title,
			source: 'list',
			phoneNumbers: phoneNumbers as string,
		});
		const fromText = await run(list(text, 'Typed list'), [{}]);
		expect(fromText.error).toBeUndefined();
		expect(fromText.items[0].json).toMatchObject({
			title: 'Typed list',
			report: { valid: 1000, duplicatesRemoved: 1, hashed: true },
		});
		expect(sentEntries(sandbox()).entries.slice().sort()).toEqual(unique.map(sha).sort());

		const fromArray = await run(list('={{ $json.phones }}', 'From an array'), [{ phones: unique }]);
		expect(fromArray.error).toBeUndefined();
		expect(fromArray.items[0].json).toMatchObject({
			title: 'From an array',
			report: { valid: 1000, duplicatesRemoved: 0 },
		});
		expect(apiRequests(sandbox())).toHaveLength(2);
	});

	test('From a List: too few numbers or none are refused before anything is sent', async () => {
		const list = (phoneNumbers: string): INodeParameters => ({
			resource: 'audience',
			operation: 'create',
			accountId: UZ_CABINET,
			title: 'Short',
			source: 'list',
			phoneNumbers,
		});
		const few = await run(list(numbers(3).join(', ')), [{}]);
		expect(few.error?.message).toBe(
			'Phone Numbers: an audience needs at least 1,000 numbers after normalization and duplicate removal; found 3 valid unique entries, 0 invalid entries, 0 duplicates removed. Nothing was sent to the API.',
		);
		const none = await run(list(' , '), [{}]);
		expect(none.error?.message).toBe(
			'Phone Numbers: is required: phone numbers separated by commas or line breaks. Nothing was sent to the API.',
		);
		expect(apiRequests(sandbox())).toHaveLength(0);
	});

	test("Get Many lists the cabinet's audiences; Limit cuts the list", async () => {
		const all = await run({ resource: 'audience', operation: 'getAll', accountId: UZ_CABINET });
		expect(all.items.map((item) => item.json)).toEqual(
			sandbox()
				.data.audiencesOf(UZ_CABINET)
				.map(({ tg_id, title }) => ({ tg_id, title })),
		);
		expect(apiRequests(sandbox())[0]).toMatchObject({
			method: 'GET',
			path: `/api/advertisement/telegram/${UZ_CABINET}/audiences/`,
		});
		const two = await run({
			resource: 'audience',
			operation: 'getAll',
			accountId: UZ_CABINET,
			returnAll: false,
			limit: 2,
		});
		expect(two.items).toHaveLength(2);
		const de = await run({ resource: 'audience', operation: 'getAll', accountId: DE_CABINET });
		expect(de.error?.message).toContain('only for cabinets whose geolocation is Uzbekistan');
	});
});

describe("Ad Cabinet Audiences in the spec's form (credential platform ext)", () => {
	const sandbox = useSandbox({ platform: 'ext' });
	const run = async (parameters: INodeParameters, input?: IDataObject[]) =>
		await runNode({
			type: 'adCabinetAudiences',
			parameters,
			credentials: credentialsFor(sandbox()),
			input,
		});

	test('Create and Get Many use the ext paths, and the audience id is ext_id', async () => {
		const created = await run(
			{
				resource: 'audience',
				operation: 'create',
				accountId: '100001',
				title: 'Spec form',
				source: 'list',
				phoneNumbers: numbers(1000).join(','),
			},
			[{}],
		);
		expect(created.error).toBeUndefined();
		const stored = sandbox().data.audiencesOf('100001').at(-1);
		expect(created.items[0].json).toMatchObject({ ext_id: stored?.ext_id, title: 'Spec form' });
		const all = await run({ resource: 'audience', operation: 'getAll', accountId: '100001' });
		expect(all.items.map((item) => item.json)).toContainEqual({
			ext_id: stored?.ext_id,
			title: 'Spec form',
		});
		expect(apiRequests(sandbox()).map((r) => [r.method, r.path])).toEqual([
			['POST', '/api/advertisement/ext/100001/audiences'],
			['GET', '/api/advertisement/ext/100001/audiences/'],
		]);
	});
});
