/**
 * What the example workflows that read from or write to a spreadsheet must produce when real n8n
 * runs them against the sandbox; part of the table in expectations.ts, which says what every
 * example is held to besides.
 */
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import type { MultipartBody } from '../../sandbox';
import { numeric } from './csvRows';
import { DAY_MS, flatten, type ExampleExpectation } from './expectationContext';

/** A cabinet the examples name, in the real service's form the stage runs. */
const UZ_CABINET = 'ACC06163';

export const SHEET_EXPECTATIONS: Record<string, ExampleExpectation> = {
	'ads-from-sheet-rerun-safe.json': {
		run: 'manual',
		title:
			'the pinned rows without an ad_id each end with exactly one ad in the campaign (made now, or an identical one found), whose ad_id reaches Write ad_id back (pinned in the file; the sheets stage writes it for real)',
		check({ items, requests, sandbox }) {
			const rows = items('Get rows').map((item) => item.json);
			const pending = items('Rows without ad_id').map((item) => item.json);
			assert.deepEqual(
				pending,
				rows.filter((row) => String(row.ad_id ?? '').trim() === ''),
				'the rows whose ad_id is empty, and no other',
			);
			assert.ok(pending.length >= 2 && pending.length < rows.length, 'some rows already have one');
			const creates = requests.filter((r) => r.method === 'POST');
			assert.ok(creates.length <= pending.length, 'at most one create per row');
			for (const [index, request] of creates.entries()) {
				assert.equal(request.status, 201, `create ${index + 1} answered 201`);
				const body = request.body as Record<string, unknown>;
				assert.ok(
					pending.some((row) => row.title === body.title && row.url === body.promote_url),
					`create ${index + 1} is the creative of a pending row`,
				);
			}
			// Skip Identical reads the ads by title before any create.
			const lists = requests.filter(
				(r) => r.method === 'GET' && r.path === '/api/v2/advertisement/',
			);
			assert.deepEqual(
				lists
					.filter((r) => r.query.advertisement_titles !== undefined)
					.map((r) => r.query.advertisement_titles),
				pending.map((row) => row.title),
				'the ad list is read once per title, with that title',
			);
			// After the node's last create, one look at the ads made today for a twin another run
			// (of this workflow or another) made at the same moment.
			assert.deepEqual(
				lists.filter((r) => r.query.advertisement_titles === undefined).map((r) => r.query.period),
				creates.length > 0 ? ['today'] : [],
				'one look at the ads made today after the creates, and only then',
			);

			const made = items('Create ad').map((item) => item.json);
			assert.equal(made.length, pending.length, 'one item per pending row');
			pending.forEach((row, index) => {
				const same = sandbox.data.ads.filter(
					(ad) =>
						ad.status !== 'deleted' &&
						ad.campaignId === 2201 &&
						ad.fields.title === row.title &&
						ad.fields.text === row.text &&
						ad.fields.promote_url === row.url,
				);
				assert.equal(same.length, 1, `row ${String(row.key)}: exactly one such ad in the campaign`);
				assert.equal(Number(made[index].ad_id), same[0].id, `row ${String(row.key)}: its ad's id`);
			});
		},
	},
	'create-ads-from-sheet.json': {
		title:
			"one ad per sheet row with the row's creative and the shared settings, as the API now has it",
		check({ items, requests, sandbox }) {
			const rows = items('One row per creative').map((item) => item.json);
			const creates = requests.filter((r) => r.method === 'POST');
			const reads = requests.filter((r) => r.method !== 'POST');
			// kktu_ids takes a node's id, not its code: 2.1.1 is resolved with one read of the tree.
			// Skip Identical then reads the ad list once, page by page, before the first create.
			const [tree, ...list] = reads.map((r) => `${r.method} ${r.path}`);
			assert.equal(tree, 'GET /api/kktu');
			assert.ok(list.length >= 1, 'Skip Identical reads the ad list');
			assert.deepEqual(new Set(list), new Set(['GET /api/v2/advertisement/']), 'the ad list only');
			const kktu = flatten(sandbox.data.kktu).find((node) => node.code === '2.1.1');
			assert.ok(kktu && sandbox.data.kktuLevel(kktu.id) === 3, 'KKTU 2.1.1 is a third-level node');

			assert.equal(creates.length, rows.length, 'one create request per row');
			creates.forEach((request, index) => {
				assert.match(request.path, /^\/api\/advertisement\/[^/]+\/$/);
				assert.equal(request.status, 201, `row ${index + 1} created`);
				const body = request.body as Record<string, unknown>;
				const row = rows[index];
				assert.deepEqual(
					[body.title, body.text, body.promote_url],
					[row.title, row.text, row.url],
					`row ${index + 1}: the creative of its row`,
				);
				assert.deepEqual(
					{
						campaign_id: body.campaign_id,
						cpm: body.cpm,
						budget: body.budget,
						daily_budget: body.daily_budget,
						ad_type: body.ad_type,
						langs: body.langs,
						countries: body.countries,
						kktu_ids: body.kktu_ids,
						after_moderation_status: body.after_moderation_status,
					},
					{
						campaign_id: 2201,
						cpm: 2.5,
						budget: 150,
						daily_budget: 15,
						ad_type: 'target_channels',
						langs: ['de', 'en'],
						countries: ['DE'],
						kktu_ids: [kktu.id],
						after_moderation_status: 'on hold',
					},
					`row ${index + 1}: the settings of the node`,
				);
			});

			const created = items('Create ad');
			assert.equal(created.length, rows.length, 'one output item per ad');
			created.forEach((item, index) => {
				const detail = sandbox.data.adDetail(Number(item.json.ad_id));
				assert.ok(detail, `ad ${String(item.json.ad_id)} exists in the cabinet`);
				assert.deepEqual(
					item.json,
					detail,
					`item ${index}: the ad as GET /api/advertisement/…/{id} shows it`,
				);
				assert.equal(detail.title, rows[index].title);
			});
		},
	},
	'stats-trigger-to-sheet.json': {
		run: 'manual',
		title:
			'"Fetch Test Event" gives the latest settled campaign rows with row_key, for Google Sheets Append or Update Row on row_key',
		check({ example, items, requests, sandbox, startedAt }) {
			assert.ok(requests.length >= 1, 'no statistics request reached the sandbox');
			for (const request of requests) assert.equal(request.path, '/api/v1/stats/page');
			const first = requests[0].body as Record<string, unknown>;
			assert.equal(first.period_grouping_unit, 'day');
			assert.deepEqual(first.grouping, ['campaign']);
			assert.equal(first.currency_code, 'EUR');

			// Settled: the day has ended and the default settle delay of 60 minutes has passed.
			const settled = sandbox.data
				.statsRows(first)
				.filter(
					(row) =>
						Date.parse(String(row.period_date)) + DAY_MS + 60 * 60_000 <= startedAt.getTime(),
				)
				.map(numeric);
			assert.ok(settled.length > 0, 'the sandbox has settled rows in the window');
			const rows = items('New stats rows').map((item) => item.json);
			assert.deepEqual(
				rows.map((row) => {
					const rest = { ...row };
					delete rest.row_key;
					delete rest.restated;
					return rest;
				}),
				settled.slice(-5),
				'the 5 latest settled rows, as numbers',
			);
			// With Re-Check on, a test event is never a correction.
			assert.deepEqual(
				rows.map((row) => row.restated),
				rows.map(() => false),
			);
			const keys = rows.map((row) => String(row.row_key));
			for (const [index, key] of keys.entries()) {
				const row = rows[index];
				assert.ok(
					key.endsWith(`|d|EUR|c${String(row.campaign_id)}`),
					`row ${index}: row_key ${key} names the unit, currency and campaign`,
				);
			}
			assert.equal(new Set(keys).size, keys.length, 'no two rows share a row_key');

			const sheet = example.workflow.nodes.find((node) => node.name === 'Write to sheet');
			assert.ok(sheet, 'the example writes to a Google Sheet');
			assert.equal(sheet.type, 'n8n-nodes-base.googleSheets');
			assert.equal(sheet.parameters.operation, 'appendOrUpdate');
			assert.deepEqual(
				(sheet.parameters.columns as { matchingColumns: string[] }).matchingColumns,
				['row_key'],
			);
			assert.deepEqual(sheet.parameters.options, { cellFormat: 'RAW' }, 'cells written as sent');
		},
	},
	'audience-from-sheet.json': {
		title: 'one audience upload: every distinct number of the sheet, normalised and SHA-256 hashed',
		check({ items, requests, sandbox }) {
			const typed = items('One row per number').map((item) => String(item.json.phone));
			const distinct = [...new Set(typed.map((phone) => phone.replace(/\D/g, '')))];
			const hashes = distinct.map((n) => createHash('sha256').update(n).digest('hex')).sort();

			assert.equal(requests.length, 1, 'a single upload request');
			const [upload] = requests;
			assert.equal(upload.method, 'POST');
			assert.equal(upload.path, `/api/advertisement/telegram/${UZ_CABINET}/audiences`);
			const body = upload.body as MultipartBody;
			assert.deepEqual(body.fields, { title: 'Customers from sheet' });
			const file = body.files.audience;
			assert.ok(file, 'the file part is named "audience"');
			const sent = file.bytes
				.toString('utf8')
				.split(/[\s,]+/)
				.filter(Boolean)
				.sort();
			assert.deepEqual(
				sent,
				hashes,
				'the file holds the SHA-256 of each distinct normalised number',
			);

			const created = sandbox.data
				.audiencesOf(UZ_CABINET)
				.find((a) => a.title === 'Customers from sheet');
			assert.ok(created, 'the sandbox has the new audience');
			const [result] = items('Create audience');
			assert.equal(items('Create audience').length, 1);
			// The audience as the API serves it (its platform id and title), as the item carries it.
			for (const [key, value] of Object.entries(created)) {
				if (key !== 'account_id') assert.equal(result.json[key], value, key);
			}
			const report = result.json.report as Record<string, unknown>;
			assert.equal(report.valid, distinct.length);
			assert.equal(report.duplicatesRemoved, typed.length - distinct.length);
			assert.equal(report.invalid, 0);
		},
	},
};
