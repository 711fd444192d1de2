import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';
import { readAdList } from '../../../shared/adList';
import { PAGE_BOUND_SLACK } from '../../../shared/constants';
import { atEndOfWrites, itemWaitsFor } from '../../../shared/endOfWrites';
import { perExecution } from '../../../shared/writes';
import { callDeadline } from '../../../shared/callDeadline';
import { realClock } from '../../../shared/store/clock';
import { SETTLE_MS } from '../../../shared/store/records';
import { twinsOf, type MadeAd, type TwinPorts } from './twins';
import { lookFailed, madeTwice } from './twoRuns';

interface Settable<T> {
	promise: Promise<T>;
	resolve: (value: T) => void;
	reject: (error: unknown) => void;
}

function settable<T>(): Settable<T> {
	let resolve: (value: T) => void = () => undefined;
	let reject: (error: unknown) => void = () => undefined;
	const promise = new Promise<T>((ok, fail) => {
		resolve = ok;
		reject = fail;
	});
	return { promise, resolve, reject };
}

/** The ads this execution made, looked at together for twins after its last write (twins.ts). */
export function lookForTwinAfterLastWrite(
	fx: IExecuteSingleFunctions,
	made: MadeAd,
	reads: {
		detail: (adId: string) => Promise<IDataObject>;
		/** The title filters the list is asked with for one title. */
		titleFilters: (title: string) => string[];
	},
): void {
	const batches = perExecution<Array<MadeAd & { found: Settable<unknown[]>; at: number }>>(
		fx,
		'twinLook',
	);
	let batch = batches.get('made');
	if (!batch) {
		batch = [];
		batches.set('made', batch);
	}
	const found = settable<unknown[]>();
	batch.push({ ...made, found, at: Date.now() });
	const mine = batch;
	atEndOfWrites(fx, 'twinLook', async () => {
		batches.delete('made');
		const ports: TwinPorts = {
			list: async ({ period, title }) => {
				if (title === undefined) return await listed(fx, { period });
				const ads: IDataObject[] = [];
				for (const filter of reads.titleFilters(title))
					ads.push(...(await listed(fx, { advertisement_titles: filter })));
				return ads;
			},
			detail: reads.detail,
		};
		// A create another run sent at the same moment is answered within a second: the look waits
		// that long after this execution's last create, so that both runs see both ads (a tool call
		// looks at once when the wait would pass its deadline).
		const wait = Math.max(...mine.map((entry) => entry.at)) + SETTLE_MS - Date.now();
		const call = callDeadline(fx);
		if (wait > 0 && (!call || Date.now() + wait <= call.endsAt)) await realClock.sleep(wait);
		try {
			const twins = await twinsOf(ports, mine);
			mine.forEach((entry, index) => entry.found.resolve(twins[index]));
		} catch (error) {
			for (const entry of mine) entry.found.reject(error);
		}
	});
	const itemIndex = fx.getItemIndex();
	itemWaitsFor(
		fx,
		found.promise.then(
			(twins) => {
				if (twins.length > 0) throw madeTwice(fx, made.adId, twins);
			},
			(error: unknown) => {
				throw lookFailed(fx, made.adId, error, itemIndex);
			},
		),
	);
}

/** Every ad of the list for these filters (not kept for later reads: a look must see the list now). */
async function listed(fx: IExecuteSingleFunctions, qs: IDataObject): Promise<IDataObject[]> {
	const ads: IDataObject[] = [];
	await readAdList(fx, {
		qs,
		offset: 0,
		itemIndex: fx.getItemIndex(),
		readMore: (pages) => pages < PAGE_BOUND_SLACK + 20,
		onPage: (page) => ads.push(...page),
	});
	return ads;
}
