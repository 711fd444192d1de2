import type { Sandbox } from '../../sandbox';
import { alertFigures, identity, matchLog } from '../../scripts/month/writeReport';

const HOUR = 3_600_000;
const START = Date.parse('2026-12-01T00:00:00Z');

/** The alert recipe's message for a decision, as its Telegram node words it. */
const message = (adId: number, status: 'declined' | 'on_hold', reasons: string[] = []) => ({
	text: [
		`<b>Ad ${status === 'declined' ? 'declined' : 'on hold'}</b>: Offer (ad ${adId})`,
		'Campaign: Berlin Black Friday',
		...(reasons.length ? ['Reasons:', ...reasons.map((r) => `• ${r}`)] : ['No reason given.']),
	].join('\n'),
});

function sandboxWith(
	decisions: Array<{ adId: number; status: string; atMs: number; reasons?: string[] }>,
) {
	return {
		data: {
			moderation: {
				decisions: decisions.map((d) => ({
					campaignId: 2201,
					title: 'Offer',
					previous: 'in_review',
					kind: 'review',
					...d,
					reasons: (d.reasons ?? []).map((reason) => ({ reason })),
				})),
			},
		},
	} as unknown as Pick<Sandbox, 'data'>;
}

describe("the month report's alerts", () => {
	test('each declined or held decision counts once: delivered, missing, twice, or without its reasons', () => {
		const sandbox = sandboxWith([
			{ adId: 1, status: 'declined', atMs: START + 2 * HOUR, reasons: ['Prohibited text'] },
			{ adId: 2, status: 'on_hold', atMs: START + 3 * HOUR },
			{ adId: 3, status: 'declined', atMs: START + 4 * HOUR, reasons: ['Landing page down'] },
			{ adId: 4, status: 'declined', atMs: START + 5 * HOUR, reasons: ['Capital letters'] },
			{ adId: 5, status: 'active', atMs: START + 5 * HOUR },
			// Made after the month's last poll: nobody could have been told yet.
			{ adId: 6, status: 'on_hold', atMs: START + 30 * HOUR },
		]);
		const figures = alertFigures(
			sandbox,
			[
				message(1, 'declined', ['Prohibited text']),
				message(2, 'on_hold'),
				message(2, 'on_hold'),
				message(4, 'declined'),
			],
			START,
			24,
		);
		expect(figures).toMatchObject({
			decisions: 4,
			declined: 3,
			onHold: 1,
			afterLastPoll: 1,
			messages: 4,
			delivered: 3,
			missing: 1,
			duplicates: 1,
			withoutReasons: 1,
			unexpected: 0,
		});
		expect(figures.examples).toEqual(['ad 3 declined at 2026-12-01T04:00:00.000Z']);
	});
});

describe("the month report's creatives compare as people read them", () => {
	test.each([
		['a trailing space in the title', ['Offer ', 'https://t.me/a', 'One\nTwo']],
		['Windows line ends', ['Offer', 'https://t.me/a', 'One\r\nTwo\r\n']],
		['the URL in capitals with a slash', ['Offer', 'HTTPS://T.ME/a/', 'One\nTwo']],
	])('the same creative: %s', (_why, [title, url, text]) => {
		expect(identity(2201, title, url, text)).toBe(
			identity(2201, 'Offer', 'https://t.me/a', 'One\nTwo'),
		);
	});

	test.each([
		['another word', [2201, 'Offers', 'https://t.me/a']],
		['another path', [2201, 'Offer', 'https://t.me/A']],
		['another campaign', [2202, 'Offer', 'https://t.me/a']],
	])('another creative: %s', (_why, [campaign, title, url]) => {
		expect(identity(campaign, title, url, 'One\nTwo')).not.toBe(
			identity(2201, 'Offer', 'https://t.me/a', 'One\nTwo'),
		);
	});
});

describe("the month report's change log against the answered PUTs", () => {
	const put = (key: string, crashed = false) => ({ key, crashed });

	test('every answered PUT logged once: nothing missing, twice or without a PUT', () => {
		expect(
			matchLog([put('1:2.50'), put('1:2.60'), put('1:2.50')], ['1:2.50', '1:2.60', '1:2.50']),
		).toEqual({
			putsNotInLog: 0,
			putsLoggedTwice: 0,
			logWithoutPut: 0,
			putsOfCrashedRuns: 0,
		});
	});

	test('an unlogged PUT is a miss unless a killed process ended its run; a PUT logged twice or a row with no PUT is always one', () => {
		expect(
			matchLog(
				[put('1:2.50'), put('2:1.10', true), put('3:0.90', true), put('4:1.00')],
				['3:0.90', '4:1.00', '4:1.00', '5:3.00'],
			),
		).toEqual({ putsNotInLog: 1, putsLoggedTwice: 1, logWithoutPut: 1, putsOfCrashedRuns: 2 });
	});
});
