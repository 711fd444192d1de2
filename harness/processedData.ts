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
 * n8n's processed-data records (the store behind its deduplication helpers), kept in memory: n8n's
 * server keeps them in its database, one row per workflow and context, each a list of MD5 hashes
 * of the recorded values, the oldest dropped past `maxEntries`. Only the `entries` mode is here, the
 * one the nodes use. Shared by every execution of this process, as n8n's database is shared by
 * every execution of every process.
 */
class InMemoryProcessedData implements IDataDeduplicator {
	readonly rows = new Map<string, string[]>();

	/** When set, every call fails as a database that cannot be reached does. */
	unavailable = false;

	private row(scope: DeduplicationScope, data: ICheckProcessedContextData): string {
		if (!data.workflow.id) throw new Error('The workflow has no ID: it must be saved first');
		const context = scope === 'node' ? `n:${data.node?.id ?? ''}` : '';
		return `${data.workflow.id}\u0000${context}`;
	}

	private check(): void {
		if (this.unavailable) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
	}

	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		data: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
		this.check();
		if (options.mode !== 'entries') throw new Error('Only the entries mode is kept here');
		const key = this.row(scope, data);
		const list = this.rows.get(key) ?? [];
		const seen = new Set(list);
		const out: IDeduplicationOutput = { new: [], processed: [] };
		for (const item of items) {
			const hash = hashOf(item);
			if (seen.has(hash)) out.processed.push(item);
			else {
				out.new.push(item);
				list.push(hash);
				seen.add(hash);
			}
		}
		if (options.maxEntries) list.splice(0, Math.max(0, list.length - options.maxEntries));
		this.rows.set(key, list);
		return out;
	}

	async removeProcessed(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		data: ICheckProcessedContextData,
	): Promise<void> {
		this.check();
		const list = this.rows.get(this.row(scope, data));
		if (!list) return;
		for (const item of items) {
			const at = list.indexOf(hashOf(item));
			if (at !== -1) list.splice(at, 1);
		}
	}

	async clearAllProcessedItems(
		scope: DeduplicationScope,
		data: ICheckProcessedContextData,
	): Promise<void> {
		this.check();
		this.rows.delete(this.row(scope, data));
	}

	async getProcessedDataCount(
		scope: DeduplicationScope,
		data: ICheckProcessedContextData,
	): Promise<number> {
		this.check();
		return this.rows.get(this.row(scope, data))?.length ?? 0;
	}
}

function hashOf(item: DeduplicationItemTypes): string {
	return createHash('md5').update(item.toString()).digest('base64');
}

/** The one store of this process, set up once as n8n's server sets up its own at start. */
export const processedData = new InMemoryProcessedData();

let started = false;

export async function startProcessedData(): Promise<void> {
	if (started) return;
	started = true;
	await DataDeduplicationService.init(processedData);
}
