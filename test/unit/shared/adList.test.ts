import type { IDataObject } from 'n8n-workflow';
import { readAdList } from '../../../nodes/shared/adList';
import { viewOf } from '../../../nodes/shared/auth';
import { credentials, fakeContext, fullResponse } from '../../support/fakeContext';

const ads = (total: number) => Array.from({ length: total }, (_, i) => ({ id: i + 1 }));

/** A context whose API serves `all` as the ad list does: `{ data }` by offset and limit. */
function serving(all: IDataObject[], ignoresOffset = false) {
	return fakeContext((options) => {
		const { offset, limit } = options.qs as { offset: number; limit: number };
		const from = ignoresOffset ? 0 : offset;
		return fullResponse({ data: all.slice(from, from + limit) });
	});
}

const offsets = (fake: ReturnType<typeof serving>) =>
	fake.sent().map((options) => (options.qs as IDataObject).offset);

describe('readAdList', () => {
	test('pages 500 at a time from the offset until a short page, with the filters on each page', async () => {
		const fake = serving(ads(1203));
		const seen: unknown[] = [];
		const read = await readAdList(fake.ctx, {
			qs: { advertisement_titles: 'Autumn' },
			offset: 100,
			credentials: viewOf(credentials()),
			readMore: () => true,
			onPage: (page) => seen.push(page.length),
		});
		expect(read).toEqual({ complete: true, nextOffset: 1203, pages: 3 });
		expect(seen).toEqual([500, 500, 103]);
		expect(offsets(fake)).toEqual([100, 600, 1100]);
		expect(fake.sent()[0].qs).toMatchObject({ advertisement_titles: 'Autumn', limit: 500 });
	});

	test('readMore stops with the list unfinished and the place to go on from', async () => {
		const fake = serving(ads(2000));
		const read = await readAdList(fake.ctx, {
			qs: {},
			offset: 0,
			credentials: viewOf(credentials()),
			readMore: (pages) => pages < 2,
			onPage: () => undefined,
		});
		expect(read).toEqual({ complete: false, nextOffset: 1000, pages: 2 });
	});

	test('a server that ignores the offset is read twice, not for good', async () => {
		const fake = serving(ads(600), true);
		const read = await readAdList(fake.ctx, {
			qs: {},
			offset: 0,
			credentials: viewOf(credentials()),
			readMore: () => true,
			onPage: () => undefined,
		});
		expect(read.pages).toBe(2);
		expect(read.complete).toBe(true);
	});
});
