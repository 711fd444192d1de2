import { createServer, type Server } from 'node:http';
import type { INodeParameters } from 'n8n-workflow';
import type { AddressInfo } from 'node:net';
import { listSearch, loadOptions, runNode } from '../../harness';
import { apiRequests, credentialsFor } from '../../harness/sandbox';
import { cabinetIdIn, PLATFORMS } from '../../sandbox';
import { EVENT_FIELD } from '../support/adFixtures';
import { useSandbox } from '../support/useSandbox';

const CABINET = 'ACC07021';
const NO_ACCESS_CABINET = 'ACC08112';

const params = (operation: string, rest: INodeParameters = {}): INodeParameters => ({
	resource: 'pixelEvent',
	operation,
	...rest,
});
const byId = (value: string) => ({ __rl: true, mode: 'id', value });

describe('Ad Cabinet Pixel Events', () => {
	const sandbox = useSandbox();
	const run = async (parameters: INodeParameters, continueOnFail = false) =>
		await runNode({
			type: 'adCabinetPixelEvents',
			parameters,
			credentials: credentialsFor(sandbox()),
			continueOnFail,
		});

	test('full lifecycle: create → list → rename → delete → 404 on the second delete', async () => {
		const created = await run(
			params('create', { accountId: CABINET, title: 'Added to cart', type: 'custom' }),
		);
		expect(created.error).toBeUndefined();
		const event = created.items[0].json;
		expect(event).toMatchObject({ title: 'Added to cart', type: 'custom', status: 'active' });
		expect(apiRequests(sandbox())[0]).toMatchObject({
			method: 'POST',
			path: '/api/pixel_events/',
			body: { account_id: CABINET, title: 'Added to cart', type: 'custom' },
			status: 201,
		});
		const id = String(event.id);

		const listed = await run(params('getAll', { accountId: CABINET }));
		expect(listed.items.map((item) => item.json.id)).toContain(id);
		expect(listed.items).toHaveLength(sandbox().data.pixelEventsOf(CABINET).length);
		expect(apiRequests(sandbox()).at(-1)).toMatchObject({
			method: 'GET',
			query: { account_id: CABINET },
		});

		const renamed = await run(
			params('rename', { accountId: CABINET, eventId: byId(id), newTitle: 'Cart add' }),
		);
		expect(renamed.items.map((item) => item.json)).toEqual([{ id, success: true }]);
		expect(apiRequests(sandbox()).at(-1)).toMatchObject({
			method: 'PATCH',
			path: `/api/pixel_events/${id}`,
			body: { account_id: CABINET, title: 'Cart add' },
			status: 204,
		});
		const relisted = await run(params('getAll', { accountId: CABINET }));
		expect(relisted.items.find((item) => item.json.id === id)?.json.title).toBe('Cart add');

		const deleted = await run(params('delete', { accountId: CABINET, eventId: byId(id) }));
		expect(deleted.items.map((item) => item.json)).toEqual([{ id, success: true }]);
		expect(apiRequests(sandbox()).at(-1)).toMatchObject({
			method: 'DELETE',
			path: `/api/pixel_events/${CABINET}/events/${id}`,
			status: 204,
		});
		expect(
			sandbox()
				.data.pixelEventsOf(CABINET)
				.some((e) => e.id === id),
		).toBe(false);

		const again = await run(params('delete', { accountId: CABINET, eventId: byId(id) }));
		expect(again.error?.httpCode).toBe('404');
		expect(again.error?.message).toBe(
			`The Ad Cabinet API refused the request with 404: Pixel event ${id} not found in account ${CABINET}. Event ${id} or cabinet ${CABINET} was not found. The event may already have been deleted; pick it from the list, or check both IDs. The API refused it, so nothing was changed and sending it again after the fix is safe.`,
		);
		expect(again.error?.message).toContain(`Event ${id} or cabinet ${CABINET} was not found`);
	});

	test("Get Many honours Limit; Get Base Code returns the cabinet's pixel code", async () => {
		const limited = await run(params('getAll', { accountId: CABINET, returnAll: false, limit: 2 }));
		expect(limited.items).toHaveLength(2);
		const code = await run(params('getBaseCode', { accountId: CABINET }));
		expect(code.items.map((item) => item.json)).toEqual([sandbox().data.pixelCode(CABINET)]);
		expect(apiRequests(sandbox()).at(-1)?.path).toBe(`/api/pixel_events/${CABINET}/code_snippet`);
	});

	test('Get Types, the Type dropdown and the Event list come from the API', async () => {
		const types = await run(params('getTypes'));
		expect(types.items.map((item) => item.json)).toEqual(sandbox().data.pixelEventTypes);
		const credentials = credentialsFor(sandbox());
		const options = await loadOptions(
			'adCabinetPixelEvents',
			'getPixelEventTypes',
			params('create'),
			credentials,
		);
		expect(options).toEqual([
			{ name: 'Page view', value: 'page_view' },
			{ name: 'Purchase', value: 'purchase' },
			{ name: 'Custom event', value: 'custom' },
		]);
		const events = sandbox().data.pixelEventsOf(CABINET);
		const found = await listSearch(
			'adCabinetPixelEvents',
			'searchPixelEvents',
			params('rename', { accountId: CABINET }),
			credentials,
		);
		expect(found.results.map((r) => r.value)).toEqual(events.map((e) => e.id));
		expect(found.results[0].name).toBe(
			`${events[0].title} (${events[0].type}, ${events[0].status})`,
		);
		const filtered = await listSearch(
			'adCabinetPixelEvents',
			'searchPixelEvents',
			params('delete', { accountId: CABINET }),
			credentials,
			'purchase',
		);
		expect(filtered.results.map((r) => r.name)).toEqual(['Purchase completed (purchase, active)']);
	});

	test('403: no permission on the cabinet is explained, naming it', async () => {
		const { error } = await run(
			params('create', { accountId: NO_ACCESS_CABINET, title: 'Lead', type: 'custom' }),
		);
		expect(error?.httpCode).toBe('403');
		expect(error?.message).toContain(
			`The access token has no permission on cabinet ${NO_ACCESS_CABINET}`,
		);
		expect(error?.message).toContain(
			'The API refused it, so nothing was changed and sending it again after the fix is safe.',
		);
	});

	test('404 on rename names the event and the cabinet', async () => {
		const { error } = await run(
			params('rename', { accountId: CABINET, eventId: byId('99999'), newTitle: 'x' }),
		);
		expect(error?.httpCode).toBe('404');
		expect(error?.message).toContain(`Event 99999 was not found in cabinet ${CABINET}`);
	});

	test('422: an unsupported type lists the valid types', async () => {
		const { error } = await run(
			params('create', { accountId: CABINET, title: 'Signup', type: 'signup' }),
		);
		expect(error?.httpCode).toBe('422');
		expect(error?.message).toContain('Unsupported event type "signup"');
		expect(error?.message).toContain(
			'The event type "signup" is not supported. Valid types: page_view, purchase, custom',
		);
	});

	test('writes are not retried: a 503 on create reaches the API once', async () => {
		sandbox().faults.onNth(1, '503');
		const { error } = await run(
			params('create', { accountId: CABINET, title: 'Once', type: 'custom' }),
		);
		expect(error?.httpCode).toBe('503');
		expect(apiRequests(sandbox())).toHaveLength(1);
		expect(
			sandbox()
				.data.pixelEventsOf(CABINET)
				.some((e) => e.title === 'Once'),
		).toBe(false);
	});

	test.each([
		[
			'a blank Title',
			params('create', { accountId: CABINET, title: '   ', type: 'custom' }),
			'Title: is required',
		],
		[
			'a Type that resolves to empty',
			params('create', { accountId: CABINET, title: 'A', type: '={{ $json.type ?? "" }}' }),
			'Type: is required',
		],
		[
			'a Cabinet ID that resolves to empty',
			params('getAll', { accountId: '={{ $json.cabinet ?? "" }}' }),
			'Cabinet ID: is required: pick a cabinet from the list, or give its ID, such as ACC0000 ("Ad Cabinet Ads" → Cabinet → Get Many lists each cabinet\'s ID as account_id)',
		],
		[
			'a Cabinet ID of 0',
			params('getAll', { accountId: '0' }),
			'Cabinet ID: must be the ID of a cabinet, such as ACC0000; 0 is no cabinet (got "0")',
		],
		[
			'an Event ID that resolves to blank',
			params('delete', { accountId: CABINET, eventId: byId('={{ $json.event ?? " " }}') }),
			'Event: is required: pick an event from the list or enter its ID',
		],
		[
			'a New Title that resolves to empty',
			params('rename', {
				accountId: CABINET,
				eventId: byId('31005'),
				newTitle: '={{ $json.title ?? "" }}',
			}),
			'New Title: is required',
		],
		[
			'a Limit of 0',
			params('getAll', { accountId: CABINET, returnAll: false, limit: 0 }),
			'Limit: must be a whole number of at least 1 (got 0)',
		],
	])(
		'%s is refused, naming the field and the rule, before any request',
		async (_field, parameters, message) => {
			const { error } = await run(parameters);
			expect(error?.message).toBe(`${message}. Nothing was sent to the API.`);
			expect(apiRequests(sandbox())).toHaveLength(0);
		},
	);

	test('Continue On Fail: a failing delete becomes an error item paired to its input', async () => {
		const { items, error } = await run(
			params('delete', { accountId: CABINET, eventId: byId('424242') }),
			true,
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json.details).toMatchObject({ httpCode: '404' });
		expect(items[0].json.error).toContain('Event 424242');
		expect(items[0].pairedItem).toEqual({ item: 0 });
	});
});

describe('Ad Cabinet Pixel Events: 400 from the API', () => {
	// The node refuses blank fields itself, so a 400 naming fields comes from a stand-in API.
	let server: Server;
	let url = '';
	beforeAll(async () => {
		server = createServer((_req, res) => {
			res.writeHead(400, { 'Content-Type': 'application/json' });
			res.end(
				JSON.stringify({
					detail: 'Invalid data',
					errors: { title: ['is too long'], type: ['is required'] },
				}),
			);
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	});
	afterAll(async () => await new Promise<void>((resolve) => server.close(() => resolve())));

	test('400: the fields the API named are listed with their node field names', async () => {
		const { error } = await runNode({
			type: 'adCabinetPixelEvents',
			parameters: params('create', { accountId: CABINET, title: 'A'.repeat(300), type: 'custom' }),
			credentials: { accessToken: 'stub-token', baseUrl: url, clientApiUrl: url },
		});
		expect(error?.httpCode).toBe('400');
		expect(error?.message).toBe(
			'The Ad Cabinet API refused the request with 400: Invalid data (title: is too long; type: is required). Fix the fields it named: title (Title), type (Type). Check Cabinet ID, Title and Type. The API refused it, so nothing was changed and sending it again after the fix is safe.',
		);
	});
});

describe.each(PLATFORMS)('Ad Cabinet Pixel Events: names of the %s form', (platform) => {
	const sandbox = useSandbox({ platform });
	const cabinet = cabinetIdIn(platform, '100002');
	const EVENT = EVENT_FIELD[platform];
	const run = async (parameters: INodeParameters) =>
		await runNode({
			type: 'adCabinetPixelEvents',
			parameters,
			credentials: credentialsFor(sandbox()),
		});

	test("Simplify keeps the id, the form's event id, title, type, status and ads count", async () => {
		const { items, error } = await run(params('getAll', { accountId: cabinet, simplify: true }));
		expect(error).toBeUndefined();
		const events = sandbox().data.pixelEventsOf(cabinet);
		expect(items.map((item) => item.json)).toEqual(
			events.map((event) => {
				const view = sandbox().data.pixelEventView(event);
				return {
					id: view.id,
					[EVENT]: view[EVENT],
					title: view.title,
					type: view.type,
					status: view.status,
					ads_count: view.ads_count,
				};
			}),
		);
		expect(items.every((item) => typeof item.json[EVENT] === 'string')).toBe(true);
	});

	test("the Event list also finds an event by the form's event id", async () => {
		const [event] = sandbox().data.pixelEventsOf(cabinet);
		const found = await listSearch(
			'adCabinetPixelEvents',
			'searchPixelEvents',
			params('rename', { accountId: cabinet }),
			credentialsFor(sandbox()),
			String(event[EVENT]),
		);
		expect(found.results.map((r) => r.value)).toEqual([event.id]);
	});

	test("an unknown event on rename: the advice names the form's event id field", async () => {
		const { error } = await run(
			params('rename', { accountId: cabinet, eventId: byId('99999'), newTitle: 'x' }),
		);
		expect(error?.message).toContain(`(the event "id", not "${EVENT}")`);
	});
});
