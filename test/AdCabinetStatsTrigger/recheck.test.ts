import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { pollOnce } from '../../harness';
import { credentialsFor } from '../../harness/sandbox';
import { useSandbox } from '../support/useSandbox';
import { sharedClock } from '../support/triggerClock';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const START = Date.parse('2026-11-17T09:00:00Z');
const FIGURES = ['exchanged_spent', 'views', 'clicks', 'actions'];

describe('Ad Cabinet Stats Trigger 1.1: Re-Check Last N Periods', () => {
	const sandbox = useSandbox({ now: '2026-11-17T09:00:00Z' });
	const clock = sharedClock(sandbox);
	afterEach(() => clock.stop());

	const params = (extra: INodeParameters = {}): INodeParameters => ({
		periodGroupingUnit: 'day',
		grouping: ['campaign'],
		emit: 'completed',
		startFrom: 'now',
		currency: 'EUR',
		numericValues: true,
		filters: {},
		options: { recheckPeriods: 2 },
		...extra,
	});

	/** The sandbox's rows for the whole UTC days [fromDay, toDay), as the trigger shapes them. */
	function truth(fromMs: number, toMs: number): IDataObject[] {
		return sandbox()
			.data.statsRows({
				period_from: new Date(fromMs).toISOString(),
				period_to: new Date(toMs - 1000).toISOString(),
				period_grouping_unit: 'day',
				grouping: ['campaign'],
				currency_code: 'EUR',
				order_by: 'period',
			})
			.map((row) => ({ ...row, exchanged_spent: Number(row.exchanged_spent) })) as IDataObject[];
	}

	/**
	 * Polls hourly, serialising the static data between polls as n8n stores it (a restart may
	 * happen between any two); runs `before` ahead of the poll at each instant.
	 */
	async function pollHourly(
		parameters: INodeParameters,
		fromMs: number,
		toMs: number,
		before: (at: number) => void = () => {},
	) {
		let staticData: IDataObject = {};
		const polls: Array<{ at: number; rows: IDataObject[] }> = [];
		const sizes: number[] = [];
		for (let at = fromMs; at <= toMs; at += HOUR) {
			clock.set(at);
			before(at);
			const result = await pollOnce({
				type: 'adCabinetStatsTrigger',
				typeVersion: 1.1,
				parameters,
				credentials: credentialsFor(sandbox()),
				staticData,
			});
			if (result.error) throw result.error;
			polls.push({ at, rows: (result.items ?? []).map((item) => item.json) });
			staticData = JSON.parse(JSON.stringify(result.staticData)) as IDataObject;
			sizes.push(JSON.stringify(staticData).length);
		}
		return { polls, emitted: polls.flatMap((poll) => poll.rows), sizes };
	}

	test('a restated row of the last 2 days comes once, marked, with the figures it had; older days and open days do not', async () => {
		clock.start(START);
		const campaigns = sandbox()
			.data.campaigns.slice(0, 3)
			.map((campaign) => campaign.id);
		const restatements: Record<number, Array<{ day: string; campaign_id: number }>> = {
			// 18 Nov 12:00: 17 Nov (emitted at 01:00, one day back) for two campaigns.
			[Date.parse('2026-11-18T12:00:00Z')]: [
				{ day: '2026-11-17', campaign_id: campaigns[0] },
				{ day: '2026-11-17', campaign_id: campaigns[1] },
			],
			// 19 Nov 12:00: 18 Nov (one back) and 16 Nov, settled before activation, never emitted.
			[Date.parse('2026-11-19T12:00:00Z')]: [
				{ day: '2026-11-18', campaign_id: campaigns[2] },
				{ day: '2026-11-16', campaign_id: campaigns[0] },
			],
			// 19 Nov 18:00: 19 Nov itself, still open: its row is emitted once it settles, as usual.
			[Date.parse('2026-11-19T18:00:00Z')]: [{ day: '2026-11-19', campaign_id: campaigns[1] }],
			// 20 Nov 12:00: 17 Nov again, now three days back: outside the re-check.
			[Date.parse('2026-11-20T12:00:00Z')]: [{ day: '2026-11-17', campaign_id: campaigns[0] }],
		};
		const emittedBefore = new Map<string, IDataObject>();
		const { polls, emitted, sizes } = await pollHourly(params(), START, START + 4 * DAY, (at) => {
			for (const target of restatements[at] ?? []) sandbox().data.forceRestatement(target);
		});
		for (const poll of polls)
			for (const row of poll.rows) if (!row.restated) emittedBefore.set(String(row.row_key), row);

		const restated = emitted.filter((row) => row.restated === true);
		const keyOf = (day: string, campaign: number) => `${day}|d|EUR|c${campaign}`;
		expect(restated.map((row) => row.row_key)).toEqual([
			keyOf('2026-11-17', campaigns[0]),
			keyOf('2026-11-17', campaigns[1]),
			keyOf('2026-11-18', campaigns[2]),
		]);
		// Each comes in the first poll after its restatement, with the figures first emitted under previous.
		const when = polls
			.filter((poll) => poll.rows.some((row) => row.restated))
			.map((poll) => new Date(poll.at).toISOString());
		expect(when).toEqual(['2026-11-18T12:00:00.000Z', '2026-11-19T12:00:00.000Z']);
		for (const row of restated) {
			const first = emittedBefore.get(String(row.row_key)) as IDataObject;
			const previous = row.previous as IDataObject;
			for (const field of FIGURES) expect([field, previous[field]]).toEqual([field, first[field]]);
			expect(typeof previous.exchanged_spent).toBe('number');
			expect(row.exchanged_spent).not.toBe(first.exchanged_spent);
		}
		// Every other row is marked as not restated and carries no previous figures.
		for (const row of emitted.filter((r) => r.restated !== true)) {
			expect(row.restated).toBe(false);
			expect(row).not.toHaveProperty('previous');
		}

		// Folded by row_key (what an upsert does), the rows equal the API's now, except 17 Nov's
		// restatement after it left the re-check window.
		const folded = new Map(emitted.map((row) => [row.row_key, row]));
		const now = truth(Date.parse('2026-11-17T00:00:00Z'), Date.parse('2026-11-21T00:00:00Z'));
		expect(folded.size).toBe(now.length);
		const differing = now
			.filter((row) => {
				const held = folded.get(
					`${String(row.period_date).slice(0, 10)}|d|EUR|c${String(row.campaign_id)}`,
				);
				return FIGURES.some((field) => held?.[field] !== row[field]);
			})
			.map((row) => `${String(row.period_date).slice(0, 10)}|${String(row.campaign_id)}`);
		expect(differing).toEqual([`2026-11-17|${campaigns[0]}`]);

		// The state holds two days of figures at most: it stops growing once two days are held.
		expect(Math.max(...sizes.slice(48))).toBeLessThanOrEqual(Math.max(...sizes.slice(24, 48)) + 64);
		expect(Math.max(...sizes)).toBeLessThan(8192);
	});

	// Forced restatements stay in the sandbox: each test below works on days of its own.
	test('Numeric Values off: previous holds the exact strings the API sent', async () => {
		const start = Date.parse('2026-11-24T09:00:00Z');
		clock.start(start);
		const campaign = sandbox().data.campaigns[0].id;
		const { emitted } = await pollHourly(
			params({ numericValues: false }),
			start,
			start + DAY + 4 * HOUR,
			(at) => {
				if (at === start + DAY + 3 * HOUR)
					sandbox().data.forceRestatement({ day: '2026-11-24', campaign_id: campaign });
			},
		);
		const restated = emitted.filter((row) => row.restated === true);
		expect(restated).toHaveLength(1);
		const first = emitted.find(
			(row) => row.row_key === restated[0].row_key && row.restated === false,
		) as IDataObject;
		const previous = restated[0].previous as IDataObject;
		expect(typeof previous.exchanged_spent).toBe('string');
		expect(previous.exchanged_spent).toBe(first.exchanged_spent);
		expect(previous.ctr).toBe(first.ctr);
		expect(previous.views).toBe(first.views);
	});

	test('without the option nothing is re-read or marked; version 1 rows carry no row_key', async () => {
		const start = Date.parse('2026-11-28T09:00:00Z');
		clock.start(start);
		const campaign = sandbox().data.campaigns[0].id;
		const { emitted } = await pollHourly(params({ options: {} }), start, start + 2 * DAY, (at) => {
			if (at === start + DAY + 3 * HOUR)
				sandbox().data.forceRestatement({ day: '2026-11-28', campaign_id: campaign });
		});
		expect(emitted.length).toBeGreaterThan(0);
		expect(emitted.some((row) => 'restated' in row || 'previous' in row)).toBe(false);
		expect(emitted.every((row) => typeof row.row_key === 'string')).toBe(true);
		const v1 = await pollOnce({
			type: 'adCabinetStatsTrigger',
			parameters: params(),
			credentials: credentialsFor(sandbox()),
			staticData: {},
			mode: 'manual',
		});
		expect(v1.items?.length).toBeGreaterThan(0);
		expect(v1.items?.some((item) => 'row_key' in item.json)).toBe(false);
	});
});
