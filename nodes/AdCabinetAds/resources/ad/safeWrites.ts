import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecuteSingleFunctions,
	INodeExecutionData,
} from 'n8n-workflow';
import { readAdList } from '../../../shared/adList';
import { PAGE_BOUND_SLACK } from '../../../shared/constants';
import type { PlatformNames } from '../../../shared/platform';
import { apiRequest } from '../../../shared/transport/request';
import {
	changesOf,
	checkMoney,
	deferred,
	dryRunOutput,
	perExecution,
	readWriteOptions,
	type WriteGuard,
} from '../../../shared/writes';
import { readAdId } from './fields/adId';
import { labelOf } from './fields/adFields';
import { readAdRecently } from './recentReads';
import { identityOf, readableText, readableUrl } from './sameAd';
import { checkDayBound } from './dayBound';
import { guardCreate, type CreateDecision, type CreatePorts } from './createGuard';
import { lookForTwinAfterLastWrite } from './twinLook';
import {
	guardClock,
	holdCreate,
	holdUpdate,
	otherRunPending,
	recordsOrNone,
	tidyOf,
} from './twoRuns';

type RequestOptions = DeclarativeRestApiSettings.HttpRequestOptions;

/** The Ads node version from which Dry Run, Skip Identical, Skip Unchanged and the money bounds apply. */
const SAFE_WRITES_SINCE = 1.3;

const label = (api: string) => String(labelOf(api) ?? api);

const MONEY_FIELDS = [
	{ api: 'cpm', label: label('cpm'), kind: 'cpm' as const },
	{ api: 'budget', label: label('budget'), kind: 'budget' as const },
	{ api: 'daily_budget', label: label('daily_budget'), kind: 'budget' as const },
];

interface ListedAd {
	id?: unknown;
	campaign_id?: unknown;
	advertisement_title?: unknown;
	status?: unknown;
}

/**
 * Every not-deleted ad the list gives for this title filter whose title reads the same (surrounding
 * whitespace and line ends aside), read once per execution.
 */
function adsTitled(fx: IExecuteSingleFunctions, title: string): Promise<ListedAd[]> {
	const lists = perExecution<Promise<ListedAd[]>>(fx, 'adsByTitle');
	let list = lists.get(title);
	if (!list) {
		list = (async () => {
			const ads: ListedAd[] = [];
			await readAdList(fx, {
				qs: { advertisement_titles: title },
				offset: 0,
				itemIndex: fx.getItemIndex(),
				// Bounded: thousands of ads of one title is a list that does not end.
				readMore: (pages) => pages < PAGE_BOUND_SLACK + 20,
				onPage: (page) => ads.push(...(page as ListedAd[])),
			});
			return ads.filter(
				(ad) =>
					ad.status !== 'deleted' && readableText(ad.advertisement_title) === readableText(title),
			);
		})();
		lists.set(title, list);
		// A failed read is not kept, so a later item asks again.
		list.catch(() => lists.delete(title));
	}
	return list;
}

/**
 * An ad's detail, read once per execution; in a tool call, a read of it by this credential within
 * the last seconds serves instead (see recentReads.ts). A workflow reads it right before each write.
 */
function adDetail(
	fx: IExecuteSingleFunctions,
	names: PlatformNames,
	adId: string,
): Promise<IDataObject> {
	const details = perExecution<Promise<IDataObject>>(fx, 'adDetails');
	let detail = details.get(adId);
	if (!detail) {
		const path = names.paths.ad(adId);
		detail = readAdRecently(
			fx,
			path,
			async () =>
				(await apiRequest.call(fx, {
					api: 'base',
					method: 'GET',
					path,
					itemIndex: fx.getItemIndex(),
				})) as IDataObject,
		);
		details.set(adId, detail);
		detail.catch(() => details.delete(adId));
	}
	return detail;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * The title filters to ask the list with: the title as read, and as typed when that differs. The
 * list matches a title exactly, so a title typed with a trailing space still finds the ad kept
 * without it.
 */
function titleFilters(title: string): string[] {
	const read = readableText(title);
	return read === title ? [title] : [read, title];
}

/**
 * The not-deleted ads of the same campaign with the same title, promote URL and text, compared as a
 * person reads them (see sameAd.ts). The list gives the title and campaign; the promote URL and text
 * are read from each such ad's detail. `fresh`: the list is read again, not taken from this run.
 */
async function identicalAds(
	fx: IExecuteSingleFunctions,
	names: PlatformNames,
	body: IDataObject,
	{ fresh = false, first = false, skip }: { fresh?: boolean; first?: boolean; skip?: unknown } = {},
): Promise<IDataObject[]> {
	const filters = titleFilters(text(body.title));
	if (fresh) for (const filter of filters) perExecution(fx, 'adsByTitle').delete(filter);
	const found: IDataObject[] = [];
	const seen = new Set<string>();
	for (const filter of filters) {
		for (const listed of await adsTitled(fx, filter)) {
			if (String(listed.campaign_id) !== String(body.campaign_id)) continue;
			if (seen.has(String(listed.id)) || String(listed.id) === String(skip)) continue;
			seen.add(String(listed.id));
			const detail = await adDetail(fx, names, String(listed.id));
			if (
				readableUrl(detail.promote_url) === readableUrl(body.promote_url) &&
				readableText(detail.text) === readableText(body.text)
			) {
				found.push({ ad_id: listed.id as IDataObject[string], ...detail });
				if (first) return found;
			}
		}
	}
	return found;
}

/** What an earlier item of this run with the same ad settled on: the ad made or found, or undefined. */
type Earlier = IDataObject | undefined;

/**
 * Ad → Create's guard: the money bounds, then (Skip Identical) an identical ad made by an earlier
 * item of this run, already in the list, or made at this moment by another run (createGuard.ts),
 * then (Dry Run) the request instead of sending it. After the node's last write, a twin made by
 * another run at the same moment fails the item that made the second ad.
 */
export async function guardAdCreate(
	this: IExecuteSingleFunctions,
	options: RequestOptions,
	names: PlatformNames,
): Promise<WriteGuard | undefined> {
	const settings = readWriteOptions(this, SAFE_WRITES_SINCE);
	const body = options.body as IDataObject;
	checkMoney(this.getNode(), this.getItemIndex(), body, MONEY_FIELDS, settings);
	const dry = () => dryRunOutput('POST', String(options.url), body);
	if (!settings.skipIdentical) return settings.dryRun ? { output: dry() } : undefined;

	const key = identityOf(body);
	const rows = perExecution<Promise<Earlier>>(this, 'identicalRows');
	const earlier = rows.get(key);
	const mine = deferred<Earlier>();
	// Registered before any wait, so the next identical item of this run waits for this one.
	rows.set(key, mine.promise);
	const skippedAs = (existing: IDataObject) => {
		mine.resolve(existing);
		const skipped = { skipped: true, reason: 'identical ad exists', ad_id: existing.ad_id };
		return { output: settings.dryRun ? { ...dry(), ...skipped } : { ...existing, ...skipped } };
	};
	let decision: CreateDecision | undefined;
	try {
		const before = earlier ? await earlier : undefined;
		if (before) return skippedAs(before);
		if (settings.dryRun) {
			const there = (await identicalAds(this, names, body, { first: true }))[0];
			if (there) return skippedAs(there);
			// A real run would create it here, so an identical item after this one would be skipped.
			mine.resolve({ ad_id: null });
			return { output: dry() };
		}
		decision = await guardCreate(createPorts(this, names, body, key), key);
	} finally {
		// Failed: the next identical item of this run checks for itself (a decided item keeps its ad).
		if (!decision) mine.resolve(undefined);
	}
	if ('skip' in decision) return skippedAs(decision.skip);
	if ('pending' in decision) {
		mine.resolve(undefined);
		throw otherRunPending(this, text(body.title));
	}
	return {
		settle: async (items?: INodeExecutionData[]) => {
			const made = items?.[0]?.json;
			await decision.settle(made !== undefined);
			if (!made) {
				// Not created: the next identical item checks for itself.
				mine.resolve(undefined);
				return;
			}
			if (made.ad_id === undefined) {
				// Created without an answer naming the ad: the next identical item reads the list again.
				for (const filter of titleFilters(text(body.title)))
					perExecution(this, 'adsByTitle').delete(filter);
				mine.resolve(undefined);
				return;
			}
			mine.resolve(made);
			lookForTwinAfterLastWrite(
				this,
				{ adId: made.ad_id, body },
				{
					detail: async (adId) => await adDetail(this, names, adId),
					titleFilters,
				},
			);
		},
	};
}

/** The guard's ports in a running node: n8n's records, this process's hold, the ad list. */
function createPorts(
	fx: IExecuteSingleFunctions,
	names: PlatformNames,
	body: IDataObject,
	key: string,
): CreatePorts {
	return {
		records: recordsOrNone(fx),
		clock: guardClock(
			fx,
			`Ad "${text(body.title)}" was not created: the checks that keep two runs from creating the same ad (another run may be creating it at this moment) need more time than this tool call has left`,
		),
		tidy: tidyOf(fx),
		hold: async () => await holdCreate(fx, key),
		findIdentical: async (fresh) =>
			(await identicalAds(fx, names, body, { fresh, first: true }))[0],
		log: (what) => fx.logger.debug(`Ad Cabinet: ${what}`, { executionId: fx.getExecutionId() }),
	};
}

/** The ad's current value of a body field, as its detail shows it. */
function currentOf(detail: IDataObject, names: PlatformNames): (field: string) => unknown {
	return (field) => {
		if (field === 'media_token') return (detail.media as IDataObject | null)?.token ?? null;
		if (field === names.fields.eventId)
			return (detail.event as IDataObject | undefined)?.[names.fields.eventId] ?? null;
		return detail[field];
	};
}

/**
 * Ad → Update's guard: the money bounds; then the ad as it is (when Dry Run, Skip Unchanged or Max
 * Change % need it), the change bound against it, and nothing sent when nothing would change.
 */
export async function guardAdUpdate(
	this: IExecuteSingleFunctions,
	options: RequestOptions,
	names: PlatformNames,
): Promise<WriteGuard | undefined> {
	const settings = readWriteOptions(this, SAFE_WRITES_SINCE);
	const body = options.body as IDataObject;
	const node = this.getNode();
	const itemIndex = this.getItemIndex();
	checkMoney(node, itemIndex, body, MONEY_FIELDS, { ...settings, maxChangePercent: undefined });
	const needsAd =
		settings.dryRun ||
		settings.skipUnchanged ||
		settings.maxChangePercent !== undefined ||
		settings.maxChangePercentPerDay !== undefined;
	if (!needsAd) return undefined;
	const adId = readAdId(this);
	// A run changing the same ad at this moment goes first; the ad is then read after its PUT.
	const held = settings.dryRun ? undefined : await holdUpdate(this, adId, names.paths.ad(adId));
	if (held?.waited) perExecution(this, 'adDetails').delete(adId);
	// The hold goes when the guard decides without a write or fails, else when the write settles.
	let settled = false;
	try {
		const guard = await updateGuardHeld(this, options, names, settings, adId);
		if (!held || 'output' in guard) return guard;
		settled = true;
		return {
			settle: async (items) => {
				await held.release();
				return guard.settle?.(items);
			},
		};
	} finally {
		if (!settled) await held?.release();
	}
}

async function updateGuardHeld(
	fx: IExecuteSingleFunctions,
	options: RequestOptions,
	names: PlatformNames,
	settings: ReturnType<typeof readWriteOptions>,
	adId: string,
): Promise<WriteGuard> {
	const node = fx.getNode();
	const itemIndex = fx.getItemIndex();
	const body = options.body as IDataObject;
	const detail = await adDetail(fx, names, adId);
	checkMoney(node, itemIndex, body, MONEY_FIELDS, settings, detail);
	const changes = changesOf(body, currentOf(detail, names));
	const unchanged = Object.keys(changes).length === 0;
	const skipped =
		settings.skipUnchanged && unchanged
			? { skipped: true, reason: 'unchanged', ad_id: detail.ad_id ?? Number(adId) }
			: undefined;
	if (settings.maxChangePercentPerDay !== undefined && !skipped)
		await checkDayBound(fx, adId, body, detail, settings.maxChangePercentPerDay, settings.dryRun);
	if (settings.dryRun)
		return {
			output: { ...dryRunOutput('PUT', String(options.url), body, { changes }), ...skipped },
		};
	if (skipped) return { output: skipped };
	// The ad changes now, so a later item of this run reads it again.
	return { settle: () => void perExecution(fx, 'adDetails').delete(adId) };
}
