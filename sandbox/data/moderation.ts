import type { Ad, AdStatus } from './model';
import { mulberry32 } from '../random';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** What moderation may decide about a new ad, with the share of ads it decides so. */
const REVIEW_OUTCOMES: ReadonlyArray<{ status: AdStatus; share: number }> = [
	{ status: 'active', share: 0.6 },
	{ status: 'declined', share: 0.25 },
	{ status: 'on_hold', share: 0.15 },
];

const DECLINE_REASONS: readonly string[] = [
	'The text promises a guaranteed income',
	'The promoted channel does not match the ad text',
	'The title is in capital letters only',
	'The landing page is not reachable',
	'The ad needs a KKTU category that fits the product',
];

export interface ModerationSettings {
	seed?: number;
	/** A new ad's decision comes this long after it is made, at the earliest (default 90 minutes). */
	reviewFromMs?: number;
	/** ...and at the latest (default 5 hours). */
	reviewUntilMs?: number;
	/** The chance that a day brings a running ad stopped or put on hold (default 0.3). */
	runningChangeShare?: number;
}

/** One decision: the ad, its new status, the time it was made and the reasons given. */
export interface ModerationDecision {
	adId: number;
	campaignId: number;
	title: string;
	previous: AdStatus;
	status: AdStatus;
	atMs: number;
	reasons: Record<string, unknown>[];
	/** `review`: the decision on a new ad; `running`: an ad that was running stopped or held. */
	kind: 'review' | 'running';
}

interface Pending {
	atMs: number;
	adId?: number;
	kind: 'review' | 'running';
}

interface ModerationTarget {
	readonly ads: Ad[];
	ad(id: number): Ad | undefined;
	cabinet(accountId: string): { permitted: boolean } | undefined;
	adChanged(): void;
}

/**
 * Moderation as the real service does it, switched on by the sandbox option `moderation`: a new ad
 * waits `in_review`, and a few simulated hours later becomes `active`, `declined` (with reasons) or
 * `on_hold`; on some days one running ad is stopped or put on hold. Every decision is kept with the
 * time it was made. Decisions are applied when the sandbox next answers a request, each with its own
 * time, before that request is answered: whoever reads the ads sees every decision made until then.
 */
export class Moderation {
	readonly decisions: ModerationDecision[] = [];
	private readonly pending: Pending[] = [];
	private readonly random: () => number;
	private readonly reviewFromMs: number;
	private readonly reviewUntilMs: number;
	private readonly runningChangeShare: number;
	/** The last UTC day whose running-ad change is planned; planning starts at the first request. */
	private plannedDay: number | undefined;

	constructor(
		private readonly data: ModerationTarget,
		settings: ModerationSettings = {},
	) {
		this.random = mulberry32(settings.seed ?? 7);
		this.reviewFromMs = settings.reviewFromMs ?? 1.5 * HOUR_MS;
		this.reviewUntilMs = settings.reviewUntilMs ?? 5 * HOUR_MS;
		this.runningChangeShare = settings.runningChangeShare ?? 0.3;
	}

	/** A new ad goes into review; its decision is due a few hours after `nowMs`. */
	review(ad: Ad, nowMs: number): void {
		ad.status = 'in_review';
		ad.statusUpdatedAt = nowMs;
		const wait = this.reviewFromMs + this.random() * (this.reviewUntilMs - this.reviewFromMs);
		this.schedule({ atMs: Math.round(nowMs + wait), adId: ad.id, kind: 'review' });
	}

	/** Applies every decision due by `nowMs`, in the order they were made. */
	advance(nowMs: number): void {
		const today = Math.floor(nowMs / DAY_MS);
		// Running ads change from the day after the first request on: whoever follows the ads has
		// then had a day to read them as they were.
		if (this.plannedDay === undefined) this.plannedDay = today;
		while (this.plannedDay < today) {
			this.plannedDay += 1;
			if (this.random() < this.runningChangeShare) {
				const atMs = this.plannedDay * DAY_MS + Math.floor(this.random() * DAY_MS);
				this.schedule({ atMs, kind: 'running' });
			}
		}
		while (this.pending.length > 0 && this.pending[0].atMs <= nowMs) {
			const due = this.pending.shift() as Pending;
			if (due.kind === 'review') this.decideReview(due);
			else this.changeRunning(due);
		}
	}

	/** A decision made now, as a moderator may at any time; kept like the others. */
	decideNow(ad: Ad, status: AdStatus, nowMs: number): void {
		this.decide(ad, status, { atMs: nowMs, kind: 'running' }, 'running');
	}

	private schedule(entry: Pending): void {
		const at = this.pending.findIndex((p) => p.atMs > entry.atMs);
		this.pending.splice(at < 0 ? this.pending.length : at, 0, entry);
	}

	private decideReview(due: Pending): void {
		const ad = due.adId === undefined ? undefined : this.data.ad(due.adId);
		// Deleted (or otherwise changed) while in review: there is nothing left to decide.
		if (!ad || ad.status !== 'in_review') return;
		let roll = this.random();
		const outcome =
			REVIEW_OUTCOMES.find((o) => (roll -= o.share) < 0)?.status ?? REVIEW_OUTCOMES[0].status;
		this.decide(ad, outcome, due, 'review');
	}

	private changeRunning(due: Pending): void {
		const running = this.data.ads.filter(
			(ad) =>
				ad.status === 'active' &&
				ad.createdAt <= due.atMs &&
				this.data.cabinet(ad.accountId)?.permitted === true,
		);
		if (running.length === 0) return;
		const ad = running[Math.floor(this.random() * running.length)];
		this.decide(ad, this.random() < 0.5 ? 'stopped' : 'on_hold', due, 'running');
	}

	private decide(ad: Ad, status: AdStatus, due: Pending, kind: 'review' | 'running'): void {
		const reasons =
			status === 'declined'
				? [DECLINE_REASONS[Math.floor(this.random() * DECLINE_REASONS.length)]].map((reason) => ({
						reason,
					}))
				: [];
		this.decisions.push({
			adId: ad.id,
			campaignId: ad.campaignId,
			title: ad.fields.title,
			previous: ad.status,
			status,
			atMs: due.atMs,
			reasons: structuredClone(reasons),
			kind,
		});
		ad.status = status;
		ad.statusUpdatedAt = due.atMs;
		ad.fields.decline_reason = reasons;
		this.data.adChanged();
	}
}
