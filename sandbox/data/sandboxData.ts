import type { SandboxClock } from '../clock';
import { MetricSource, METRIC_COUNT } from '../metrics/metricSource';
import { SLOT_MS } from '../metrics/time';
import { isPlainObject } from '../errors';
import { slotsUntil } from '../stats/aggregate';
import { UTC_ZONE, type BucketZone } from '../metrics/time';
import { decodeCursor } from '../stats/cursor';
import { legacyReportRows } from '../stats/legacyReport';
import { StatsEngine, computeStatsRows } from '../stats/statsEngine';
import { validateStatsQuery } from '../stats/statsQuery';
import { FIRST_AD_ID, seedAds } from './adSeed';
import { adDetail, adListItem } from './adViews';
import { FIRST_CREATED_AUDIENCE_ID, SEEDED_AUDIENCES } from './audienceSeed';
import { KNOWN_BOTS } from './bots';
import { CABINETS, CAMPAIGNS } from './cabinets';
import { EUR_RATES } from './currencies';
import { buildKktuTree, flattenKktu } from './kktu';
import {
	EVENT_ID_KEY,
	PLATFORM_ID_KEY,
	type Ad,
	type Audience,
	type AudienceUpload,
	type Cabinet,
	type Campaign,
	type KktuNode,
	type KnownBot,
	type MediaUpload,
	type PixelCode,
	type PixelEvent,
	type PixelEventType,
} from './model';
import {
	baseCode,
	eventSnippet,
	pixelEventIds,
	pixelIdOf,
	PIXEL_EVENT_TYPES,
	seedPixelEvents,
} from './pixelSeed';

export interface SandboxDataInit {
	seed: number;
	adCount: number;
	clock: SandboxClock;
	/** Initial clock instant: seeded creation times and delivery windows are relative to it. */
	anchorMs: number;
}

/** Seeded state of the sandbox plus ground-truth queries for assertions. */
export class SandboxData {
	readonly seed: number;
	readonly cabinets: Cabinet[] = CABINETS.map((c) => ({ ...c }));
	readonly campaigns: Campaign[] = CAMPAIGNS.map((c) => ({ ...c }));
	readonly ads: Ad[];
	readonly kktu: KktuNode[] = buildKktuTree();
	readonly pixelEvents: PixelEvent[];
	readonly pixelEventTypes: readonly PixelEventType[] = PIXEL_EVENT_TYPES;
	readonly audiences: Audience[] = SEEDED_AUDIENCES.map((a) => ({ ...a }));
	readonly audienceUploads: AudienceUpload[] = [];
	readonly mediaUploads: MediaUpload[] = [];
	readonly bots: readonly KnownBot[] = KNOWN_BOTS;
	/** Units of each currency per 1 EUR. */
	readonly exchangeRates = EUR_RATES;
	/** When true, the legacy report answers 410 as after its 28.02.2026 shutdown (spec 4.2). */
	legacyReportDisabled = false;
	/**
	 * The answer of ad create and edit, which the spec does not show (4.6, 4.8): the ad's detail
	 * (default), or no body at all, so nodes can prove they cope with either.
	 */
	adWriteAnswer: 'detail' | 'empty' = 'detail';
	/**
	 * The zone the statistics endpoint starts its periods in (spec 2.1 period_date carries its
	 * offset); the spec does not show it, so tests can prove nodes follow whatever the API uses.
	 */
	bucketZone: BucketZone = UTC_ZONE;
	/** Every API answer waits this long first (a slow API), so overlapping requests can be seen. */
	answerDelayMs = 0;
	/** Cumulative time spent inside API handlers, in milliseconds. */
	handlerTimeMs = 0;
	/** Bumped whenever ads change, so cached statistics results are not reused. */
	version = 0;

	readonly metrics: MetricSource;
	readonly stats: StatsEngine;
	private readonly clock: SandboxClock;
	private readonly adsById = new Map<number, Ad>();
	private readonly kktuById = new Map<string, { node: KktuNode; level: number }>();
	private nextPixelSeq: number;
	private nextAudienceId = FIRST_CREATED_AUDIENCE_ID;

	constructor(init: SandboxDataInit) {
		this.seed = init.seed;
		this.clock = init.clock;
		this.metrics = new MetricSource(init.seed);
		this.stats = new StatsEngine(this);
		for (const entry of flattenKktu(this.kktu)) this.kktuById.set(entry.node.id, entry);
		this.pixelEvents = seedPixelEvents(this.cabinets, init.anchorMs);
		this.nextPixelSeq = this.pixelEvents.length + 1;
		this.ads = seedAds({
			seed: init.seed,
			adCount: init.adCount,
			anchorMs: init.anchorMs,
			kktuLeafIds: this.kktuIdsAtLevel(3),
			pixelEvents: this.pixelEvents,
		});
		for (const ad of this.ads) this.adsById.set(ad.id, ad);
	}

	nowMs(): number {
		return this.clock.nowMs();
	}

	cabinet(accountId: string): Cabinet | undefined {
		return this.cabinets.find((c) => c.account_id === accountId);
	}

	campaign(id: number): Campaign | undefined {
		return this.campaigns.find((c) => c.id === id);
	}

	ad(id: number): Ad | undefined {
		return this.adsById.get(id);
	}

	kktuNode(id: string): KktuNode | undefined {
		return this.kktuById.get(id)?.node;
	}

	/** 1 for roots, 2 for their children, 3 for the nodes an ad may use (spec 4.10). */
	kktuLevel(id: string): number | undefined {
		return this.kktuById.get(id)?.level;
	}

	kktuIdsAtLevel(level: number): string[] {
		return [...this.kktuById.values()].filter((e) => e.level === level).map((e) => e.node.id);
	}

	pixelEventsOf(accountId: string): PixelEvent[] {
		return this.pixelEvents.filter((e) => e.account_id === accountId);
	}

	pixelEventByPlatformId(accountId: string, platformEventId: string): PixelEvent | undefined {
		return this.pixelEvents.find(
			(e) => e.account_id === accountId && e[EVENT_ID_KEY] === platformEventId,
		);
	}

	pixelCode(accountId: string): PixelCode | undefined {
		const index = this.cabinets.findIndex((c) => c.account_id === accountId);
		return index < 0 ? undefined : baseCode(index);
	}

	/** spec 2.8 audience as served. */
	audienceView(audience: Audience): Record<string, unknown> {
		return { [PLATFORM_ID_KEY]: audience[PLATFORM_ID_KEY], title: audience.title };
	}

	/** spec 2.7 view of an event, with ads_count and code_snippet derived from current state. */
	pixelEventView(event: PixelEvent): Record<string, unknown> {
		const index = this.cabinets.findIndex((c) => c.account_id === event.account_id);
		return {
			id: event.id,
			pixel_id: event.pixel_id,
			[EVENT_ID_KEY]: event[EVENT_ID_KEY],
			title: event.title,
			type: event.type,
			status: event.status,
			ads_count: this.ads.filter(
				(ad) => ad.accountId === event.account_id && ad.fields.eventId === event[EVENT_ID_KEY],
			).length,
			created_at: event.created_at,
			last_triggered_at: event.last_triggered_at,
			code_snippet: eventSnippet(pixelIdOf(index).platformPixelId, event[EVENT_ID_KEY]),
		};
	}

	createPixelEvent(accountId: string, title: string, type: string, createdAt: string): PixelEvent {
		const index = this.cabinets.findIndex((c) => c.account_id === accountId);
		const event: PixelEvent = {
			...pixelEventIds(this.nextPixelSeq++),
			account_id: accountId,
			pixel_id: pixelIdOf(index).id,
			title,
			type,
			status: 'active',
			created_at: createdAt,
			last_triggered_at: null,
		};
		this.pixelEvents.push(event);
		return event;
	}

	deletePixelEvent(event: PixelEvent): void {
		this.pixelEvents.splice(this.pixelEvents.indexOf(event), 1);
	}

	audiencesOf(accountId: string): Audience[] {
		return this.audiences.filter((a) => a.account_id === accountId);
	}

	createAudience(accountId: string, title: string, entries: string[]): Audience {
		const audience: Audience = {
			account_id: accountId,
			[PLATFORM_ID_KEY]: this.nextAudienceId++,
			title,
		};
		this.audiences.push(audience);
		this.audienceUploads.push({ accountId, title, entries });
		return audience;
	}

	mediaUpload(token: string): MediaUpload | undefined {
		return this.mediaUploads.find((m) => m.media_token === token);
	}

	nextAdId(): number {
		let id = FIRST_AD_ID + this.ads.length;
		while (this.adsById.has(id)) id += 1;
		return id;
	}

	addAd(ad: Ad): void {
		this.ads.push(ad);
		this.adsById.set(ad.id, ad);
		this.version += 1;
	}

	adChanged(): void {
		this.version += 1;
	}

	adDetail(id: number): Record<string, unknown> | undefined {
		const ad = this.ad(id);
		return ad ? adDetail(this, ad) : undefined;
	}

	adListItem(id: number): Record<string, unknown> | undefined {
		const ad = this.ad(id);
		return ad ? adListItem(this, ad) : undefined;
	}

	/** Lifetime views, clicks, actions, opens and spend (hundredths) up to the clock's now. */
	lifetimeMetrics(ad: Ad): Float64Array {
		const totals = new Float64Array(METRIC_COUNT);
		const lo = Math.ceil(ad.runFrom / SLOT_MS);
		const hi = Math.min(slotsUntil(ad.runUntil), Math.floor(this.nowMs() / SLOT_MS));
		if (lo < hi) this.metrics.addRange(ad.profile, lo, hi, totals);
		return totals;
	}

	/** spec 4.3: the distinct advertised objects of the permitted cabinets' ads. */
	adObjects(): string[] {
		const permitted = new Set(this.cabinets.filter((c) => c.permitted).map((c) => c.account_id));
		return [
			...new Set(this.ads.filter((ad) => permitted.has(ad.accountId)).map((ad) => ad.adObject)),
		].sort();
	}

	/** The same list as adObjects(), as a property. */
	get objects(): string[] {
		return this.adObjects();
	}

	/**
	 * Ground truth: every row the statistics endpoint would page through for a spec 4.1 body, now.
	 * Validated like the endpoint except for spec 4.1 rule 1 (5-day availability, 2-day span), so
	 * tests can compute the truth for any window.
	 */
	statsRows(body: unknown): Record<string, unknown>[] {
		if (isPlainObject(body) && typeof body.cursor === 'string') {
			const state = decodeCursor(body.cursor);
			return computeStatsRows(this, state.query, state.asOf);
		}
		const now = this.nowMs();
		return computeStatsRows(this, validateStatsQuery(body, now, { periodRules: false }), now);
	}

	/** Ground truth for the legacy report (spec 2.3, 4.2). */
	legacyReportRows(body: unknown): Record<string, unknown>[] {
		return legacyReportRows(this, body, this.nowMs());
	}
}
