import { PLATFORM_NAMES, type Platform } from '../platform';
import { cabinetIdMap } from './cabinets';
import type {
	Ad,
	Audience,
	AudienceUpload,
	Cabinet,
	Campaign,
	MediaUpload,
	PixelEvent,
} from './model';

/** The stored records whose cabinet ids and platform-named fields depend on the form. */
interface StoredRecords {
	cabinets: Cabinet[];
	campaigns: Campaign[];
	ads: Ad[];
	audienceUploads: AudienceUpload[];
	mediaUploads: MediaUpload[];
	pixelEvents: PixelEvent[];
	audiences: Audience[];
}

/**
 * Gives every stored record the cabinet ids and field names of the form `platform`, so everything
 * seeded or created in the form `from` is served consistently after a switch.
 */
export function relabelStored(data: StoredRecords, from: Platform, platform: Platform): void {
	const ids = cabinetIdMap(from, platform);
	const id = (value: string) => ids.get(value) ?? value;
	for (const cabinet of data.cabinets) {
		cabinet.account_id = id(cabinet.account_id);
		cabinet.id = id(cabinet.id);
	}
	for (const campaign of data.campaigns) campaign.account_id = id(campaign.account_id);
	for (const ad of data.ads) ad.accountId = id(ad.accountId);
	for (const upload of data.audienceUploads) upload.accountId = id(upload.accountId);
	for (const upload of data.mediaUploads) upload.accountId = id(upload.accountId);
	const oldNames = PLATFORM_NAMES[from].fields;
	const newNames = PLATFORM_NAMES[platform].fields;
	for (const event of data.pixelEvents) {
		event.account_id = id(event.account_id);
		renameKey(event, oldNames.eventId, newNames.eventId);
	}
	for (const audience of data.audiences) {
		audience.account_id = id(audience.account_id);
		renameKey(audience, oldNames.audienceId, newNames.audienceId);
	}
}

function renameKey(record: Record<string, unknown>, from: string, to: string): void {
	if (from === to || !(from in record)) return;
	record[to] = record[from];
	delete record[from];
}
