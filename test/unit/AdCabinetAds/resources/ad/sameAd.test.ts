import { identityOf } from '../../../../../nodes/AdCabinetAds/resources/ad/sameAd';

const base = {
	campaign_id: 2201,
	title: 'Autumn launch',
	promote_url: 'https://t.me/berlin_startups',
	text: 'Meet the new collection\nNow in store',
};

describe('Skip Identical compares ads as people read them', () => {
	test.each([
		['a trailing space in the title', { title: 'Autumn launch ' }],
		['spaces and a line end around the title', { title: '  Autumn launch\r\n' }],
		['Windows line ends in the text', { text: 'Meet the new collection\r\nNow in store' }],
		['old Mac line ends in the text', { text: 'Meet the new collection\rNow in store' }],
		['a trailing line end after the text', { text: 'Meet the new collection\nNow in store\n' }],
		['the URL in capitals', { promote_url: 'HTTPS://T.ME/berlin_startups' }],
		['a trailing slash on the URL', { promote_url: 'https://t.me/berlin_startups/' }],
		['capitals and a trailing slash', { promote_url: 'HTTPS://T.Me/berlin_startups/' }],
		['spaces around the URL', { promote_url: ' https://t.me/berlin_startups ' }],
		['the campaign ID as a string', { campaign_id: '2201' }],
	])('identical: %s', (_why, change) => {
		expect(identityOf({ ...base, ...change })).toBe(identityOf(base));
	});

	test.each([
		['a different word in the title', { title: 'Autumn lunch' }],
		['a different word in the text', { text: 'Meet the old collection\nNow in store' }],
		['a line end removed inside the text', { text: 'Meet the new collection Now in store' }],
		['a space inside the title', { title: 'Autumn  launch' }],
		['a different path', { promote_url: 'https://t.me/munich_startups' }],
		['the path in another case', { promote_url: 'https://t.me/Berlin_Startups' }],
		['a deeper path', { promote_url: 'https://t.me/berlin_startups/12' }],
		['a query added', { promote_url: 'https://t.me/berlin_startups?start=1' }],
		['another host', { promote_url: 'https://telegram.me/berlin_startups' }],
		['another scheme', { promote_url: 'http://t.me/berlin_startups' }],
		['a different campaign', { campaign_id: 2202 }],
		['no text against a text', { text: undefined }],
	])('not identical: %s', (_why, change) => {
		expect(identityOf({ ...base, ...change })).not.toBe(identityOf(base));
	});
});
