import { randomUUID } from 'node:crypto';
import type { IExecuteFunctions, IExecuteSingleFunctions } from 'n8n-workflow';
import type { Clock } from './clock';

/**
 * The store every n8n process shares: n8n's own processed-data records, the ones its deduplication
 * helpers (Remove Duplicates, "Keep items not processed in previous executions") keep in n8n's
 * database. Queue-mode workers and main read and write the same rows, so what one execution records
 * another sees at its next call, whichever process runs it. The package needs no store of its own.
 *
 * What n8n offers there, and what is atomic (n8n's DeduplicationHelper):
 * - one row per workflow and context; the context used here is the node (`n:<node id>`), so the
 *   records of one node are shared by all executions of that node, and no other node (a user's
 *   Remove Duplicates) can meet them;
 * - a row holds a list of MD5 hashes of the recorded texts; a call tests a batch of texts and records
 *   those not yet there, in one read and one write of the row. The first write of a row is an INSERT
 *   (two processes creating it at once: one fails on the primary key). Every later write is read,
 *   change, then UPDATE of the whole row, without a lock: two calls that overlap within those
 *   milliseconds can each miss the other's texts, and the later write drops the earlier one's;
 * - nothing can be read back but "was this text recorded": a value is kept as texts that name it,
 *   and a test records what it did not find, so a reader takes those texts out again. A write that
 *   read the row between the test and that removal puts them back when it lands (see Tidy).
 */
export interface SharedRecords {
	/** Tests the texts and records those not yet recorded; returns the ones recorded before this call. */
	testAndRecord(texts: string[]): Promise<Set<string>>;
	/** Takes the texts out again (those this run recorded only to test them). */
	forget(texts: string[]): Promise<void>;
}

/** The oldest records go first past this: a day of an hourly rule on a few hundred ads fits. */
export const MAX_RECORDS = 20_000;

const OPTIONS = { mode: 'entries' as const, maxEntries: MAX_RECORDS };

type Helpers = Pick<IExecuteFunctions['helpers'], 'checkProcessedAndRecord' | 'removeProcessed'>;

/** The execution contexts whose helpers can reach the records, by the node's run context object. */
const helpersByRun = new WeakMap<object, Helpers>();

function runKey(ctx: { getContext(type: 'node'): object }): object | undefined {
	try {
		return ctx.getContext('node');
	} catch {
		return undefined;
	}
}

/**
 * Called when n8n runs the node (its `execute`, with the execution's full context). The per-item
 * contexts a declarative operation runs in lack the deduplication helpers; they find this run's
 * helpers through the node's run context object, which both share.
 */
export function rememberRecordsOf(ctx: IExecuteFunctions): void {
	const key = runKey(ctx);
	const helpers = ctx.helpers as Partial<Helpers>;
	if (key && typeof helpers.checkProcessedAndRecord === 'function')
		helpersByRun.set(key, helpers as Helpers);
}

/** Why the records could not be used; the caller words it for the user. */
class RecordsUnavailable extends Error {}

/** The shared records of this node, or RecordsUnavailable when n8n gives the node none. */
export function sharedRecordsOf(fx: IExecuteSingleFunctions | IExecuteFunctions): SharedRecords {
	const own = (fx as IExecuteFunctions).helpers as Partial<Helpers>;
	const key = runKey(fx);
	const helpers =
		typeof own.checkProcessedAndRecord === 'function'
			? (own as Helpers)
			: key
				? helpersByRun.get(key)
				: undefined;
	if (!helpers)
		throw new RecordsUnavailable('this n8n gives the node no access to its processed-data records');
	const failed = (error: unknown) =>
		new RecordsUnavailable(error instanceof Error ? error.message : String(error));
	const node = fx.getNode();
	return oneAtATime(`${fx.getWorkflow().id ?? ''}|${node.id}`, {
		async testAndRecord(texts) {
			if (texts.length === 0) return new Set();
			try {
				const out = await helpers.checkProcessedAndRecord(texts, 'node', OPTIONS);
				return new Set(out.processed.map(String));
			} catch (error) {
				throw failed(error);
			}
		},
		async forget(texts) {
			if (texts.length === 0) return;
			try {
				await helpers.removeProcessed(texts, 'node', OPTIONS);
			} catch (error) {
				throw failed(error);
			}
		},
	});
}

/** The calls under way on each row from this process, by the row's workflow and node. */
const rowQueues = new Map<string, Promise<unknown>>();

/**
 * The records of one row with the calls of this process made one after another: two calls of one
 * process that overlap would each write the row as it read it, and the later would drop what the
 * earlier recorded. Calls of other processes (queue-mode workers) can still overlap.
 */
export function oneAtATime(row: string, records: SharedRecords): SharedRecords {
	const queued = <T>(call: () => Promise<T>): Promise<T> => {
		const before = rowQueues.get(row) ?? Promise.resolve();
		const mine = before.then(call, call);
		const settled = mine.then(
			() => undefined,
			() => undefined,
		);
		rowQueues.set(row, settled);
		void settled.then(() => {
			if (rowQueues.get(row) === settled) rowQueues.delete(row);
		});
		return mine;
	};
	return {
		testAndRecord: async (texts) => await queued(async () => await records.testAndRecord(texts)),
		forget: async (texts) => await queued(async () => await records.forget(texts)),
	};
}

/**
 * A call that read the row before another call's write and writes after it lands within this: each
 * call is one read and one write of the row, milliseconds apart, so after a second every write that
 * overlapped a given one has landed, with room for a worker busy with other executions.
 */
export const SETTLE_MS = 1_000;

/**
 * Takes texts out of the records and makes sure they stay out. A write of another call that read
 * the row while the texts were there, and lands after the removal, puts them back. So the texts are
 * recorded with a witness, a text of this call alone, and taken out with it; a second later (when
 * every overlapping write has landed) the witness is tested: back, both are taken out again. Runs in
 * the background; `settled` waits for every check of this run.
 */
export class Tidy {
	private readonly pending: Array<Promise<void>> = [];
	/** Texts this run has since recorded for good: a removal made again leaves them. */
	private readonly kept = new Set<string>();

	constructor(private readonly clock: Clock) {}

	/** A new witness, to record in the same call as the texts it stands for. */
	static witness(): string {
		return `adCabinet witness|${randomUUID()}`;
	}

	/** Takes the texts and their witness out now, and checks in the background that they stay out. */
	async forget(records: SharedRecords, texts: string[], witness: string): Promise<void> {
		await records.forget([...texts, witness]).catch(() => undefined);
		this.pending.push(this.check(records, texts, witness));
	}

	/**
	 * Texts this run records for good after testing them (a reader that found no day and then opens
	 * it): a removal made again does not take them out.
	 */
	keep(texts: string[]): void {
		for (const text of texts) this.kept.add(text);
	}

	/**
	 * One look, a second after the removal: a write that put the texts back has landed by then. They
	 * are taken out once more, and not looked at again: a writer that records one of these texts
	 * for good in the meantime confirms it later than this (see openDay in dayStart.ts).
	 */
	private async check(records: SharedRecords, texts: string[], witness: string): Promise<void> {
		await this.clock.sleep(SETTLE_MS);
		const found = await records.testAndRecord([witness]).catch(() => undefined);
		if (!found) return;
		const again = found.has(witness) ? texts.filter((text) => !this.kept.has(text)) : [];
		await records.forget([...again, witness]).catch(() => undefined);
	}

	/** Work of this run in the background that `settled` waits for too (a claim let go later). */
	track(work: Promise<void>): void {
		this.pending.push(work.catch(() => undefined));
	}

	/** Runs `work` in the background once the checks started so far have ended; `settled` waits for it. */
	afterChecks(work: () => Promise<void>): void {
		const now = [...this.pending];
		this.track(
			(async () => {
				await Promise.all(now);
				await work();
			})(),
		);
	}

	/** Waits for every check started so far. */
	async settled(): Promise<void> {
		while (this.pending.length > 0) await this.pending.shift();
	}
}

/**
 * Tests texts and takes out again those this test recorded (they were not there): returns the
 * texts found. `keep`: texts to leave recorded when they were not there.
 */
export async function testOnly(
	records: SharedRecords,
	tidy: Tidy,
	texts: string[],
	keep: string[] = [],
): Promise<Set<string>> {
	const witness = Tidy.witness();
	const found = await records.testAndRecord([...texts, witness]);
	await tidy.forget(
		records,
		texts.filter((text) => !found.has(text) && !keep.includes(text)),
		witness,
	);
	return found;
}
