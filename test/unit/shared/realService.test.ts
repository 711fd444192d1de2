import type { IDataObject } from 'n8n-workflow';
import { offsetPages, realServiceCredentials } from '../../../nodes/shared/realService';
import { PLATFORM_NAMES } from '../../../nodes/shared/platform';
import { viewOf } from '../../../nodes/shared/auth';
import { credentials, fakeContext, fullResponse } from '../../support/fakeContext';

const PATH = PLATFORM_NAMES.telegram.accounts?.campaignList ?? '';

/** A list of `total` campaigns in the API's shape, cabinet A and B taking turns. */
function listOf(total: number) {
	return Array.from({ length: total }, (_, i) => ({ id: i + 1, account_id: i % 2 ? 'B' : 'A' }));
}

/** A context whose API serves `all` by offset and limit, as `{items, count}`. */
function serving(all: IDataObject[]) {
	return fakeContext((options) => {
		const { offset, limit } = options.qs as { offset: number; limit: number };
		return fullResponse({ items: all.slice(offset, offset + limit), count: all.length });
	});
}

const offsets = (fake: ReturnType<typeof serving>) =>
	fake
		.sent()
		.map((options) => [(options.qs as IDataObject).offset, (options.qs as IDataObject).limit]);

describe('offsetPages', () => {
	test('from a given offset, up to limit, with the offset to go on from', async () => {
		const fake = serving(listOf(10));
		const page = await offsetPages(fake.ctx, {
			path: PATH,
			qs: { period: 'all' },
			limit: 4,
			credentials: viewOf(credentials()),
			offset: 3,
		});
		expect(page.items.map((item) => item.id)).toEqual([4, 5, 6, 7]);
		expect(page.next).toBe(7);
		expect(offsets(fake)).toEqual([[3, 4]]);
		expect(fake.sent()[0].qs).toMatchObject({ period: 'all' });
	});

	test('the last page has no offset to go on from', async () => {
		const fake = serving(listOf(10));
		const page = await offsetPages(fake.ctx, {
			path: PATH,
			qs: {},
			limit: 500,
			credentials: viewOf(credentials()),
			offset: 7,
		});
		expect(page.items.map((item) => item.id)).toEqual([8, 9, 10]);
		expect(page.next).toBeUndefined();
	});

	test('keep: whole pages are read until limit items are kept; next is just after the last one kept', async () => {
		const fake = serving(listOf(1200));
		const keepB = (item: IDataObject) => item.account_id === 'B';
		const first = await offsetPages(fake.ctx, {
			path: PATH,
			qs: {},
			limit: 300,
			credentials: viewOf(credentials()),
			keep: keepB,
		});
		expect(first.items).toHaveLength(300);
		expect(first.items.every(keepB)).toBe(true);
		// B is every second item, from the second: the 300th is item 600 (offset 599).
		expect(first.items.at(-1)?.id).toBe(600);
		expect(first.next).toBe(600);
		expect(offsets(fake)).toEqual([
			[0, 500],
			[500, 500],
		]);
		const rest = await offsetPages(fake.ctx, {
			path: PATH,
			qs: {},
			limit: 500,
			credentials: viewOf(credentials()),
			keep: keepB,
			offset: first.next,
		});
		expect(rest.items.map((item) => item.id)).toEqual(
			Array.from({ length: 300 }, (_, i) => 602 + 2 * i),
		);
		expect(rest.next).toBeUndefined();
		expect(offsets(fake).slice(2)).toEqual([
			[600, 500],
			[1100, 500],
		]);
	});

	test('a list without count ends at its first empty page', async () => {
		const all = listOf(3);
		const fake = fakeContext((options) => {
			const { offset, limit } = options.qs as { offset: number; limit: number };
			return fullResponse({ items: all.slice(offset, offset + limit) });
		});
		const page = await offsetPages(fake.ctx, {
			path: PATH,
			qs: {},
			limit: 10,
			credentials: viewOf(credentials()),
		});
		expect(page.items).toHaveLength(3);
		expect(page.next).toBeUndefined();
		expect(offsets(fake)).toEqual([
			[0, 10],
			[3, 7],
		]);
	});
});

describe("offsetPages: stopping early while the API's count says more exist", () => {
	test('a server that ignores the offset (the same records again) fails with both numbers', async () => {
		const all = listOf(3);
		const fake = fakeContext(() => fullResponse({ items: all, count: 5000 }));
		const error = (await offsetPages(fake.ctx, {
			path: PATH,
			qs: {},
			limit: Infinity,
			credentials: viewOf(credentials()),
		}).catch((e: unknown) => e as Error)) as Error;
		expect(error.message).toMatch(
			/^Paging \S+ stopped after 3 distinct records, but the API's count says 5000 exist.*Add a filter.*set Limit to at most 3\./,
		);
		expect(fake.request).toHaveBeenCalledTimes(2);
	});

	test('an empty page before the count is reached fails the same way', async () => {
		const all = listOf(4);
		const fake = fakeContext((options) => {
			const { offset, limit } = options.qs as { offset: number; limit: number };
			return fullResponse({
				items: offset >= 2 ? [] : all.slice(offset, offset + Math.min(limit, 2)),
				count: 4,
			});
		});
		await expect(
			offsetPages(fake.ctx, {
				path: PATH,
				qs: {},
				limit: Infinity,
				credentials: viewOf(credentials()),
			}),
		).rejects.toThrow(/stopped after 2 distinct records, but the API's count says 4 exist/);
	});
});

describe('realServiceCredentials', () => {
	test('the Telegram form gives its paths; the Generic form is refused with what to do instead', async () => {
		const telegram = fakeContext(() => fullResponse({}));
		expect(
			(await realServiceCredentials(telegram.ctx, 0, 'Campaign lists')).paths.campaignList,
		).toBe(PATH);
		const ext = fakeContext(() => fullResponse({}), {
			credentials: credentials({ platform: 'ext' }),
		});
		await expect(
			realServiceCredentials(ext.ctx, 2, 'Campaign lists', 'choose "By ID"'),
		).rejects.toThrow(
			'Platform (Ad Cabinet API credential): Campaign lists exist only on the Telegram (Adstat) API; this credential\'s Platform is "Generic", whose API has no such endpoint. If your service is Telegram (Adstat), set Platform to it in the credential; otherwise choose "By ID". Nothing was sent to the API.',
		);
		expect(ext.request).not.toHaveBeenCalled();
	});
});
