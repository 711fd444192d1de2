import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import {
	buildCreateBody,
	buildUpdateBody,
} from '../../../../../../nodes/AdCabinetAds/resources/ad/values/adBody';
import { PLATFORM_NAMES } from '../../../../../../nodes/shared/platform';
import { NODE } from '../../../../../support/fakeContext';

const TELEGRAM = PLATFORM_NAMES.telegram;

/** An IExecuteSingleFunctions-like context holding one item's parameters. */
function item(parameters: IDataObject, itemIndex = 0): IExecuteSingleFunctions {
	return {
		getNode: () => NODE,
		getItemIndex: () => itemIndex,
		getTimezone: () => 'Europe/Berlin',
		getNodeParameter: (name: string, fallback?: unknown) =>
			name in parameters ? parameters[name] : fallback,
	} as unknown as IExecuteSingleFunctions;
}

/** The required core fields of Create, as the editor saves them. */
const core: IDataObject = {
	campaignId: 2201,
	title: 'Summer sale',
	text: 'Everything half price',
	promoteUrl: 'https://t.me/my_channel',
	cpm: 2.5,
	budget: '150',
	adType: 'target_channels',
	kktu: '',
};

const coreBody = {
	campaign_id: 2201,
	title: 'Summer sale',
	text: 'Everything half price',
	promote_url: 'https://t.me/my_channel',
	cpm: 2.5,
	budget: 150,
	ad_type: 'target_channels',
	ad_source: 'web_api',
};

function refusal(run: () => unknown): NodeOperationError {
	try {
		run();
	} catch (error) {
		return error as NodeOperationError;
	}
	throw new Error('expected a refusal');
}

const week = (hours: Partial<Record<string, number[]>>) => ({
	mon: [],
	tue: [],
	wed: [],
	thu: [],
	fri: [],
	sat: [],
	sun: [],
	...hours,
});

describe('buildCreateBody', () => {
	test('the core fields in their API types, plus ad_source; an empty KKTU is left for later', () => {
		expect(buildCreateBody(item(core), TELEGRAM)).toEqual({ body: coreBody });
	});

	test("fields of every collection are sent in their API types; blanks follow each field's rule", () => {
		const { body, kktu } = buildCreateBody(
			item({
				...core,
				kktu: '30.15.1',
				targeting: { langs: 'en, de', topics: '1, 2', device: 'all' },
				exclusions: { excludePolitic: false, excludeChannels: [9] },
				budgetSchedule: {
					dailyBudget: '15',
					viewsPerUser: 2,
					startDate: '2026-12-01T09:00:00',
					endDate: '',
				},
				websiteButton: { adObject: '', buttonType: 'learn_more', showPicture: true },
				marking: { otherInfo: '' },
				tracking: { pixelEvent: '' },
			}),
			TELEGRAM,
		);
		expect(kktu).toBe('30.15.1');
		expect(body).toEqual({
			...coreBody,
			langs: ['en', 'de'],
			topics: [1, 2],
			device: 'all',
			exclude_politic: false,
			exclude_channels: [9],
			daily_budget: 15,
			views_per_user: 2,
			start_date: '2026-12-01T09:00:00+01:00',
			end_date: null,
			button_type: 'learn_more',
			show_picture: true,
			other_info: null,
			tg_event_id: null,
		});
		expect('ad_object' in body).toBe(false);
	});

	test("the pixel event goes under the credential form's name, the schedule timezone in seconds", () => {
		for (const [names, sent, other] of [
			[TELEGRAM, 'tg_event_id', 'ext_event_id'],
			[PLATFORM_NAMES.ext, 'ext_event_id', 'tg_event_id'],
		] as const) {
			const body = buildCreateBody(
				item({
					...core,
					tracking: { pixelEvent: 'ev-7' },
					budgetSchedule: { scheduleTimezone: 3 },
				}),
				names,
			).body;
			expect([body[sent], other in body, body.schedule_timezone]).toEqual(['ev-7', false, 10_800]);
			const update = buildUpdateBody(
				item({ updateFields: { pixelEvent: '', scheduleTimezone: -3.5 } }),
				names,
			).body;
			expect(update).toEqual({ [sent]: null, schedule_timezone: -12_600 });
		}
	});

	test("one Currency choice: the cabinet's own currency sends use_account_currency instead of a code", () => {
		const own = buildCreateBody(
			item({ ...core, budgetSchedule: { currency: 'cabinet' } }),
			TELEGRAM,
		).body;
		expect(own.use_account_currency).toBe(true);
		expect('currency_code' in own).toBe(false);
		const usd = buildCreateBody(
			item({ ...core, budgetSchedule: { currency: 'USD' } }),
			TELEGRAM,
		).body;
		expect(usd).toMatchObject({ currency_code: 'USD', use_account_currency: false });
		// Version 1 nodes keep their two fields, sent as set.
		const first = buildCreateBody(
			item({ ...core, budgetSchedule: { currencyCode: 'TON', useAccountCurrency: true } }),
			TELEGRAM,
		).body;
		expect(first).toMatchObject({ currency_code: 'TON', use_account_currency: true });
		expect(() =>
			buildCreateBody(item({ ...core, budgetSchedule: { currency: 'GBP' } }), TELEGRAM),
		).toThrow(/^Currency: must be one of "cabinet", "EUR"/);
	});

	test('the schedule from the day editor or from JSON, as all seven days', () => {
		const days = buildCreateBody(
			item({
				...core,
				budgetSchedule: {
					schedule: {
						days: [
							{ day: 'mon', hours: '9-11' },
							{ day: 'sun', hours: [23, 0] },
						],
					},
				},
			}),
			TELEGRAM,
		).body;
		expect(days.schedule).toEqual(week({ mon: [9, 10, 11], sun: [0, 23] }));
		const json = buildCreateBody(
			item({ ...core, budgetSchedule: { scheduleJson: '{"fri": [20, 21]}' } }),
			TELEGRAM,
		).body;
		expect(json.schedule).toEqual(week({ fri: [20, 21] }));
	});

	test('the schedule is set one way only, and not null on create', () => {
		const both = {
			...core,
			budgetSchedule: { schedule: { days: [{ day: 'mon', hours: [1] }] }, scheduleJson: '{}' },
		};
		expect(refusal(() => buildCreateBody(item(both), TELEGRAM)).message).toBe(
			'Schedule: set the schedule one way only, not with Schedule (JSON) too. Nothing was sent to the API.',
		);
		expect(
			refusal(() =>
				buildCreateBody(item({ ...core, budgetSchedule: { scheduleJson: 'null' } }), TELEGRAM),
			).message,
		).toBe('Schedule (JSON): may be null only when updating an ad. Nothing was sent to the API.');
		expect(() =>
			buildCreateBody(
				item({ ...core, budgetSchedule: { scheduleJson: '{"mon": [24]}' } }),
				TELEGRAM,
			),
		).toThrow('Schedule (JSON): mon: hours must be whole numbers from 0 to 23, got 24');
	});

	test('a channel invite link needs Ad Object', () => {
		for (const promoteUrl of ['https://t.me/+AbCdEf', 'https://t.me/joinchat/AbCdEf']) {
			expect(refusal(() => buildCreateBody(item({ ...core, promoteUrl }), TELEGRAM)).message).toBe(
				"Ad Object: is required when Promote URL is a channel invite link: add it under Website & Button with the destination channel's URL. Nothing was sent to the API.",
			);
		}
		const withObject = buildCreateBody(
			item({
				...core,
				promoteUrl: 'https://t.me/+AbCdEf',
				websiteButton: { adObject: 'https://t.me/private_one' },
			}),
			TELEGRAM,
		).body;
		expect(withObject).toMatchObject({
			promote_url: 'https://t.me/+AbCdEf',
			ad_object: 'https://t.me/private_one',
		});
		// A public channel whose name starts with "joinchat" is not an invite link.
		expect(() =>
			buildCreateBody(item({ ...core, promoteUrl: 'https://t.me/joinchatters' }), TELEGRAM),
		).not.toThrow();
	});

	test('Start Date must be before End Date', () => {
		const dates = { startDate: '2026-12-02T00:00:00', endDate: '2026-12-01T00:00:00' };
		expect(
			refusal(() => buildCreateBody(item({ ...core, budgetSchedule: dates }, 4), TELEGRAM)).message,
		).toBe(
			'Start Date: must be before End Date (2026-12-01T00:00:00+01:00) (got "2026-12-02T00:00:00+01:00"). Nothing was sent to the API.',
		);
		expect(
			refusal(() => buildCreateBody(item({ ...core, budgetSchedule: dates }, 4), TELEGRAM)).context
				.itemIndex,
		).toBe(4);
		const same = { startDate: '2026-12-01T00:00:00', endDate: '2026-12-01T00:00:00' };
		expect(() => buildCreateBody(item({ ...core, budgetSchedule: same }), TELEGRAM)).toThrow(
			'must be before End Date',
		);
	});

	test('Only Crypto Channels and Exclude Crypto Channels cannot both be on', () => {
		const params = {
			...core,
			targeting: { onlyCrypto: true },
			exclusions: { excludeCrypto: true },
		};
		expect(refusal(() => buildCreateBody(item(params), TELEGRAM)).message).toBe(
			'Only Crypto Channels: cannot be on together with Exclude Crypto Channels. Nothing was sent to the API.',
		);
		expect(() =>
			buildCreateBody(item({ ...params, exclusions: { excludeCrypto: false } }), TELEGRAM),
		).not.toThrow();
	});

	test('Ad Type Bots and Search need their own list with entries', () => {
		expect(
			refusal(() => buildCreateBody(item({ ...core, adType: 'target_bots' }), TELEGRAM)).message,
		).toBe(
			'Target Bots: must list at least one entry when Ad Type is target_bots. Nothing was sent to the API.',
		);
		expect(
			refusal(() =>
				buildCreateBody(
					item({ ...core, adType: 'target_search', targeting: { targetSearch: ' ' } }),
					TELEGRAM,
				),
			).message,
		).toBe(
			'Search Queries: must list at least one entry when Ad Type is target_search. Nothing was sent to the API.',
		);
		const bots = buildCreateBody(
			item({
				...core,
				adType: 'target_bots',
				targeting: { targetBots: { bot: [{ id: 3, url: 'https://t.me/abot' }] } },
			}),
			TELEGRAM,
		).body;
		expect(bots.target_bots).toEqual([{ id: 3, url: 'https://t.me/abot' }]);
	});

	test('a bad core field is refused before anything else, naming it', () => {
		expect(() => buildCreateBody(item({ ...core, cpm: 0 }), TELEGRAM)).toThrow(
			'CPM: must be a number greater than 0 (got 0)',
		);
		expect(() => buildCreateBody(item({ ...core, campaignId: '' }), TELEGRAM)).toThrow(
			/^Campaign ID: must be a whole number of at least 1/,
		);
	});
});

describe('buildUpdateBody', () => {
	test('holds only the fields set, with no ad_source, so nothing is reset by omission', () => {
		expect(
			buildUpdateBody(item({ updateFields: { title: 'New title', cpm: '3.5' } }), TELEGRAM),
		).toEqual({
			body: { title: 'New title', cpm: 3.5 },
		});
	});

	test('an empty update is refused', () => {
		const error = refusal(() => buildUpdateBody(item({ updateFields: {} }, 2), TELEGRAM));
		expect(error.message).toBe(
			'Update Fields: add at least one field to change. Nothing was sent to the API.',
		);
		expect(error.context.itemIndex).toBe(2);
		expect(() => buildUpdateBody(item({}), TELEGRAM)).toThrow('add at least one field to change');
	});

	test('fields an edit does not take are not sent', () => {
		expect(() =>
			buildUpdateBody(item({ updateFields: { budget: 10, campaignId: 5 } }), TELEGRAM),
		).toThrow('add at least one field to change');
		expect(
			buildUpdateBody(item({ updateFields: { budget: 10, title: 't' } }), TELEGRAM).body,
		).toEqual({
			title: 't',
		});
	});

	test('a KKTU change alone is an update', () => {
		expect(buildUpdateBody(item({ updateFields: { kktu: '812' } }), TELEGRAM)).toEqual({
			body: {},
			kktu: '812',
		});
		expect(() => buildUpdateBody(item({ updateFields: { kktu: '' } }), TELEGRAM)).toThrow(
			'KKTU Category: choose exactly one KKTU category per ad',
		);
	});

	test('an edit may clear the media and the schedule with null', () => {
		expect(buildUpdateBody(item({ updateFields: { mediaToken: '' } }), TELEGRAM).body).toEqual({
			media_token: null,
		});
		expect(
			buildUpdateBody(item({ updateFields: { removeSchedule: true } }), TELEGRAM).body,
		).toEqual({
			schedule: null,
		});
		expect(buildUpdateBody(item({ updateFields: { scheduleJson: null } }), TELEGRAM).body).toEqual({
			schedule: null,
		});
		// Remove Schedule switched off sets nothing.
		expect(() =>
			buildUpdateBody(item({ updateFields: { removeSchedule: false } }), TELEGRAM),
		).toThrow('add at least one field to change');
	});

	test('Remove Schedule with a new schedule is refused', () => {
		expect(
			refusal(() =>
				buildUpdateBody(
					item({ updateFields: { scheduleJson: '{}', removeSchedule: true } }),
					TELEGRAM,
				),
			).message,
		).toBe(
			'Schedule (JSON): set the schedule one way only, not with Remove Schedule too. Nothing was sent to the API.',
		);
	});

	test('dates are checked in an edit too, and a blank date is refused there', () => {
		expect(() =>
			buildUpdateBody(
				item({ updateFields: { startDate: '2026-12-05', endDate: '2026-12-01' } }),
				TELEGRAM,
			),
		).toThrow('Start Date: must be before End Date');
		expect(() => buildUpdateBody(item({ updateFields: { endDate: '' } }), TELEGRAM)).toThrow(
			'End Date: must be a date',
		);
	});
});
