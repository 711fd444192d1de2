import { NodeOperationError } from 'n8n-workflow';
import {
	AD_FIELDS,
	type AdField,
} from '../../../../../../nodes/AdCabinetAds/resources/ad/fields/adFields';
import {
	readFieldValue,
	readKktu,
	type ReadContext,
} from '../../../../../../nodes/AdCabinetAds/resources/ad/values/adValues';
import { PLATFORM_NAMES } from '../../../../../../nodes/shared/platform';
import { NODE } from '../../../../../support/fakeContext';

const create: ReadContext = {
	node: NODE,
	itemIndex: 0,
	timeZone: 'Europe/Berlin',
	mode: 'create',
	names: PLATFORM_NAMES.telegram,
};
const update: ReadContext = { ...create, mode: 'update' };

/** The field of the table for an API field (the first, where two node parameters send it). */
function field(api: string): AdField {
	const found = AD_FIELDS.find((f) => f.api === api);
	if (!found) throw new Error(`no field ${api}`);
	return found;
}

function read(api: string, value: unknown, ctx: ReadContext = create): unknown {
	return readFieldValue(field(api), value, ctx);
}

function refusal(run: () => unknown): NodeOperationError {
	try {
		run();
	} catch (error) {
		return error as NodeOperationError;
	}
	throw new Error('expected a refusal');
}

describe('readFieldValue: text fields', () => {
	test('required text is sent as given; a number from a sheet becomes text', () => {
		expect(read('title', '  Summer sale ')).toBe('  Summer sale ');
		expect(read('text', 2026)).toBe('2026');
	});

	test('required text refuses blanks and non-text, naming the field', () => {
		expect(refusal(() => read('title', '   ')).message).toBe(
			'Title: must not be empty. Nothing was sent to the API.',
		);
		expect(refusal(() => read('text', { a: 1 })).message).toBe(
			'Text: must be text (got {"a":1}). Nothing was sent to the API.',
		);
		expect(refusal(() => read('text', undefined)).message).toBe(
			'Text: must be text. Nothing was sent to the API.',
		);
	});

	test('a URL field takes absolute http(s) URLs, trimmed, and refuses anything else with the value given', () => {
		expect(read('promote_url', ' https://t.me/my_channel ')).toBe('https://t.me/my_channel');
		for (const bad of ['t.me/my_channel', 'ftp://t.me/x', 'tg://resolve?domain=x']) {
			expect(refusal(() => read('promote_url', bad)).message).toBe(
				`Promote URL: must be an absolute http(s) URL such as https://t.me/name (got "${bad}"). Nothing was sent to the API.`,
			);
		}
	});

	test('blank optional text is not sent, except where an edit clears it with null', () => {
		expect(read('ad_object', '  ')).toBeUndefined();
		expect(read('media_token', '')).toBeUndefined();
		expect(read('media_token', '', update)).toBeNull();
		expect(read('media_token', 'mt-1', update)).toBe('mt-1');
		// Ad Object is blank-not-sent on both, and still checked as a URL when set.
		expect(read('ad_object', '', update)).toBeUndefined();
		expect(() => read('ad_object', 'my_private_channel')).toThrow(
			/^Ad Object: must be an absolute http\(s\) URL/,
		);
	});

	test('a nullable text sends null when blank', () => {
		expect(read('other_info', '')).toBeNull();
		expect(read('promote_url_picture_id', ' ')).toBeNull();
		expect(read('other_info', 'token-1')).toBe('token-1');
	});
});

describe('readFieldValue: numbers', () => {
	test('numbers typed or as text from a sheet', () => {
		expect(read('cpm', 2.5)).toBe(2.5);
		expect(read('cpm', ' 2.50 ')).toBe(2.5);
		expect(read('budget', '+150')).toBe(150);
		expect(read('daily_budget', '.5')).toBe(0.5);
	});

	test('refuses what is not a plain number, and zero or less where it must be positive', () => {
		for (const bad of ['abc', '', '1e3', '1,5', Infinity, NaN, null, true]) {
			expect(refusal(() => read('cpm', bad)).message).toMatch(
				/^CPM: must be a number( \(got .*\))?\. Nothing was sent to the API\.$/,
			);
		}
		expect(refusal(() => read('budget', 0)).message).toBe(
			'Budget: must be a number greater than 0 (got 0). Nothing was sent to the API.',
		);
		expect(refusal(() => read('daily_budget', '-1')).message).toBe(
			'Daily Budget: must be a number greater than 0 (got "-1"). Nothing was sent to the API.',
		);
	});

	test('the schedule timezone is sent in seconds, from hours (the editor, saved nodes) or seconds', () => {
		expect(read('schedule_timezone', 3)).toBe(10_800);
		expect(read('schedule_timezone', -12)).toBe(-43_200);
		expect(read('schedule_timezone', '14')).toBe(50_400);
		expect(read('schedule_timezone', 5.75)).toBe(20_700);
		expect(read('schedule_timezone', -0)).toBe(0);
		expect(Object.is(read('schedule_timezone', -0), -0)).toBe(false);
		expect(read('schedule_timezone', 10_800)).toBe(10_800);
		expect(read('schedule_timezone', '-34200')).toBe(-34_200);
		expect(read('schedule_timezone', 50_400)).toBe(50_400);
		expect(refusal(() => read('schedule_timezone', 15)).message).toBe(
			'Schedule Timezone: must be a UTC offset in whole quarter hours: hours from -12 to 14 (such as 3 or 5.75), or seconds, a multiple of 900 from -43200 to 50400 (such as 10800 for UTC+03:00) (got 15). Nothing was sent to the API.',
		);
		for (const wrong of [-13, 5.3, 10_000, 50_401, 51_300, -44_100, 'UTC+3'])
			expect(() => read('schedule_timezone', wrong)).toThrow(
				'must be a UTC offset in whole quarter hours',
			);
	});

	test('whole numbers with a minimum', () => {
		expect(read('views_per_user', '3')).toBe(3);
		expect(read('campaign_id', 2201)).toBe(2201);
		for (const bad of [0, 1.5, '2.5', 'x']) {
			expect(refusal(() => read('views_per_user', bad)).message).toMatch(
				/^Views per User: must be a whole number of at least 1 \(got/,
			);
		}
		expect(() => read('campaign_id', -4)).toThrow(
			/^Campaign ID: must be a whole number of at least 1/,
		);
	});

	test('an ID picked From List or typed By ID is read by the same rule, quoting the value given', () => {
		expect(read('campaign_id', { __rl: true, mode: 'list', value: '2201' })).toBe(2201);
		expect(read('campaign_id', { __rl: true, mode: 'id', value: ' 2202 ' })).toBe(2202);
		expect(read('campaign_id', { __rl: true, mode: 'id', value: 2203 })).toBe(2203);
		expect(
			refusal(() => read('campaign_id', { __rl: true, mode: 'id', value: '12a' })).message,
		).toBe(
			'Campaign ID: must be a whole number of at least 1 (got "12a"). Nothing was sent to the API.',
		);
		expect(
			refusal(() => read('campaign_id', { __rl: true, mode: 'list', value: '' })).message,
		).toBe(
			'Campaign ID: must be a whole number of at least 1 (got ""). Nothing was sent to the API.',
		);
	});
});

describe('readFieldValue: choices, lists and flags', () => {
	test('true/false from the UI or as text; anything else refused', () => {
		expect(read('only_crypto', true)).toBe(true);
		expect(read('exclude_politic', 'false')).toBe(false);
		expect(read('show_picture', 'true')).toBe(true);
		expect(refusal(() => read('show_picture', 'yes')).message).toBe(
			'Show Picture: must be true or false (got "yes"). Nothing was sent to the API.',
		);
		expect(() => read('show_picture', 1)).toThrow('must be true or false');
	});

	test('a choice must be one of its values, which the refusal lists', () => {
		expect(read('ad_type', 'target_bots')).toBe('target_bots');
		expect(refusal(() => read('ad_type', 'banner')).message).toBe(
			'Ad Type: must be one of "target_channels", "target_users", "target_bots", "target_search" (got "banner"). Nothing was sent to the API.',
		);
		expect(() => read('button_type', 'Learn More')).toThrow(
			'must be one of "learn_more", "open_website"',
		);
	});

	test('text lists split on commas and line breaks, or come as arrays', () => {
		expect(read('langs', 'en, de\nfr,,')).toEqual(['en', 'de', 'fr']);
		expect(read('countries', [' DE ', 'AT'])).toEqual(['DE', 'AT']);
		expect(read('split_by', '')).toEqual([]);
	});

	test('ID lists become whole numbers, one bad entry refused by itself', () => {
		expect(read('topics', '1, 2,3')).toEqual([1, 2, 3]);
		expect(read('channels', 77)).toEqual([77]);
		expect(read('audiences', ['5', 6])).toEqual([5, 6]);
		expect(read('exclude_audiences', '')).toEqual([]);
		expect(refusal(() => read('exclude_topics', '4, x, 6')).message).toBe(
			'Excluded Topic IDs: must be whole-number IDs separated by commas (got "x"). Nothing was sent to the API.',
		);
		expect(() => read('channels', '0')).toThrow('must be whole-number IDs');
		expect(() => read('channels', [1.5])).toThrow('(got 1.5)');
	});
});

describe('readFieldValue: dates, pixel event, target bots', () => {
	test("a date without an offset is read in the workflow's timezone", () => {
		expect(read('start_date', '2026-12-01T09:00:00')).toBe('2026-12-01T09:00:00+01:00');
		expect(read('end_date', '2026-07-01')).toBe('2026-07-01T00:00:00+02:00');
		expect(read('end_date', '2026-07-01T10:00:00Z')).toBe('2026-07-01T10:00:00Z');
		expect(read('start_date', new Date('2026-12-01T08:00:00.000Z'))).toBe(
			'2026-12-01T08:00:00.000Z',
		);
	});

	test('a blank date is null on create and refused on an edit; a bad date is refused', () => {
		expect(read('start_date', '')).toBeNull();
		expect(read('end_date', null)).toBeNull();
		expect(refusal(() => read('start_date', '', update)).message).toBe(
			'Start Date: must be a date such as 2026-12-01T09:00:00 (got ""). Nothing was sent to the API.',
		);
		expect(() => read('end_date', 'next friday')).toThrow(
			'End Date: must be a date such as 2026-12-01T09:00:00 (got "next friday")',
		);
		expect(() => read('end_date', '2026-02-30')).toThrow('must be a date');
	});

	test('one pixel event, from text, a number or the resource locator; empty unlinks with null', () => {
		const pixel = AD_FIELDS.find((f) => f.kind.type === 'pixelEvent') as AdField;
		expect(readFieldValue(pixel, 'ev-1', create)).toBe('ev-1');
		expect(readFieldValue(pixel, 42, create)).toBe('42');
		expect(readFieldValue(pixel, { __rl: true, mode: 'list', value: 'ev-2' }, create)).toBe('ev-2');
		expect(readFieldValue(pixel, '', update)).toBeNull();
		expect(refusal(() => readFieldValue(pixel, 'ev-1, ev-2', create)).message).toBe(
			'Pixel Event Name or ID: only one pixel event per ad (got "ev-1, ev-2"). Nothing was sent to the API.',
		);
	});

	test('target bots from the editor or an expression: whole-number IDs and trimmed URLs', () => {
		expect(
			read('target_bots', {
				bot: [
					{ id: '5', url: ' https://t.me/abot ' },
					{ id: 6, url: 'https://t.me/bbot' },
				],
			}),
		).toEqual([
			{ id: 5, url: 'https://t.me/abot' },
			{ id: 6, url: 'https://t.me/bbot' },
		]);
		expect(read('target_bots', [{ id: 7, url: 'u' }])).toEqual([{ id: 7, url: 'u' }]);
		expect(read('target_bots', {})).toEqual([]);
	});

	test("target bots refusals name the bot's part", () => {
		expect(refusal(() => read('target_bots', [{ id: 'abc', url: 'u' }])).message).toBe(
			'Target Bots → Bot ID: must be the whole-number ID from Validate Bots (got "abc"). Nothing was sent to the API.',
		);
		expect(refusal(() => read('target_bots', [{ id: 3, url: ' ' }])).message).toBe(
			'Target Bots → Bot URL: must not be empty. Nothing was sent to the API.',
		);
		expect(refusal(() => read('target_bots', { bot: 'x' })).message).toBe(
			'Target Bots: must be a list of bots (got {"bot":"x"}). Nothing was sent to the API.',
		);
		expect(() => read('target_bots', [null])).toThrow('Bot ID');
	});

	test('the schedule and the KKTU field are not read here', () => {
		expect(() => read('schedule', {})).toThrow('schedule is read by its own function');
		expect(() => read('kktu_ids', '1')).toThrow('kktu_ids is read by its own function');
	});

	test('refusals carry the item index', () => {
		expect(refusal(() => read('cpm', 'x', { ...create, itemIndex: 6 })).context.itemIndex).toBe(6);
	});
});

describe('readKktu', () => {
	const kktu = field('kktu_ids');

	test('one id or dotted code, as text, a number, a list of one or the resource locator', () => {
		expect(readKktu('30.15.1', kktu, create)).toBe('30.15.1');
		expect(readKktu(812, kktu, create)).toBe('812');
		expect(readKktu(['813'], kktu, create)).toBe('813');
		expect(readKktu({ __rl: true, mode: 'id', value: ' 814 ' }, kktu, update)).toBe('814');
	});

	test('empty is allowed on create (left to the cabinet) and refused on an edit', () => {
		expect(readKktu('', kktu, create)).toBeUndefined();
		expect(refusal(() => readKktu('', kktu, update)).message).toBe(
			'KKTU Category: choose exactly one KKTU category per ad. Nothing was sent to the API.',
		);
	});

	test('more than one is refused, with the value given', () => {
		expect(refusal(() => readKktu('812, 813', kktu, create)).message).toBe(
			'KKTU Category: exactly one KKTU category per ad (got "812, 813"). Nothing was sent to the API.',
		);
	});
});
