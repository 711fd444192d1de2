import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { capturedLogs, pollOnce } from '../../harness';
import { apiRequests, credentialsFor } from '../../harness/sandbox';
import { useSandbox } from '../support/useSandbox';
import { sharedClock } from '../support/triggerClock';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const START = Date.parse('2026-11-17T09:00:00Z');

/** The trigger's stored state that n8n keeps in the workflow's static data, edited as a user or a bad clock would. */
describe('Ad Cabinet Stats Trigger: a stored state that cannot be trusted', () => {
	const sandbox = useSandbox({ now: '2026-11-17T09:00:00Z' });
	const clock = sharedClock(sandbox);
	afterEach(() => clock.stop());

	const parameters: INodeParameters = {
		periodGroupingUnit: 'day',
		grouping: ['campaign'],
		emit: 'completed',
		startFrom: 'now',
		currency: 'EUR',
		numericValues: false,
		filters: {},
		options: {},
	};

	async function poll(at: number, staticData: IDataObject) {
		clock.set(at);
		sandbox().clearLog();
		const logsBefore = capturedLogs.length;
		const result = await pollOnce({
			type: 'adCabinetStatsTrigger',
			parameters,
			credentials: credentialsFor(sandbox()),
			staticData,
		});
		if (result.error) throw result.error;
		const periodsFrom = apiRequests(sandbox()).map((request) =>
			String((request.body as IDataObject | undefined)?.period_from ?? ''),
		);
		return {
			rows: (result.items ?? []).map((item) => item.json),
			staticData: JSON.parse(JSON.stringify(result.staticData)) as IDataObject,
			warnings: capturedLogs
				.slice(logsBefore)
				.filter((line) => line.startsWith('warn: Ad Cabinet Stats Trigger')),
			periodsFrom,
		};
	}

	const state = (staticData: IDataObject) => Object.values(staticData)[0] as IDataObject;
	const day = (iso: string) => (row: IDataObject) => row.period_date === iso;

	test('a hand-edited 1970 watermark: the next poll asks only from now, emits nothing old and logs a warning', async () => {
		clock.start(START);
		const first = await poll(START, {});
		const edited = first.staticData;
		const node = Object.keys(edited)[0];
		(edited[node] as IDataObject).adCabinetStats = {
			...(state(edited).adCabinetStats as IDataObject),
			wm: 0,
		};

		const next = await poll(START + HOUR, edited);
		expect(next.rows).toEqual([]);
		expect(next.warnings).toHaveLength(1);
		expect(next.warnings[0]).toContain(
			'its position 1970-01-01T00:00:00.000Z is before 2020-01-01T00:00:00.000Z',
		);
		expect(next.warnings[0]).toContain('It was reset to now: rows from before now are not emitted');
		expect(next.periodsFrom.length).toBeGreaterThan(0);
		for (const from of next.periodsFrom)
			expect(Date.parse(from)).toBeGreaterThanOrEqual(START - 2 * DAY);

		// It goes on from there: the next completed day comes once, with no further warning.
		const tomorrow = await poll(START + DAY, next.staticData);
		expect(tomorrow.warnings).toEqual([]);
		expect(tomorrow.rows.length).toBeGreaterThan(0);
		expect(tomorrow.rows.every(day('2026-11-17T00:00:00Z'))).toBe(true);
	});

	test('a clock a year ahead for one poll: later polls warn once, reset to now and emit new days again', async () => {
		clock.start(START);
		const first = await poll(START, {});
		// One poll with the clock a year ahead moves the stored position a year on.
		const ahead = await poll(START + 365 * DAY, first.staticData);
		expect(Number((state(ahead.staticData).adCabinetStats as IDataObject).wm)).toBeGreaterThan(
			START + 300 * DAY,
		);

		const back = await poll(START + HOUR, ahead.staticData);
		expect(back.rows).toEqual([]);
		expect(back.warnings).toHaveLength(1);
		expect(back.warnings[0]).toContain(
			'is ahead of the clock (now 2026-11-17T10:00:00.000Z) by more than one period',
		);

		const tomorrow = await poll(START + DAY, back.staticData);
		expect(tomorrow.warnings).toEqual([]);
		expect(tomorrow.rows.length).toBeGreaterThan(0);
		expect(tomorrow.rows.every(day('2026-11-17T00:00:00Z'))).toBe(true);
	});
});
