import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { runNode } from '../../harness';
import { apiRequests, credentialsFor } from '../../harness/sandbox';
import { useSandbox } from '../support/useSandbox';
import { cabinetIdIn, PLATFORMS } from '../../sandbox';
import {
	AD_PATH,
	EVENT_FIELD,
	locator,
	minimalCreate,
	specCreateFields,
} from '../support/adFixtures';

const NOW = '2026-11-20T12:00:00.000Z';

describe.each(PLATFORMS)('Ad Cabinet Ads → Create and Update (%s form)', (platform) => {
	const sandbox = useSandbox({ platform, now: NOW });
	const UZ = cabinetIdIn(platform, '100001');
	const DE = cabinetIdIn(platform, '100002');
	const EVENT = EVENT_FIELD[platform];
	const run = (parameters: INodeParameters, extra: Partial<Parameters<typeof runNode>[0]> = {}) =>
		runNode({ type: 'adCabinetAds', parameters, credentials: credentialsFor(sandbox()), ...extra });
	const leafKktu = () => sandbox().data.kktuIdsAtLevel(3)[4];
	const eventOf = (accountId: string) => String(sandbox().data.pixelEventsOf(accountId)[1][EVENT]);

	/** Tashkent Digital (automatic labelling, audiences): every create field set in the node. */
	function everyField(): INodeParameters {
		return minimalCreate({
			campaignId: 2101,
			title: 'Spring launch',
			text: 'Fresh deals from local shops, every day.',
			promoteUrl: 'https://t.me/+Qx7PrivUzClub',
			cpm: 2.75,
			budget: 300,
			adType: 'target_bots',
			kktu: locator(leafKktu(), 'list'),
			accountId: UZ,
			targeting: {
				langs: 'uz, ru',
				countries: 'UZ',
				locations: 'Tashkent, Samarkand',
				locationsVerbose: 'tashkent\nsamarkand',
				topics: '11, 12',
				topicsVerbose: 'Technology, Food',
				channels: '21',
				channelsVerbose: '@tech_reviews',
				audiences: [55001, 55003],
				targetUserChannels: '@city_events',
				targetUserChannelsVerbose: 'city_events',
				targetSearch: 'pizza delivery, cheap flights',
				targetBots: { bot: [{ id: 880001, url: 'https://t.me/shop_helper_bot' }] },
				splitBy: 'langs',
				device: 'all',
				allTopicsInterestedUsers: true,
				onlyCrypto: false,
			},
			exclusions: {
				excludeTopics: '13',
				excludeTopicsVerbose: 'Finance',
				excludeChannels: '22, 23',
				excludeChannelsVerbose: '@market_watch, @foodies_club',
				excludeAudiences: [55002],
				excludeTargetUserChannels: '@daily_news_feed',
				excludeTargetUserChannelsVerbose: 'daily_news_feed',
				excludePolitic: true,
				excludeCrypto: true,
			},
			budgetSchedule: {
				dailyBudget: 30.5,
				viewsPerUser: 3,
				startDate: '2026-12-01T09:00:00',
				endDate: '2026-12-31T18:00:00',
				schedule: {
					days: [
						{ day: 'mon', hours: [9, 10, 11] },
						{ day: 'sat', hours: [13, 12] },
					],
				},
				useSelectedTimezone: true,
				scheduleTimezone: 5,
				currencyCode: 'USD',
				useAccountCurrency: false,
				afterModerationStatus: 'on hold',
			},
			websiteButton: {
				adObject: 'https://t.me/uz_private_club',
				promoteUrlType: 'channel',
				websiteName: 'UZ Private Club',
				buttonType: 'learn_more',
				showPicture: true,
				promoteUrlPictureId: 'pic_custom',
				mediaToken: 'seedmedia10001',
			},
			marking: { otherInfo: 'erid:2VtzqwXyZ' },
			tracking: { pixelEvent: eventOf(UZ) },
		});
	}

	test('Create with every field set sends exactly the create fields in their types; Get reads the same values back', async () => {
		const { items, error } = await run(everyField());
		expect(error).toBeUndefined();
		const posts = apiRequests(sandbox()).filter((r) => r.api === 'base');
		expect(posts.map((r) => [r.method, r.path])).toEqual([['POST', AD_PATH[platform]]]);
		const body = posts[0].body as IDataObject;
		expect(Object.keys(body).sort()).toEqual(specCreateFields(platform).sort());
		expect(body).toEqual({
			campaign_id: 2101,
			title: 'Spring launch',
			text: 'Fresh deals from local shops, every day.',
			promote_url: 'https://t.me/+Qx7PrivUzClub',
			ad_object: 'https://t.me/uz_private_club',
			cpm: 2.75,
			budget: 300,
			ad_type: 'target_bots',
			kktu_ids: [leafKktu()],
			langs: ['uz', 'ru'],
			countries: ['UZ'],
			locations: ['Tashkent', 'Samarkand'],
			locations_verbose: ['tashkent', 'samarkand'],
			topics: [11, 12],
			topics_verbose: ['Technology', 'Food'],
			channels: [21],
			channels_verbose: ['@tech_reviews'],
			audiences: [55001, 55003],
			target_user_channels: ['@city_events'],
			target_user_channels_verbose: ['city_events'],
			target_search: ['pizza delivery', 'cheap flights'],
			target_bots: [{ id: 880001, url: 'https://t.me/shop_helper_bot' }],
			split_by: ['langs'],
			device: 'all',
			all_topics_interested_users: true,
			only_crypto: false,
			exclude_topics: [13],
			exclude_topics_verbose: ['Finance'],
			exclude_channels: [22, 23],
			exclude_channels_verbose: ['@market_watch', '@foodies_club'],
			exclude_audiences: [55002],
			exclude_target_user_channels: ['@daily_news_feed'],
			exclude_target_user_channels_verbose: ['daily_news_feed'],
			exclude_politic: true,
			exclude_crypto: true,
			daily_budget: 30.5,
			views_per_user: 3,
			start_date: '2026-12-01T09:00:00+00:00',
			end_date: '2026-12-31T18:00:00+00:00',
			schedule: { mon: [9, 10, 11], tue: [], wed: [], thu: [], fri: [], sat: [12, 13], sun: [] },
			use_selected_timezone: true,
			// UTC+05:00, in seconds.
			schedule_timezone: 18_000,
			currency_code: 'USD',
			use_account_currency: false,
			after_moderation_status: 'on hold',
			promote_url_type: 'channel',
			website_name: 'UZ Private Club',
			button_type: 'learn_more',
			show_picture: true,
			promote_url_picture_id: 'pic_custom',
			media_token: 'seedmedia10001',
			other_info: 'erid:2VtzqwXyZ',
			[EVENT]: eventOf(UZ),
			ad_source: 'web_api',
		});

		const created = items[0].json;
		expect(created.ad_id).toEqual(expect.any(Number));
		const read = await run({
			resource: 'ad',
			operation: 'get',
			adId: locator(String(created.ad_id)),
		});
		expect(read.error).toBeUndefined();
		const ad = read.items[0].json;
		expect(ad).toEqual(created);
		const same = [
			'campaign_id',
			'title',
			'text',
			'promote_url',
			'cpm',
			'budget',
			'ad_type',
			'kktu_ids',
			'langs',
			'countries',
			'audiences',
			'exclude_audiences',
			'target_user_channels',
			'exclude_target_user_channels',
			'target_search',
			'device',
			'all_topics_interested_users',
			'only_crypto',
			'exclude_politic',
			'exclude_crypto',
			'daily_budget',
			'views_per_user',
			'start_date',
			'end_date',
			'schedule',
			'use_selected_timezone',
			'schedule_timezone',
			'after_moderation_status',
			'website_name',
			'button_type',
			'show_picture',
			'promote_url_picture_id',
			'other_info',
		];
		for (const field of same) expect([field, ad[field]]).toEqual([field, body[field]]);
		expect(ad.topics).toEqual(body.topics_verbose);
		expect(ad.channels).toEqual(body.channels_verbose);
		expect(ad.exclude_topics).toEqual(body.exclude_topics_verbose);
		expect(ad.exclude_channels).toEqual(body.exclude_channels_verbose);
		expect(ad.user_locations).toEqual(body.locations_verbose);
		expect((ad.media as IDataObject).token).toBe('seedmedia10001');
		expect((ad.event as IDataObject)[EVENT]).toBe(eventOf(UZ));
		expect((ad.target_bots as IDataObject[]).map((bot) => bot.url)).toEqual([
			'https://t.me/shop_helper_bot',
		]);
		expect(ad.account_id).toBe(UZ);
	});

	test('numbers and lists from a sheet (text) are sent as numbers; a KKTU code of level 3 is sent as its id', async () => {
		const leaf = sandbox().data.kktuNode(leafKktu());
		const { error } = await run(
			minimalCreate({
				cpm: '={{ "3.5" }}',
				budget: '={{ "200" }}',
				kktu: locator(leaf?.code as string),
				targeting: { topics: '={{ ["4", 5] }}' },
			}),
		);
		expect(error).toBeUndefined();
		const post = apiRequests(sandbox()).find((r) => r.method === 'POST');
		expect(post?.body).toMatchObject({
			cpm: 3.5,
			budget: 200,
			topics: [4, 5],
			kktu_ids: [leafKktu()],
		});
	});

	test('Update of two fields sends only those two; every other field of the ad is unchanged', async () => {
		const ad = sandbox().data.ads.find((a) => a.status === 'active' && a.accountId === DE) as {
			id: number;
		};
		const before = sandbox().data.adDetail(ad.id) as IDataObject;
		const { items, error } = await run({
			resource: 'ad',
			operation: 'update',
			adId: locator(String(ad.id)),
			updateFields: { title: 'Renamed from n8n', cpm: 4.2 },
		});
		expect(error).toBeUndefined();
		const [put] = apiRequests(sandbox());
		expect([put.method, put.path]).toEqual(['PUT', `${AD_PATH[platform]}${ad.id}`]);
		expect(put.body).toEqual({ title: 'Renamed from n8n', cpm: 4.2 });
		const after = sandbox().data.adDetail(ad.id) as IDataObject;
		expect(after).toEqual({ ...before, title: 'Renamed from n8n', cpm: 4.2 });
		expect(items[0].json).toEqual(after);
	});

	test('Update can clear the schedule (null), set the pixel event, KKTU and dates', async () => {
		const ad = sandbox().data.ads.find((a) => a.status === 'active' && a.accountId === UZ) as {
			id: number;
		};
		const { error } = await run({
			resource: 'ad',
			operation: 'update',
			adId: locator(String(ad.id)),
			updateFields: {
				removeSchedule: true,
				pixelEvent: eventOf(UZ),
				kktu: locator(leafKktu(), 'list'),
				startDate: '2026-12-01T00:00:00Z',
				endDate: '2027-01-01T00:00:00Z',
			},
		});
		expect(error).toBeUndefined();
		const put = apiRequests(sandbox()).find((r) => r.method === 'PUT');
		expect(put?.body).toEqual({
			schedule: null,
			[EVENT]: eventOf(UZ),
			kktu_ids: [leafKktu()],
			start_date: '2026-12-01T00:00:00Z',
			end_date: '2027-01-01T00:00:00Z',
		});
		const after = sandbox().data.adDetail(ad.id) as IDataObject;
		expect(after.schedule).toBeNull();
		expect((after.event as IDataObject)[EVENT]).toBe(eventOf(UZ));
	});

	test('blank optional cells from a sheet: Ad Object and Media Token are not sent on create; a blank Media Token removes the media on update', async () => {
		const created = await run(
			minimalCreate({ websiteButton: { adObject: '={{ "" }}', mediaToken: '={{ " " }}' } }),
		);
		expect(created.error).toBeUndefined();
		const post = apiRequests(sandbox()).find((r) => r.method === 'POST');
		expect(post?.body).not.toHaveProperty('ad_object');
		expect(post?.body).not.toHaveProperty('media_token');
		sandbox().clearLog();
		const ad = sandbox().data.ads.find((a) => a.status === 'active' && a.fields.media !== null) as {
			id: number;
		};
		const { error } = await run({
			resource: 'ad',
			operation: 'update',
			adId: locator(String(ad.id)),
			updateFields: { mediaToken: '' },
		});
		expect(error).toBeUndefined();
		expect(apiRequests(sandbox())[0].body).toEqual({ media_token: null });
		expect(sandbox().data.adDetail(ad.id)?.media).toBeNull();
	});

	test('when create and edit answer with no body (the spec shows none), the item is what was sent plus success', async () => {
		sandbox().data.adWriteAnswer = 'empty';
		try {
			const leaf = sandbox().data.kktuNode(leafKktu());
			const created = await run(minimalCreate({ kktu: locator(leaf?.code as string) }));
			expect(created.error).toBeUndefined();
			const post = apiRequests(sandbox()).find((r) => r.method === 'POST');
			expect(created.items.map((item) => item.json)).toEqual([
				{ ...(post?.body as IDataObject), success: true },
			]);
			expect(created.items[0].json.kktu_ids).toEqual([leafKktu()]);
			expect(apiRequests(sandbox()).filter((r) => r.path === '/api/kktu')).toHaveLength(1);

			const id = sandbox().data.ads[0].id;
			const updated = await run({
				resource: 'ad',
				operation: 'update',
				adId: locator(String(id)),
				updateFields: { cpm: 1.25 },
			});
			expect(updated.items.map((item) => item.json)).toEqual([
				{ ad_id: String(id), cpm: 1.25, success: true },
			]);
		} finally {
			sandbox().data.adWriteAnswer = 'detail';
		}
	});

	test('without KKTU, a cabinet with automatic labelling is refused by the API and the error says what to do', async () => {
		const { error } = await run(
			minimalCreate({ campaignId: 2101, promoteUrl: 'https://t.me/uzbek_tech_news' }),
		);
		expect(error?.httpCode).toBe('400');
		expect(error?.message).toContain('kktu_ids');
		// The API names the field in its detail and in its field map: quoted once.
		expect(error?.message.split('kktu_ids: is required').length).toBe(2);
		expect(error?.message).toContain('The cabinet needs a KKTU category');
		expect(error?.message).toContain('"KKTU Category"');
		expect(error?.message).toContain(
			'The API refused it, so nothing was changed and sending it again after the fix is safe.',
		);
		expect(error?.message).not.toContain('may have taken effect');
		expect(apiRequests(sandbox()).filter((r) => r.method === 'POST')).toHaveLength(1);
	});

	test('a sheet of three ads reads the KKTU tree once and creates three ads, each paired to its row', async () => {
		const rows = ['One', 'Two', 'Three'].map((title) => ({ title }));
		const { items, error } = await run(
			minimalCreate({ title: '={{ $json.title }}', kktu: locator(leafKktu()) }),
			{ input: rows },
		);
		expect(error).toBeUndefined();
		expect(items.map((item) => [item.json.title, item.pairedItem])).toEqual([
			['One', { item: 0 }],
			['Two', { item: 1 }],
			['Three', { item: 2 }],
		]);
		const log = apiRequests(sandbox());
		expect(log.filter((r) => r.path === '/api/kktu')).toHaveLength(1);
		expect(log.filter((r) => r.method === 'POST')).toHaveLength(3);
	});
});
