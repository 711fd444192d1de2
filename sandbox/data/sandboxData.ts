import type { Moderation } from './moderation';
import type { SandboxClock } from '../clock';
import { MetricSource, METRIC_COUNT } from '../metrics/metricSource';
import {
	Restatements,
	type RestatementEvent,
	type RestatementSettings,
} from '../metrics/restatements';
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
import { forcedRestatementTarget } from './forcedRestatement';
import { buildKktuTree, flattenKktu } from './kktu';
import { PLATFORM_NAMES, type Platform, type PlatformNames } from '../platform';
import { relabelStored } from './relabel';
import type {
	Ad,
	Audience,
	AudienceUpload,
	Cabinet,
	Campaign,
	KktuNode,
	KnownBot,
	MediaUpload,
	PixelCode,
	PixelEvent,
	PixelEventType,
} from './model';
import {
	baseCode,
	eventSnippet,
	pixelEventIds,
	pixelIdOf,
	PIXEL_EVENT_TYPES,
	seedPixelEvents,
} from './pixelSeed';
import type { SandboxReader } from './reader';

interface SandboxDataInit {
	seed: number;
	/** The form the API speaks: names of paths and fields, cabinet ids, formats. */
	platform: Platform;
	/** How figures of ended days are restated by default (see metrics/restatements.ts). */
	restatements: RestatementSettings;
	adCount: number;
	clock: SandboxClock;
	/** Initial clock instant: seeded creation times and delivery windows are relative to it. */
	anchorMs: number;
}

/** Seeded state of the sandbox plus ground-truth queries for assertions. */
export class SandboxData implements SandboxReader {
	readonly seed: number;
	readonly cabinets: Cabinet[] = CABINETS.map((c) => ({ ...c }));
	readonly campaigns: Campaign[] = CAMPAIGNS.map((c) => ({ ...c }));
	readonly ads: Ad[];
	readonly kktu: KktuNode[] = buildKktuTree();
	readonly pixelEvents: PixelEvent[];
	readonly pixelEventTypes: readonly PixelEventType[] = PIXEL_EVENT_TYPES;
	readonly audiences: Audience[] = SEEDED_AUDIENCES.map((a) => ({
		account_id: a.account_id,
		[PLATFORM_NAMES.ext.fields.audienceId]: a.platformId,
		title: a.title,
	}));
	readonly audienceUploads: AudienceUpload[] = [];
	readonly mediaUploads: MediaUpload[] = [];
	readonly bots: readonly KnownBot[] = KNOWN_BOTS;
	/** Units of each currency per 1 EUR. */
	readonly exchangeRates = EUR_RATES;
	/** When true, the legacy report answers 410 as after its 28.02.2026 shutdown. */
	legacyReportDisabled = false;
	/**
	 * The answer of ad create and edit, which the spec does not show: the ad's detail
	 * (default), or no body at all, so nodes can prove they cope with either.
	 */
	adWriteAnswer: 'detail' | 'empty' = 'detail';
	/**
	 * The zone the statistics endpoint starts its periods in (period_date carries its
	 * offset); the spec does not show it, so tests can prove nodes follow whatever the API uses.
	 */
	bucketZone: BucketZone = UTC_ZONE;
	/** Moderation of new ads and running ones, when the sandbox was started with it. */
	moderation: Moderation | undefined = undefined;
	/** Every API answer waits this long first (a slow API), so overlapping requests can be seen. */
	answerDelayMs = 0;
	/** Cumulative time spent inside API handlers, in milliseconds. */
	handlerTimeMs = 0;
	/** Bumped whenever ads change, so cached statistics results are not reused. */
	version = 0;

	readonly metrics: MetricSource;
	readonly restatements: Restatements;
	readonly stats: StatsEngine;
	private readonly clock: SandboxClock;
	/** The seeded ads are the first this many of `ads`; the rest were created through the API. */
	readonly seededAdCount: number;
	/** The initial clock instant. */
	readonly anchorMs: number;
	/** Everything is seeded in the spec's form, then relabelled to the form asked for. */
	private currentPlatform: Platform = 'ext';
	private readonly adsById = new Map<number, Ad>();
	private readonly kktuById = new Map<string, { node: KktuNode; level: number }>();
	private nextPixelSeq: number;
	private nextAudienceId = FIRST_CREATED_AUDIENCE_ID;

	constructor(init: SandboxDataInit) {
		this.seed = init.seed;
		this.clock = init.clock;
		this.seededAdCount = init.adCount;
		this.anchorMs = init.anchorMs;
		this.metrics = new MetricSource(init.seed);
		this.restatements = new Restatements(
			init.seed,
			init.anchorMs,
			(adId) => this.adsById.get(adId)?.campaignId,
			init.restatements,
		);
		this.metrics.restatements = this.restatements;
		this.stats = new StatsEngine(this);
		for (const entry of flattenKktu(this.kktu)) this.kktuById.set(entry.node.id, entry);
		this.pixelEvents = seedPixelEvents(this.cabinets, init.anchorMs, this.names);
		this.nextPixelSeq = this.pixelEvents.length + 1;
		this.ads = seedAds({
			seed: init.seed,
			adCount: init.adCount,
			anchorMs: init.anchorMs,
			kktuLeafIds: this.kktuIdsAtLevel(3),
			pixelEvents: this.pixelEvents,
			eventIdField: this.names.fields.eventId,
		});
		for (const ad of this.ads) this.adsById.set(ad.id, ad);
		this.setPlatform(init.platform);
	}

	get platform(): Platform {
		return this.currentPlatform;
	}

	/** The current form's paths and field names. */
	get names(): PlatformNames {
		return PLATFORM_NAMES[this.currentPlatform];
	}

	/**
	 * Switches the form: cabinet ids and the platform-named fields of stored records take the new
	 * form's names, so everything seeded or created so far is served consistently.
	 */
	setPlatform(platform: Platform): void {
		const from = this.currentPlatform;
		if (platform === from) return;
		relabelStored(this, from, platform);
		this.currentPlatform = platform;
		this.version += 1;
	}

	/** Changes the default restatements; figures served from now on follow the new setting. */
	setRestatements(settings: RestatementSettings): void {
		this.restatements.set(settings);
		this.version += 1;
	}

	/**
	 * Restates, now, a campaign's or one ad's figures of a UTC day (`YYYY-MM-DD`) that has begun:
	 * every row that sums them changes.
	 */
	forceRestatement(target: { day?: unknown; campaign_id?: unknown; ad_id?: unknown }): void {
		this.restatements.force(forcedRestatementTarget(this, target), this.nowMs());
		this.version += 1;
	}

	/**
	 * The restatements made since the initial clock instant, up to now, oldest first: those of the
	 * campaigns the token may see, and every forced one.
	 */
	restatementEvents(): RestatementEvent[] {
		const visible = this.campaigns.filter((c) => this.cabinet(c.account_id)?.permitted === true);
		return this.restatements.events(
			visible.map((c) => c.id),
			this.nowMs(),
		);
	}

	/** A pixel event's id on the platform (ext_event_id / tg_event_id). */
	eventIdOf(event: PixelEvent): string {
		return event[this.names.fields.eventId] as string;
	}

	/** An audience's id on the platform (ext_id / tg_id). */
	audienceIdOf(audience: Audience): number {
		return audience[this.names.fields.audienceId] as number;
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

	/** 1 for roots, 2 for their children, 3 for the nodes an ad may use. */
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
			(e) => e.account_id === accountId && this.eventIdOf(e) === platformEventId,
		);
	}

	pixelCode(accountId: string): PixelCode | undefined {
		const index = this.cabinets.findIndex((c) => c.account_id === accountId);
		return index < 0 ? undefined : baseCode(index, this.names);
	}

	/** An audience as served. */
	audienceView(audience: Audience): Record<string, unknown> {
		const key = this.names.fields.audienceId;
		return { [key]: audience[key], title: audience.title };
	}

	/** An event as listed, with ads_count and code_snippet derived from current state. */
	pixelEventView(event: PixelEvent): Record<string, unknown> {
		const index = this.cabinets.findIndex((c) => c.account_id === event.account_id);
		const eventId = this.eventIdOf(event);
		return {
			id: event.id,
			pixel_id: event.pixel_id,
			[this.names.fields.eventId]: eventId,
			title: event.title,
			type: event.type,
			status: event.status,
			ads_count: this.ads.filter(
				(ad) => ad.accountId === event.account_id && ad.fields.eventId === eventId,
			).length,
			created_at: event.created_at,
			last_triggered_at: event.last_triggered_at,
			code_snippet: eventSnippet(this.names, pixelIdOf(index).platformPixelId, eventId),
		};
	}

	createPixelEvent(accountId: string, title: string, type: string, createdAt: string): PixelEvent {
		const index = this.cabinets.findIndex((c) => c.account_id === accountId);
		const event: PixelEvent = {
			...pixelEventIds(this.nextPixelSeq++, this.names),
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
			[this.names.fields.audienceId]: this.nextAudienceId++,
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
		return this.metricsBetween(ad, Number.NEGATIVE_INFINITY, this.nowMs());
	}

	/**
	 * Views, clicks, actions, opens and spend (hundredths of the cabinet's currency) of the
	 * 5-minute slots that start at or after `fromMs` and end by `toMs`, as they stood at `asOfMs`
	 * (the clock's now unless given: restatements made up to then are included).
	 */
	metricsBetween(ad: Ad, fromMs: number, toMs: number, asOfMs = this.nowMs()): Float64Array {
		const totals = new Float64Array(METRIC_COUNT);
		const lo = Math.max(Math.ceil(ad.runFrom / SLOT_MS), Math.ceil(fromMs / SLOT_MS));
		const hi = Math.min(slotsUntil(ad.runUntil), Math.floor(toMs / SLOT_MS));
		if (lo < hi) this.metrics.addRange(ad.profile, lo, hi, totals, asOfMs);
		return totals;
	}

	/** The distinct advertised objects of the permitted cabinets' ads. */
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
	 * Ground truth: every row the statistics endpoint would page through for a statistics body, now.
	 * Validated like the endpoint except for the sub-day units' limits (data for the last 5 days
	 * only, spans of at most 2 days), so tests can compute the truth for any window.
	 */
	statsRows(body: unknown): Record<string, unknown>[] {
		if (isPlainObject(body) && typeof body.cursor === 'string') {
			const state = decodeCursor(body.cursor);
			return computeStatsRows(this, state.query, state.asOf);
		}
		const now = this.nowMs();
		return computeStatsRows(this, validateStatsQuery(body, now, { periodRules: false }), now);
	}

	/** Ground truth for the legacy report. */
	legacyReportRows(body: unknown): Record<string, unknown>[] {
		return legacyReportRows(this, body, this.nowMs());
	}
}
