import { deepCopy, type IDataObject, type IExecuteSingleFunctions, type INode } from 'n8n-workflow';
import { credentialViewOf, type CredentialView } from '../../../shared/auth';
import { isToolCall } from '../../../shared/callDeadline';
import { paceKey } from '../../../shared/transport/pacing';

/**
 * How long an ad's detail, once read, answers a tool call's read of the same ad instead of a new
 * request. A model's "read the ad, preview the change, apply it" comes within a few seconds, while
 * the API allows only 10 requests a minute on an ad's path. Within 10 s the ad as read is the ad as
 * it is, unless someone changes it elsewhere in those seconds (a write through this process is
 * seen: it drops the read at once).
 */
export const FRESH_AD_READ_MS = 10_000;

/** Reads kept at most, so the memory stays small whatever the number of ads; the oldest go first. */
const MAX_AD_READS = 500;

interface Kept {
	/** When the read began (Date.now()): the ad was as read at that time or later. */
	at: number;
	detail: IDataObject;
}

/**
 * The ad details this process read in the last seconds, per credential and ad (the pacer's key: the
 * credential's saved id, or its base URL and user, and the ad's path). It holds the API's answers
 * only, never a token, and hands out copies, so no caller changes what another is given.
 */
class RecentAdReads {
	private readonly reads = new Map<string, Kept>();

	/** Counts the writes sent: a read under way when any ad was written is not kept. */
	private writes = 0;

	recall(key: string): IDataObject | undefined {
		const kept = this.reads.get(key);
		if (!kept) return undefined;
		if (Date.now() - kept.at > FRESH_AD_READ_MS) {
			this.reads.delete(key);
			return undefined;
		}
		return deepCopy(kept.detail);
	}

	/** Notes a read starting now; the function returned keeps its answer. */
	begin(key: string): (detail: IDataObject) => void {
		const at = Date.now();
		const writes = this.writes;
		return (detail) => {
			if (this.writes !== writes) return;
			this.reads.delete(key);
			if (this.reads.size >= MAX_AD_READS) {
				const oldest = this.reads.keys().next().value;
				if (oldest !== undefined) this.reads.delete(oldest);
			}
			this.reads.set(key, { at, detail: deepCopy(detail) });
		};
	}

	/** A write to the ad is sent or has ended: the next read of it goes to the API. */
	forget(key: string): void {
		this.writes++;
		this.reads.delete(key);
	}

	/** For tests: forgets everything. */
	reset(): void {
		this.reads.clear();
	}

	/** For tests: every read kept looks `ms` older, as if that much time had passed. */
	age(ms: number): void {
		for (const kept of this.reads.values()) kept.at -= ms;
	}

	/** For tests: what is kept, by key. */
	kept(): Array<[string, Kept]> {
		return [...this.reads];
	}
}

export const recentAdReads = new RecentAdReads();

/** An ad's detail is an object with fields; an empty answer is not one to give again. */
const isDetail = (value: unknown): value is IDataObject =>
	value !== null &&
	typeof value === 'object' &&
	!Array.isArray(value) &&
	Object.keys(value).length > 0;

/** One read of an ad's detail (`path`) by this node's credential: a fresh answer kept, or how to keep the one about to be read. */
interface RecentAdRead {
	/** The ad as read within FRESH_AD_READ_MS, given only to a node that runs as a tool. */
	answer?: IDataObject;
	/** Keeps the API's answer to the read about to be sent. */
	keep: (detail: unknown) => void;
}

export function recentAdRead(node: INode, view: CredentialView, path: string): RecentAdRead {
	const key = paceKey(node, view, path);
	const answer = isToolCall({ getNode: () => node }) ? recentAdReads.recall(key) : undefined;
	if (answer) return { answer, keep: () => undefined };
	const keep = recentAdReads.begin(key);
	return { keep: (detail) => (isDetail(detail) ? keep(detail) : undefined) };
}

/**
 * An ad's detail: in a tool call, as this credential read it within FRESH_AD_READ_MS; otherwise read
 * now with `read`, and kept for a tool call that follows.
 */
export async function readAdRecently(
	fx: IExecuteSingleFunctions,
	path: string,
	read: () => Promise<IDataObject>,
): Promise<IDataObject> {
	const recent = recentAdRead(fx.getNode(), await credentialViewOf(fx), path);
	if (recent.answer) return recent.answer;
	const detail = await read();
	recent.keep(detail);
	return detail;
}

/**
 * Drops the read of the ad at `path` for this credential: call it when a write to the ad is sent
 * and again when it has ended, whatever came of it, so a read after a write is always a new one.
 */
export function forgetAdRead(node: INode, view: CredentialView, path: string): void {
	recentAdReads.forget(paceKey(node, view, path));
}
