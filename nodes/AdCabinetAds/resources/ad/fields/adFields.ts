import { shownFieldName, type PlatformNames } from '../../../../shared/platform';
import { AD_TYPE_TERMS, BUTTON_TYPE_TERMS, CURRENCY_CODES } from '../../../../shared/vocabulary';

/** The schedule's day keys, in order (docs/api-rules.md#schedule). */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** The schedule's other two ways in; the day-by-day editor has the field's own name. */
export const SCHEDULE_JSON = 'scheduleJson';
export const REMOVE_SCHEDULE = 'removeSchedule';

/** The create collections (the required core fields are top-level, in none). */
type AdCollection =
	'targeting' | 'exclusions' | 'budgetSchedule' | 'websiteButton' | 'marking' | 'tracking';

interface Choice {
	name: string;
	value: string;
	description?: string;
}

/** How a field is entered in the node and what JSON type it becomes in the body. */
export type AdFieldKind =
	| {
			type: 'string';
			nonEmpty?: boolean;
			url?: boolean;
			/** Blank sends null. */
			nullable?: boolean;
			/** Blank (an empty sheet cell) is not sent; on edit it sends null when `updateNullable`. */
			blankNotSent?: boolean;
			rows?: number;
	  }
	| {
			type: 'number';
			positive?: boolean;
			min?: number;
			max?: number;
	  }
	/** Chosen from a list of UTC offsets (valued in hours, as saved nodes hold them); sent in seconds. */
	| { type: 'utcOffset' }
	| { type: 'integer'; min: number }
	/** An ID: a whole number of at least 1, from node version 1.2 picked From List or typed By ID. */
	| { type: 'integer'; min: 1; picker: IdPicker }
	| { type: 'boolean' }
	| { type: 'options'; choices: readonly Choice[]; nullable?: boolean }
	| { type: 'stringList' }
	| { type: 'idList' }
	| { type: 'date' }
	| { type: 'audiences' }
	| { type: 'pixelEvent' }
	| { type: 'targetBots' }
	| { type: 'kktu' }
	| { type: 'schedule' };

/**
 * An ID field's resource locator (node version 1.2 on): From List, fed by a listSearch method of the
 * Ads node, or By ID. Both give the ID the typed field of earlier versions takes, read by the same
 * rule; saved nodes of the versions in AD_IDS_TYPED_IN keep the typed field.
 */
interface IdPicker {
	searchListMethod: string;
	/** From List's placeholder, e.g. "Select a campaign…". */
	listPlaceholder: string;
}

/** Node versions whose Cabinet ID and Campaign ID are typed in; from 1.2 they are picked from a list or typed. */
export const AD_IDS_TYPED_IN = [1, 1.1];

/** The rule of an integer field, as its refusal and the editor state it. */
export const integerRule = (min: number) => `must be a whole number of at least ${min}`;

export interface AdField {
	/**
	 * The body field of create and edit. A field whose name differs between the API's forms names
	 * its entry in the naming map instead; apiName() gives the name sent.
	 */
	api: string | { platformField: keyof PlatformNames['fields'] };
	/** The node parameter (top-level for core fields, else the option's name inside its collection). */
	name: string;
	displayName: string;
	description: string;
	kind: AdFieldKind;
	/** Create: the collection it sits in; undefined for the required core fields shown up front. */
	collection?: AdCollection;
	/** Create: absent means the field is in the create body. */
	create?: false;
	/** Whether the edit body takes it; an edit takes fewer fields than create. */
	update?: true;
	/** The edit body takes null for this field (to clear it) where create does not. */
	updateNullable?: true;
	placeholder?: string;
	default?: string | number | boolean;
	/**
	 * Offered only by node version 1 ('first') or from version 1.1 ('later'); saved version 1
	 * nodes keep the fields they were made with.
	 */
	versions?: 'first' | 'later';
}

/** The Currency choice (from node version 1.1) that sends `use_account_currency: true` instead of a code. */
export const CABINET_CURRENCY = 'cabinet';

const AD_TYPES: readonly Choice[] = AD_TYPE_TERMS;
const BUTTON_TYPES: readonly Choice[] = BUTTON_TYPE_TERMS;
const CURRENCY_CHOICES: readonly Choice[] = CURRENCY_CODES.map((code) => ({
	name: code,
	value: code,
}));

const list = (what: string) => `${what}, separated by commas`;

/**
 * Every body field of create and edit (docs/api-rules.md#ads), once. The node's parameters, the body
 * and the refusals are all derived from this table, so a field cannot be shown and then not sent.
 */
// One field per line, so that the table reads like the list of body fields.
// prettier-ignore
export const AD_FIELDS: readonly AdField[] = [
	// Required core fields, up front on Create.
	{ api: 'campaign_id', name: 'campaignId', displayName: 'Campaign ID', kind: { type: 'integer', min: 1, picker: { searchListMethod: 'searchCampaigns', listPlaceholder: 'Select a campaign…' } }, description: 'The campaign the ad is created in; it decides the cabinet. Campaign → Get Many ("Get many campaigns") lists every campaign with its ID.', placeholder: 'e.g. 2201' },
	{ api: 'title', name: 'title', displayName: 'Title', kind: { type: 'string', nonEmpty: true }, description: 'The ad title', update: true },
	{ api: 'text', name: 'text', displayName: 'Text', kind: { type: 'string', nonEmpty: true, rows: 4 }, description: 'The ad text', update: true },
	{ api: 'promote_url', name: 'promoteUrl', displayName: 'Promote URL', kind: { type: 'string', nonEmpty: true, url: true }, description: 'URL of the promoted channel, bot, post or website. A channel invite link (t.me/+… or t.me/joinchat/…) also needs Ad Object (under Website & Button).', placeholder: 'e.g. https://t.me/my_channel', update: true },
	{ api: 'cpm', name: 'cpm', displayName: 'CPM', kind: { type: 'number', positive: true }, description: 'Cost per 1,000 impressions, greater than 0', placeholder: 'e.g. 2.5', update: true },
	{ api: 'budget', name: 'budget', displayName: 'Budget', kind: { type: 'number', positive: true }, description: 'Total budget, greater than 0', placeholder: 'e.g. 150' },
	{ api: 'ad_type', name: 'adType', displayName: 'Ad Type', kind: { type: 'options', choices: AD_TYPES }, description: 'How the ad is targeted', default: 'target_channels' },
	{ api: 'kktu_ids', name: 'kktu', displayName: 'KKTU Category', kind: { type: 'kktu' }, description: 'The ad-marking category: exactly one category of the third (most specific) level. Required by cabinets with automatic labelling.', update: true },

	// Targeting
	{ api: 'langs', name: 'langs', displayName: 'Languages', collection: 'targeting', kind: { type: 'stringList' }, description: list('Language codes'), placeholder: 'e.g. en, de' },
	{ api: 'countries', name: 'countries', displayName: 'Countries', collection: 'targeting', kind: { type: 'stringList' }, description: list('Country codes'), placeholder: 'e.g. DE, AT' },
	{ api: 'locations', name: 'locations', displayName: 'Cities', collection: 'targeting', kind: { type: 'stringList' }, description: list('Cities') },
	{ api: 'locations_verbose', name: 'locationsVerbose', displayName: 'City Identifiers', collection: 'targeting', kind: { type: 'stringList' }, description: list('City identifiers (the API\'s locations_verbose)') },
	{ api: 'topics', name: 'topics', displayName: 'Topic IDs', collection: 'targeting', kind: { type: 'idList' }, description: list('Numeric topic IDs') },
	{ api: 'topics_verbose', name: 'topicsVerbose', displayName: 'Topic Identifiers', collection: 'targeting', kind: { type: 'stringList' }, description: list('Topic identifiers (topics_verbose)') },
	{ api: 'channels', name: 'channels', displayName: 'Channel IDs', collection: 'targeting', kind: { type: 'idList' }, description: list('Numeric channel IDs') },
	{ api: 'channels_verbose', name: 'channelsVerbose', displayName: 'Channel Identifiers', collection: 'targeting', kind: { type: 'stringList' }, description: list('Channel identifiers (channels_verbose), e.g. @name') },
	{ api: 'audiences', name: 'audiences', displayName: 'Audience Names or IDs', collection: 'targeting', kind: { type: 'audiences' }, description: 'Phone-number audiences of the cabinet in Cabinet ID (Uzbekistan cabinets). Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.' },
	{ api: 'target_user_channels', name: 'targetUserChannels', displayName: 'User Channels', collection: 'targeting', kind: { type: 'stringList' }, description: list('Channels whose subscribers are targeted') },
	{ api: 'target_user_channels_verbose', name: 'targetUserChannelsVerbose', displayName: 'User Channel Identifiers', collection: 'targeting', kind: { type: 'stringList' }, description: list('User channel identifiers (target_user_channels_verbose)') },
	{ api: 'target_search', name: 'targetSearch', displayName: 'Search Queries', collection: 'targeting', kind: { type: 'stringList' }, description: list('Search queries (for Ad Type Search)') },
	{ api: 'target_bots', name: 'targetBots', displayName: 'Target Bots', collection: 'targeting', kind: { type: 'targetBots' }, description: 'Bots to show the ad in, each with the ID and URL that Validate Bots returns (for Ad Type Bots)' },
	{ api: 'split_by', name: 'splitBy', displayName: 'Split By', collection: 'targeting', kind: { type: 'stringList' }, description: list('Targeting split parameters') },
	{ api: 'device', name: 'device', displayName: 'Device', collection: 'targeting', kind: { type: 'options', choices: [{ name: 'All', value: 'all' }] }, description: 'Targeting device', default: 'all' },
	{ api: 'all_topics_interested_users', name: 'allTopicsInterestedUsers', displayName: 'All Topics Interested Users', collection: 'targeting', kind: { type: 'boolean' }, description: 'Whether to target users interested in all topics', default: false },
	{ api: 'only_crypto', name: 'onlyCrypto', displayName: 'Only Crypto Channels', collection: 'targeting', kind: { type: 'boolean' }, description: 'Whether to show the ad only in crypto channels', default: false },

	// Exclusions
	{ api: 'exclude_topics', name: 'excludeTopics', displayName: 'Excluded Topic IDs', collection: 'exclusions', kind: { type: 'idList' }, description: list('Numeric topic IDs to exclude') },
	{ api: 'exclude_topics_verbose', name: 'excludeTopicsVerbose', displayName: 'Excluded Topic Identifiers', collection: 'exclusions', kind: { type: 'stringList' }, description: list('Excluded topic identifiers (exclude_topics_verbose)') },
	{ api: 'exclude_channels', name: 'excludeChannels', displayName: 'Excluded Channel IDs', collection: 'exclusions', kind: { type: 'idList' }, description: list('Numeric channel IDs to exclude') },
	{ api: 'exclude_channels_verbose', name: 'excludeChannelsVerbose', displayName: 'Excluded Channel Identifiers', collection: 'exclusions', kind: { type: 'stringList' }, description: list('Excluded channel identifiers (exclude_channels_verbose)') },
	{ api: 'exclude_audiences', name: 'excludeAudiences', displayName: 'Excluded Audience Names or IDs', collection: 'exclusions', kind: { type: 'audiences' }, description: 'Audiences of the cabinet in Cabinet ID to exclude. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.' },
	{ api: 'exclude_target_user_channels', name: 'excludeTargetUserChannels', displayName: 'Excluded User Channels', collection: 'exclusions', kind: { type: 'stringList' }, description: list('User channels to exclude') },
	{ api: 'exclude_target_user_channels_verbose', name: 'excludeTargetUserChannelsVerbose', displayName: 'Excluded User Channel Identifiers', collection: 'exclusions', kind: { type: 'stringList' }, description: list('Excluded user channel identifiers (exclude_target_user_channels_verbose)') },
	{ api: 'exclude_politic', name: 'excludePolitic', displayName: 'Exclude Political Content', collection: 'exclusions', kind: { type: 'boolean' }, description: 'Whether to keep the ad away from political content', default: true },
	{ api: 'exclude_crypto', name: 'excludeCrypto', displayName: 'Exclude Crypto Channels', collection: 'exclusions', kind: { type: 'boolean' }, description: 'Whether to keep the ad out of crypto channels', default: true },

	// Budget & Schedule
	{ api: 'daily_budget', name: 'dailyBudget', displayName: 'Daily Budget', collection: 'budgetSchedule', kind: { type: 'number', positive: true }, description: 'Daily spending limit, greater than 0', placeholder: 'e.g. 15', update: true },
	{ api: 'views_per_user', name: 'viewsPerUser', displayName: 'Views per User', collection: 'budgetSchedule', kind: { type: 'integer', min: 1 }, description: 'How many times one user may see the ad, a whole number of at least 1', default: 1, update: true },
	{ api: 'start_date', name: 'startDate', displayName: 'Start Date', collection: 'budgetSchedule', kind: { type: 'date' }, description: 'When delivery starts; must be before End Date', update: true },
	{ api: 'end_date', name: 'endDate', displayName: 'End Date', collection: 'budgetSchedule', kind: { type: 'date' }, description: 'When delivery ends', update: true },
	{ api: 'schedule', name: 'schedule', displayName: 'Schedule', collection: 'budgetSchedule', kind: { type: 'schedule' }, description: 'Delivery hours per weekday', update: true, updateNullable: true },
	{ api: 'use_selected_timezone', name: 'useSelectedTimezone', displayName: 'Use Schedule Timezone', collection: 'budgetSchedule', kind: { type: 'boolean' }, description: 'Whether the schedule hours are in Schedule Timezone rather than UTC', default: true, update: true },
	{ api: 'schedule_timezone', name: 'scheduleTimezone', displayName: 'Schedule Timezone', collection: 'budgetSchedule', kind: { type: 'utcOffset' }, description: 'The time zone of the schedule\'s hours, as an offset from UTC. Sent in seconds (10800 for UTC+03:00); an expression may give hours (3) or seconds (10800). Used when Use Schedule Timezone is on.', default: 0, update: true },
	{ api: 'currency_code', name: 'currencyCode', displayName: 'Currency', collection: 'budgetSchedule', kind: { type: 'options', choices: CURRENCY_CHOICES }, description: 'Currency of CPM and budgets', default: 'EUR', versions: 'first' },
	{ api: 'use_account_currency', name: 'useAccountCurrency', displayName: 'Use Cabinet Currency', collection: 'budgetSchedule', kind: { type: 'boolean' }, description: 'Whether CPM and budgets are in the cabinet\'s own currency', default: true, versions: 'first' },
	{ api: 'currency_code', name: 'currency', displayName: 'Currency', collection: 'budgetSchedule', kind: { type: 'options', choices: [{ name: 'Cabinet\'s Own Currency', value: CABINET_CURRENCY, description: 'CPM and budgets are in the currency the cabinet is kept in' }, ...CURRENCY_CHOICES] }, description: 'Currency of CPM and budgets: the cabinet\'s own, or one of the codes', default: CABINET_CURRENCY, versions: 'later' },
	{ api: 'after_moderation_status', name: 'afterModerationStatus', displayName: 'Status After Moderation', collection: 'budgetSchedule', kind: { type: 'options', choices: [{ name: 'Active', value: 'active' }, { name: 'On Hold', value: 'on hold' }] }, description: 'Whether the ad starts or waits once approved', default: 'active', update: true },

	// Website & Button
	{ api: 'ad_object', name: 'adObject', displayName: 'Ad Object', collection: 'websiteButton', kind: { type: 'string', url: true, blankNotSent: true }, description: 'URL of the destination channel. Required when Promote URL is a private channel invite link (t.me/+… or t.me/joinchat/…); empty is not sent.', placeholder: 'e.g. https://t.me/my_private_channel' },
	{ api: 'promote_url_type', name: 'promoteUrlType', displayName: 'Promote URL Type', collection: 'websiteButton', kind: { type: 'options', choices: [{ name: 'Channel', value: 'channel' }, { name: 'Website', value: 'website' }] }, description: 'Whether Promote URL is a channel or a website', default: 'channel' },
	{ api: 'website_name', name: 'websiteName', displayName: 'Website Name', collection: 'websiteButton', kind: { type: 'string' }, description: 'Name shown for an external website', update: true },
	{ api: 'button_type', name: 'buttonType', displayName: 'Button Type', collection: 'websiteButton', kind: { type: 'options', choices: BUTTON_TYPES }, description: 'The button under the ad', default: 'open_website', update: true },
	{ api: 'show_picture', name: 'showPicture', displayName: 'Show Picture', collection: 'websiteButton', kind: { type: 'boolean' }, description: 'Whether to show the promoted object\'s avatar', default: true, update: true },
	{ api: 'promote_url_picture_id', name: 'promoteUrlPictureId', displayName: 'Picture ID', collection: 'websiteButton', kind: { type: 'string', nullable: true }, description: 'ID of the promoted object\'s image; empty sends null', update: true },
	{ api: 'media_token', name: 'mediaToken', displayName: 'Media Token', collection: 'websiteButton', kind: { type: 'string', blankNotSent: true }, description: 'The ad\'s image or video: the media_token from Ad Cabinet Media → Upload. Empty is not sent on Create, and removes the media on Update.', update: true, updateNullable: true },

	// Marking
	{ api: 'other_info', name: 'otherInfo', displayName: 'Marking Token', collection: 'marking', kind: { type: 'string', nullable: true }, description: 'Marking token for manual labelling (other_info); empty sends null', update: true },

	// Tracking
	{ api: { platformField: 'eventId' }, name: 'pixelEvent', displayName: 'Pixel Event Name or ID', collection: 'tracking', kind: { type: 'pixelEvent' }, description: `One pixel tag event of the cabinet in Cabinet ID, by its ${shownFieldName('eventId')}; empty sends null. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`, update: true },
];

/** The fields shown up front on Create, in the order of the table. */
export const CORE_FIELDS = AD_FIELDS.filter((field) => field.collection === undefined);

export const COLLECTIONS: readonly {
	name: AdCollection;
	displayName: string;
	placeholder: string;
}[] = [
	{ name: 'targeting', displayName: 'Targeting', placeholder: 'Add Targeting' },
	{ name: 'exclusions', displayName: 'Exclusions', placeholder: 'Add Exclusion' },
	{
		name: 'budgetSchedule',
		displayName: 'Budget & Schedule',
		placeholder: 'Add Budget or Schedule Field',
	},
	{
		name: 'websiteButton',
		displayName: 'Website & Button',
		placeholder: 'Add Website or Button Field',
	},
	{ name: 'marking', displayName: 'Marking', placeholder: 'Add Marking Field' },
	{ name: 'tracking', displayName: 'Tracking', placeholder: 'Add Tracking Field' },
];

/** The fields an edit may carry. */
export const UPDATE_FIELDS = AD_FIELDS.filter((field) => field.update);

/** The body field's name in the credential's form of the API. */
export function apiName(field: AdField, names: PlatformNames): string {
	return typeof field.api === 'string' ? field.api : names.fields[field.api.platformField];
}

/**
 * The node's name for an API field, for messages that quote the API. Without `names` only the
 * fields named alike in both forms are found.
 */
export function labelOf(api: string, names?: PlatformNames): string | undefined {
	return AD_FIELDS.find((field) => (names ? apiName(field, names) : field.api) === api)
		?.displayName;
}
