import type { IExecuteFunctions, IExecuteSingleFunctions } from 'n8n-workflow';

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
 * - nothing can be read back but "was this text recorded": a value is kept as texts that name it.
 */
export interface SharedRecords {
	/** Tests the texts and records those not yet recorded; returns the ones recorded before this call. */
	testAndRecord(texts: string[]): Promise<Set<string>>;
	/** Takes the texts out again (those this run recorded only to test them). */
	forget(texts: string[]): Promise<void>;
}

/** The oldest records go first past this: a day of an hourly rule on a few hundred ads fits. */
const MAX_RECORDS = 20_000;

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
	return {
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
	};
}
