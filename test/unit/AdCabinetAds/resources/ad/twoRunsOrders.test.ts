import type { IDataObject } from 'n8n-workflow';
import { RecordsModel } from '../../../../../harness/processedData';
import { guardCreate } from '../../../../../nodes/AdCabinetAds/resources/ad/createGuard';
import { identityOf } from '../../../../../nodes/AdCabinetAds/resources/ad/sameAd';
import { twinsOf } from '../../../../../nodes/AdCabinetAds/resources/ad/twins';
import { claimUpdate, letGoOfUpdate } from '../../../../../nodes/AdCabinetAds/resources/ad/twoRuns';
import { boundByDay, readDayStart } from '../../../../../nodes/shared/store/dayStart';
import { Tidy } from '../../../../../nodes/shared/store/records';
import { AdsOnOrder } from '../../../../support/adsOnOrder';
import { recordsOnOrder, type Failure } from '../../../../support/recordsOnOrder';
import { explore, randomOrder, type Order } from '../../../../support/scheduler';

/**
 * Two and three runs of the write guards at once, on n8n's records as n8n keeps them (a read and a
 * write of the whole row per call, no lock), in every order their steps can take, with a failure of
 * each record call in turn. Each order checks what a user would see: how many ads were made and
 * whether a second one was reported, whether a run stood back for nothing, whether anything of the
 * guards was left in the row to hold the next run back, and whether a change passed its daily bound.
 */
const START = Date.UTC(2026, 11, 7, 12, 0, 10);
const ROW = 'workflow 1\u0000n:create node';
const OTHER_ROW = 'workflow 2\u0000n:create node';
const BODY: IDataObject = {
	campaign_id: 7,
	title: 'Winter sale',
	promote_url: 'https://t.me/shop',
	text: 'Warm boots',
};
const IDENTITY = identityOf(BODY);
/**
 * Every order with up to this many preemptions (a run set aside while it could go on) is run: an
 * overlap of two record calls, or of a call with the API request between them, takes one or two.
 * The bounds keep the suite within a minute here; ORDERS_DEEPER=1 runs each one deeper.
 */
const DEEPER = Number(process.env.ORDERS_DEEPER ?? 0);
const BOUNDS = {
	create: 4 + DEEPER,
	createFailing: 3 + DEEPER,
	update: 3 + DEEPER,
	updateFailing: 2 + DEEPER,
};

type CreateOutcome =
	| { kind: 'skipped'; ad: unknown }
	| { kind: 'stood back' }
	| { kind: 'made'; ad: number; twins: unknown[] }
	| { kind: 'failed'; error: unknown };

/** One execution of a Create node with Skip Identical for one row, as safeWrites.ts runs it. */
async function createRun(
	order: Order,
	ads: AdsOnOrder,
	model: RecordsModel,
	run: number,
	row = ROW,
	failure?: Failure,
	createWaitMs = 0,
): Promise<CreateOutcome> {
	const clock = order.clock(run);
	const tidy = new Tidy(clock);
	const records = recordsOnOrder(model, row, order, run, failure);
	const findIdentical = async () => {
		const listed = await ads.list(run, { title: String(BODY.title) });
		return listed.find((ad) => identityOf({ ...ad, title: ad.advertisement_title }) === IDENTITY);
	};
	try {
		const decision = await guardCreate(
			{
				records,
				clock,
				tidy,
				hold: async () => ({ waited: false, release: () => undefined }),
				findIdentical: async () => {
					const found = await findIdentical();
					return found && { ad_id: found.id };
				},
				log: () => undefined,
			},
			IDENTITY,
		);
		if ('skip' in decision) return { kind: 'skipped', ad: decision.skip.ad_id };
		if ('pending' in decision) return { kind: 'stood back' };
		// A create waits its turn on the rate limit for a while, as the month's paced creates do.
		if (createWaitMs > 0) await clock.sleep(createWaitMs);
		const id = await ads.create(run, BODY);
		await decision.settle(true);
		const [twins] = await twinsOf(
			{ list: async (filter) => await ads.list(run, filter), detail: async (ad) => ads.detail(ad) },
			[{ adId: id, body: BODY }],
		);
		return { kind: 'made', ad: id, twins };
	} catch (error) {
		return { kind: 'failed', error };
	} finally {
		await tidy.settled();
	}
}

interface Checked {
	orders: number;
	pruned: number;
	properties: number;
}

/** What must hold after every order of runs creating the same ad. */
function checkCreates(ads: AdsOnOrder, outcomes: CreateOutcome[], probe: CreateOutcome): number {
	const made = outcomes.filter((outcome) => outcome.kind === 'made');
	// At most one create, or every second ad reported by one of the two runs that made them.
	for (const a of made)
		for (const b of made)
			if (a !== b && a.kind === 'made' && b.kind === 'made' && a.ad < b.ad)
				expect(a.twins.includes(b.ad) || b.twins.includes(a.ad)).toBe(true);
	expect(made.length).toBe(ads.creates.length);
	// Nobody stands back for a create that is not happening: an ad exists at the end.
	expect(outcomes.filter((outcome) => outcome.kind === 'stood back')).toEqual([]);
	if (!outcomes.some((outcome) => outcome.kind === 'failed'))
		expect(ads.creates.length).toBeGreaterThan(0);
	// Nothing left behind holds the next run back: it finds the ad, or makes it when none was made.
	if (ads.creates.length > 0) expect(probe.kind).toBe('skipped');
	else expect(probe.kind).toBe('made');
	return 4;
}

async function exploreCreates(
	runs: Array<{ row: string }>,
	failure?: Failure,
	createWaitMs = 0,
): Promise<Checked> {
	const maxPreemptions = failure ? BOUNDS.createFailing : BOUNDS.create;
	const oneAd = !failure && runs.every(({ row }) => row === ROW);
	let properties = 0;
	const explored = await explore(
		(order) => {
			const model = new RecordsModel();
			const ads = new AdsOnOrder(order);
			const finished = (async () => {
				const outcomes = await Promise.all(
					runs.map(
						async ({ row }, run) =>
							await createRun(order, ads, model, run, row, failure, createWaitMs),
					),
				);
				order.advance(1_000);
				// Runs of one node whose record calls all answer: the records alone keep them to one create.
				if (oneAd && ads.creates.length > 1)
					throw new Error(
						`${ads.creates.length} creates of one ad by runs of one node; the order:\n${order.trace.join('\n')}`,
					);
				const probe = await createRun(order, ads, model, runs.length, ROW);
				properties += checkCreates(ads, outcomes, probe) + (oneAd ? 1 : 0);
			})();
			return { finished };
		},
		START,
		{ maxPreemptions },
	);
	return { ...explored, properties };
}

/** Every failure one run's record calls can meet, for a run that makes `calls` calls. */
function failuresOf(run: number, calls: number): Failure[] {
	const out: Failure[] = [];
	for (let call = 0; call < calls; call++)
		for (const phase of ['before write', 'after write'] as const) out.push({ run, call, phase });
	return out;
}

const totals = { orders: 0, pruned: 0, properties: 0 };
const add = (checked: Checked) => {
	totals.orders += checked.orders;
	totals.pruned += checked.pruned;
	totals.properties += checked.properties;
};

afterAll(() => {
	// Printed for the record of what the search covered.
	process.stdout.write(
		`two runs at once: ${totals.orders} orders run (${totals.pruned} cut as the same as one run), ${totals.properties} properties checked\n`,
	);
});

describe('two runs creating the same ad, in every order', () => {
	test('of one node (the records keep them apart, or the look after the create reports the twin)', async () => {
		const checked = await exploreCreates([{ row: ROW }, { row: ROW }]);
		add(checked);
		expect(checked.orders).toBeGreaterThan(100);
	});

	test('of one node, the create answered as the other run looks again (one ad: a claim made then sees the claim or the done)', async () => {
		// The create waits 2 s for its turn: it is answered at the moment the run that stood back reads
		// the list again, and that run's claim may come between the end of the claim and its done.
		const checked = await exploreCreates([{ row: ROW }, { row: ROW }], undefined, 2_000);
		add(checked);
		expect(checked.orders).toBeGreaterThan(100);
	});

	test('of two workflows (no record is shared: the look after the create reports the twin)', async () => {
		const checked = await exploreCreates([{ row: ROW }, { row: OTHER_ROW }]);
		add(checked);
		expect(checked.orders).toBeGreaterThan(2);
	});

	test('with each record call of the first run failing before or after its write', async () => {
		for (const failure of failuresOf(0, 6))
			add(await exploreCreates([{ row: ROW }, { row: ROW }], failure));
	});
});

describe('three runs creating the same ad, in seeded random orders', () => {
	test.each([1, 2, 3, 4, 5, 6, 7, 8])('seed %i', async (seed) => {
		for (let round = 0; round < 25; round++) {
			await randomOrder(
				(order) => {
					const model = new RecordsModel();
					const ads = new AdsOnOrder(order);
					const finished = (async () => {
						const outcomes = await Promise.all(
							[ROW, ROW, OTHER_ROW].map(
								async (row, run) => await createRun(order, ads, model, run, row),
							),
						);
						order.advance(1_000);
						const probe = await createRun(order, ads, model, 3, ROW);
						totals.properties += checkCreates(ads, outcomes, probe);
						totals.orders++;
					})();
					return { finished };
				},
				START,
				seed * 1_000 + round,
			);
		}
	});
});

const AD = 1000;
const PERCENT = 20;

type UpdateOutcome = 'changed' | 'refused' | 'busy' | 'failed';

/** One execution of an Update node with Max Change % per Day, as safeWrites.ts and dayBound.ts run it. */
async function updateRun(
	order: Order,
	ads: AdsOnOrder,
	model: RecordsModel,
	run: number,
	asked: number,
	failure?: Failure,
): Promise<UpdateOutcome> {
	const clock = order.clock(run);
	const tidy = new Tidy(clock);
	const records = recordsOnOrder(model, ROW, order, run, failure);
	try {
		const claimed = await claimUpdate(records, String(AD), clock, tidy);
		if (!claimed.made) return 'busy';
		try {
			const current = await ads.readCpm(run, AD);
			const refused = await boundByDay(
				records,
				{ adId: String(AD), field: 'cpm', asked, current, percent: PERCENT },
				clock.now(),
				{ clock, tidy },
			);
			if (refused) return 'refused';
			await ads.putCpm(run, AD, asked);
			return 'changed';
		} finally {
			letGoOfUpdate(claimed, tidy);
		}
	} catch {
		return 'failed';
	} finally {
		await tidy.settled();
	}
}

async function exploreUpdates(asked: number[], failure?: Failure): Promise<Checked> {
	const maxPreemptions = failure ? BOUNDS.updateFailing : BOUNDS.update;
	let properties = 0;
	const explored = await explore(
		(order) => {
			const model = new RecordsModel();
			const ads = new AdsOnOrder(order);
			ads.ads.push({ id: AD, cpm: 1, advertisement_title: 'Ad', campaign_id: 7 });
			const finished = (async () => {
				await Promise.all(
					asked.map(async (value, run) => await updateRun(order, ads, model, run, value, failure)),
				);
				// The day's start is 1: no change sent may be further than 20% from it.
				for (const put of ads.puts) expect(Math.abs(put.cpm - 1)).toBeLessThanOrEqual(0.2 + 1e-9);
				// A few seconds later the record reads as one start, neither busy nor damaged.
				order.advance(3_000);
				const clock = order.clock(9);
				const day = await readDayStart(
					recordsOnOrder(model, ROW, order, 9),
					String(AD),
					'cpm',
					order.now,
					{ clock, tidy: new Tidy(clock) },
				);
				if (ads.puts.length > 0 && !(day && day.low === 1 && day.high === 1))
					throw new Error(
						`the day record reads ${JSON.stringify(day)} after ${JSON.stringify(ads.puts)} (failure: ${JSON.stringify(failure)}); the order:\n${order.trace.join('\n')}`,
					);
				properties += 2;
			})();
			return { finished };
		},
		START,
		{ maxPreemptions },
	);
	return { ...explored, properties };
}

describe('two runs changing the same ad with Max Change % per Day, in every order', () => {
	test('each asks for a value within the bound of the other but not of the start', async () => {
		const checked = await exploreUpdates([1.2, 1.4]);
		add(checked);
		expect(checked.orders).toBeGreaterThan(10);
	});

	test('with each record call of the first run failing before or after its write', async () => {
		for (const failure of failuresOf(0, 6)) add(await exploreUpdates([1.2, 1.4], failure));
	});
});
