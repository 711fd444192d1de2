import {
	NodeConnectionTypes,
	type IDataObject,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';
import { CREDENTIAL_TYPE } from '../shared/constants';
import { credentialViewOf, type CredentialView } from '../shared/auth';
import { getCabinets } from '../shared/methods/cabinets';
import { readCabinetIdList } from '../shared/cabinetId';
import { cabinetPickerField } from '../shared/stats/fields';
import { filtersCollection } from '../shared/filters';
import { claimPoll, triggerKey } from '../shared/pollsUnderWay';
import { invalidInput } from '../shared/validation';
import { AD_STATUS_TERMS, AD_STATUSES } from './statuses';
import { loadState } from './adState';
import { AdPass, type AdChange, type ListedAd } from './adPass';
import { readAdDetail, readListPages, type ListQuery } from './adReads';

/** Changes shown by "Fetch Test Event": enough to see the shape, few enough to read. */
const MANUAL_SAMPLE = 5;
/** Ads a poll resumes before its stored place, so an ad removed meanwhile shifts none past it. */
const RESUME_OVERLAP = 50;

type AdEvent = 'statusChanged' | 'newAd';
const EVENTS: AdEvent[] = ['statusChanged', 'newAd'];

interface Settings {
	event: AdEvent;
	toStatuses: string[];
	cabinets: string[];
	query: ListQuery;
}

/** Titles and campaign names may contain commas, so text from an expression is split on new lines only. */
function names(value: unknown): string[] {
	const parts = Array.isArray(value) ? value : typeof value === 'string' ? value.split('\n') : [];
	return parts.map((part) => String(part).trim()).filter((part) => part !== '');
}

/** 32-bit FNV-1a, base 36: a short fingerprint of the list query the stored statuses belong to. */
function fingerprintOf(text: string): string {
	let hash = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		hash ^= text.charCodeAt(i);
		hash = Math.imul(hash, 0x01000193);
	}
	return (hash >>> 0).toString(36);
}

function readSettings(ctx: IPollFunctions): Settings {
	const node = ctx.getNode();
	const event = ctx.getNodeParameter('event', 'statusChanged') as AdEvent;
	if (!EVENTS.includes(event))
		throw invalidInput(node, 'Event', `must be one of ${EVENTS.join(', ')}`, 0, event);
	const rawStatuses =
		event === 'statusChanged' ? (ctx.getNodeParameter('toStatuses', []) as unknown) : [];
	const toStatuses = Array.isArray(rawStatuses)
		? rawStatuses.map((status) => (typeof status === 'string' ? status.trim() : status))
		: names(typeof rawStatuses === 'string' ? rawStatuses.replace(/,/g, '\n') : rawStatuses);
	for (const status of toStatuses) {
		if (typeof status !== 'string' || !AD_STATUSES.includes(status)) {
			throw invalidInput(
				node,
				'To Statuses',
				`each must be one of ${AD_STATUSES.join(', ')} (none chosen means any status)`,
				0,
				status,
			);
		}
	}
	const filters = ctx.getNodeParameter('filters', {}) as IDataObject;
	return {
		event,
		toStatuses: toStatuses as string[],
		cabinets: readCabinetIdList(node, filters.cabinetIds, 0),
		query: { titles: names(filters.advertisementTitles), campaigns: names(filters.campaignNames) },
	};
}

/** Whether a change is one the chosen event and statuses ask for (the cabinet is checked apart). */
function wanted(change: AdChange, settings: Settings): boolean {
	if (settings.event === 'newAd') return change.isNew;
	return !settings.toStatuses.length || settings.toStatuses.includes(change.ad.status);
}

const field = (item: IDataObject, key: string): unknown => item[key] ?? null;

/**
 * The changes as items, in the order they happened. An ad's detail is read once, and only where
 * needed: for its cabinet when cabinets are chosen (the list does not carry it), and for a
 * declined ad's `decline_reason`.
 */
async function toItems(
	ctx: IPollFunctions,
	credentials: CredentialView,
	changes: AdChange[],
	settings: Settings,
	limit = Infinity,
): Promise<INodeExecutionData[]> {
	const items: INodeExecutionData[] = [];
	for (const { ad, previous } of changes) {
		if (items.length >= limit) break;
		const declined = ad.status === 'declined';
		const detail =
			declined || settings.cabinets.length
				? await readAdDetail(ctx, credentials, ad.id)
				: undefined;
		if (settings.cabinets.length) {
			const cabinet = detail?.account_id;
			if (cabinet === undefined || !settings.cabinets.includes(String(cabinet))) continue;
		}
		const json: IDataObject = {
			ad_id: ad.id,
			title: field(ad.item, 'advertisement_title') as string | null,
			campaign_id: field(ad.item, 'campaign_id') as number | null,
			campaign_name: field(ad.item, 'campaign_name') as string | null,
			status: ad.status,
			previous_status: previous,
			status_updated_dt: field(ad.item, 'status_updated_dt') as string | null,
		};
		if (declined) {
			const reasons = detail?.decline_reason;
			json.decline_reason = Array.isArray(reasons) ? (reasons as IDataObject[]) : null;
		}
		items.push({ json });
	}
	return items;
}

const byTime = (a: AdChange, b: AdChange) =>
	(a.ad.updatedMs ?? 0) - (b.ad.updatedMs ?? 0) || a.ad.id - b.ad.id;

export class AdCabinetAdsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Ad Cabinet Ads Trigger',
		name: 'adCabinetAdsTrigger',
		icon: { light: 'file:adCabinetAdsTrigger.svg', dark: 'file:adCabinetAdsTrigger.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{ $parameter["event"] === "newAd" ? "New ads" : (($parameter["toStatuses"] || []).length ? "Status changed to " + $parameter["toStatuses"].join(", ") : "Status changed") }}',
		description:
			'Starts the workflow when an ad of the Ad Cabinet API changes status (declined by moderation, approved, stopped) or a new ad appears',
		defaults: { name: 'Ad Cabinet Ads Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		properties: [
			{
				displayName:
					'Each change is emitted once, with the status before it; a restart of n8n neither loses nor repeats one. The first poll after activation records the ads that exist and emits nothing.',
				name: 'triggerNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Event',
				name: 'event',
				type: 'options',
				default: 'statusChanged',
				options: [
					{
						name: 'Status Changed',
						value: 'statusChanged',
						description:
							'An ad whose status differs from the last poll (an ad first seen counts, with previous_status empty)',
					},
					{ name: 'New Ad', value: 'newAd', description: 'An ad that was not there before' },
				],
			},
			{
				displayName: 'To Statuses',
				name: 'toStatuses',
				type: 'multiOptions',
				default: [],
				displayOptions: { show: { event: ['statusChanged'] } },
				description:
					'Only changes to these statuses, such as Declined for ads refused by moderation. None chosen: every change.',
				options: AD_STATUS_TERMS.map(({ name, value, description }) => ({
					name,
					value,
					description,
				})),
			},
			filtersCollection({}, [
				{
					...cabinetPickerField,
					description: `Only ads of these cabinets (each change costs one read of the ad's detail, which names its cabinet). A cabinet ID looks like ACC0000. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
				},
				{
					displayName: 'Campaign Names',
					name: 'campaignNames',
					type: 'string',
					typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Campaign Name' },
					default: [],
					description: 'Only ads of the campaigns with one of these exact names',
				},
				{
					displayName: 'Ad Titles',
					name: 'advertisementTitles',
					type: 'string',
					typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Title' },
					default: [],
					description: 'Only ads with one of these exact titles',
				},
			]),
		],
	};

	methods = {
		loadOptions: { getCabinets },
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const node = this.getNode();
		const startedAt = Date.now();
		const settings = readSettings(this);
		const fingerprint = fingerprintOf(JSON.stringify(settings.query));
		const staticData = this.getWorkflowStaticData('node');
		const warn = (message: string) => this.logger.warn(message);

		if (this.getMode() === 'manual') {
			// "Fetch Test Event": the latest changes among the ads listed, without touching the state.
			const stored = loadState(staticData.adCabinetAds, fingerprint, () => undefined);
			const known = new AdPass(stored);
			const listed: ListedAd[] = [];
			const credentials = await credentialViewOf(this);
			await readListPages(this, credentials, settings.query, 0, (ads) => listed.push(...ads));
			const latest: AdChange[] = listed
				.map((ad) => {
					const before = known.statusOf(ad.id);
					return {
						ad,
						previous: before !== undefined && before !== ad.status ? before : null,
						isNew: true,
					};
				})
				.filter((change) => wanted(change, settings))
				.sort((a, b) => (settings.event === 'newAd' ? b.ad.id - a.ad.id : byTime(b, a)));
			const items = await toItems(this, credentials, latest, settings, MANUAL_SAMPLE);
			return items.length ? [items.reverse()] : null;
		}

		// One poll of this trigger at a time (see pollsUnderWay.ts): a later one gives way.
		const endClaim = claimPoll(triggerKey(this.getWorkflow().id, node.id, node.name), startedAt);
		if (!endClaim) {
			this.logger.info(
				`Ad Cabinet Ads Trigger: the previous poll of "${node.name}" is still under way (it waits for the rate limit or the API), so this poll sends nothing; the next poll reads on from where that one ends`,
			);
			return null;
		}
		try {
			const state = loadState(staticData.adCabinetAds, fingerprint, warn);
			const pass = new AdPass(state);
			const changes: AdChange[] = [];
			const credentials = await credentialViewOf(this);
			const from = state.o === undefined ? 0 : Math.max(0, state.o - RESUME_OVERLAP);
			const read = await readListPages(
				this,
				credentials,
				settings.query,
				from,
				(ads) => changes.push(...pass.see(ads)),
				startedAt,
			);
			if (!read.complete) {
				this.logger.info(
					`Ad Cabinet Ads Trigger: "${node.name}" read ${read.pages} pages of the ad list within this poll's time and rate limit; the next poll reads on from ad ${read.nextOffset}`,
				);
			}
			const items = await toItems(
				this,
				credentials,
				changes.filter((change) => wanted(change, settings)).sort(byTime),
				settings,
			);
			// Every change found is stored as seen, emitted or filtered out, so none comes twice.
			staticData.adCabinetAds = pass.state(
				read.complete ? undefined : read.nextOffset,
			) as unknown as IDataObject;
			if (pass.recordsOnly && read.complete) {
				this.logger.info(
					`Ad Cabinet Ads Trigger: the first poll of "${node.name}" recorded the status of ${pass.adCount} ads and emits nothing; from the next poll on it emits each change`,
				);
			}
			return items.length ? [items] : null;
		} finally {
			endClaim();
		}
	}
}
