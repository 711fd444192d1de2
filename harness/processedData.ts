import { createHash } from 'node:crypto';
import { DataDeduplicationService } from 'n8n-core';
import type {
	DeduplicationItemTypes,
	DeduplicationScope,
	ICheckProcessedContextData,
	ICheckProcessedOptions,
	IDataDeduplicator,
	IDeduplicationOutput,
} from 'n8n-workflow';

/**
 * n8n's processed-data records (the store behind its deduplication helpers) as n8n's server keeps
 * them, modelled statement by statement. It follows `DeduplicationHelper` of the n8n server package
 * (`dist/deduplication/deduplication-helper.js`), the same in 2.41.1 and 1.123.81, in its `entries`
 * mode, the one the nodes use:
 * - one row per workflow and context (`n:<node id>` for the node scope), holding a list of MD5
 *   hashes (base64) of the recorded values;
 * - checkProcessedAndRecord: one SELECT of the row; when there is none, one INSERT of a new row with
 *   every hash of the batch (a second INSERT of the same key fails on the primary key); else the
 *   batch is compared with the row as read, the new hashes are appended (two equal values of one
 *   batch are both appended, as n8n does), the oldest are cut past `maxEntries`, and the whole row is
 *   written back with one UPDATE. Nothing locks the row between the SELECT and the UPDATE;
 * - removeProcessed: one SELECT; nothing when there is no row; else the first copy of each hash is
 *   taken out of the row as read and the whole row is written back with one UPDATE.
 *
 * Each statement is a step: `gate` (when set) is awaited before it, so that a scheduler can run the
 * statements of several calls in any order, and can make a call fail before its write or after its
 * write landed (the answer lost on the way back).
 */
type Statement = 'select' | 'insert' | 'update';

interface StoreStep {
	/** The row's key (workflow and context). */
	row: string;
	/** The statement about to run, or `answered` once the call's write has landed. */
	statement: Statement | 'answered';
	/** The call: `record` (checkProcessedAndRecord) or `remove` (removeProcessed). */
	call: 'record' | 'remove';
	/** The values of the call. */
	values: string[];
}

/** Awaited before each statement and after a call's write; throwing fails the call right there. */
export type StoreGate = (step: StoreStep) => Promise<void>;

/** The error PostgreSQL gives the second INSERT of one key. */
class DuplicateKeyError extends Error {
	constructor() {
		super('duplicate key value violates unique constraint "PK_processed_data"');
	}
}

interface Row {
	mode: string;
	data: string[];
}

function hashOf(item: DeduplicationItemTypes): string {
	return createHash('md5').update(item.toString()).digest('base64');
}

export class RecordsModel implements IDataDeduplicator {
	readonly rows = new Map<string, Row>();

	/** When set, every call fails as a database that cannot be reached does. */
	unavailable = false;

	/** Awaited before each statement (see StoreGate); unset, the statements run one after another. */
	gate?: StoreGate;

	private async step(step: StoreStep, gate = this.gate): Promise<void> {
		if (this.unavailable) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
		await gate?.(step);
	}

	private rowKey(scope: DeduplicationScope, data: ICheckProcessedContextData): string {
		if (!data.workflow.id) throw new Error('The workflow has no ID: it must be saved first');
		const context = scope === 'node' ? `n:${data.node?.id ?? ''}` : '';
		return `${data.workflow.id}\u0000${context}`;
	}

	/** The row as a SELECT reads it: a copy, so a later write of another call does not change it. */
	private select(row: string): Row | undefined {
		const found = this.rows.get(row);
		return found && { mode: found.mode, data: [...found.data] };
	}

	/** checkProcessedAndRecord on one row, statement by statement. */
	async record(
		row: string,
		values: string[],
		maxEntries?: number,
		gate?: StoreGate,
	): Promise<IDeduplicationOutput> {
		const step = (statement: StoreStep['statement']) =>
			this.step({ row, statement, call: 'record', values }, gate ?? this.gate);
		await step('select');
		const read = this.select(row);
		const hashes = values.map(hashOf);
		if (!read) {
			if (maxEntries) hashes.splice(0, hashes.length - maxEntries);
			await step('insert');
			if (this.rows.has(row)) throw new DuplicateKeyError();
			this.rows.set(row, { mode: 'entries', data: hashes });
			await step('answered');
			return { new: [...values], processed: [] };
		}
		const out: IDeduplicationOutput = { new: [], processed: [] };
		const known = new Set(read.data);
		hashes.forEach((hash, index) => {
			if (known.has(hash)) out.processed.push(values[index]);
			else {
				out.new.push(values[index]);
				read.data.push(hash);
			}
		});
		if (maxEntries) read.data.splice(0, read.data.length - maxEntries);
		await step('update');
		// An UPDATE of a row that is gone changes nothing (n8n's repository update by key).
		if (this.rows.has(row)) this.rows.set(row, read);
		await step('answered');
		return out;
	}

	/** removeProcessed on one row, statement by statement. */
	async remove(row: string, values: string[], gate?: StoreGate): Promise<void> {
		const step = (statement: StoreStep['statement']) =>
			this.step({ row, statement, call: 'remove', values }, gate ?? this.gate);
		await step('select');
		const read = this.select(row);
		if (!read) return;
		for (const hash of values.map(hashOf)) {
			const at = read.data.indexOf(hash);
			if (at !== -1) read.data.splice(at, 1);
		}
		await step('update');
		if (this.rows.has(row)) this.rows.set(row, read);
		await step('answered');
	}

	/** Whether a value is in a row now (for tests: reads without recording). */
	holds(row: string, value: string): boolean {
		return this.rows.get(row)?.data.includes(hashOf(value)) ?? false;
	}

	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		data: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
		if (options.mode !== 'entries') throw new Error('Only the entries mode is kept here');
		return await this.record(this.rowKey(scope, data), items.map(String), options.maxEntries);
	}

	async removeProcessed(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		data: ICheckProcessedContextData,
	): Promise<void> {
		await this.remove(this.rowKey(scope, data), items.map(String));
	}

	async clearAllProcessedItems(
		scope: DeduplicationScope,
		data: ICheckProcessedContextData,
	): Promise<void> {
		await this.step({
			row: this.rowKey(scope, data),
			statement: 'update',
			call: 'remove',
			values: [],
		});
		this.rows.delete(this.rowKey(scope, data));
	}

	async getProcessedDataCount(
		scope: DeduplicationScope,
		data: ICheckProcessedContextData,
	): Promise<number> {
		const row = this.rowKey(scope, data);
		await this.step({ row, statement: 'select', call: 'record', values: [] });
		return this.rows.get(row)?.data.length ?? 0;
	}
}

/** The one store of this process, set up once as n8n's server sets up its own at start. */
export const processedData = new RecordsModel();

let started = false;

export async function startProcessedData(): Promise<void> {
	if (started) return;
	started = true;
	await DataDeduplicationService.init(processedData);
}
