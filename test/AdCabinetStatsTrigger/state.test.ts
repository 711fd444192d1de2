import type { IDataObject } from 'n8n-workflow';
import {
	applyPoll,
	newState,
	type PollSettings,
	type TriggerState,
} from '../../nodes/AdCabinetStatsTrigger/pollState';

const MIN = 60_000;

/** Synthetic hourly rows for 40 campaigns whose figures grow with time, as the API's do. */
function rowsFor(fromMs: number, nowMs: number): IDataObject[] {
	const rows: IDataObject[] = [];
	for (let start = Math.floor(fromMs / (60 * MIN)) * 60 * MIN; start < nowMs; start += 60 * MIN) {
		const elapsed = Math.min(60 * MIN, nowMs - start);
		for (let c = 1; c <= 40; c++) {
			rows.push({
				period_date: new Date(start).toISOString(),
				campaign_id: c,
				views: Math.floor((elapsed / MIN) * c),
				clicks: c,
			});
		}
	}
	return rows;
}

describe('trigger state stays bounded', () => {
	test.each(['completed', 'everyChange'] as const)(
		'%s: 10,000 polls keep the state under 8 KB and emit each settled row once',
		(emit) => {
			const settings: PollSettings = {
				unit: 'hour',
				grouping: ['campaign'],
				emit,
				settleMs: 15 * MIN,
			};
			let now = Date.parse('2026-11-01T00:00:00Z');
			let state: TriggerState = newState('q', now - 2 * 60 * MIN, false);
			const emissions = new Map<string, number[]>();
			const sizes: number[] = [];
			for (let poll = 1; poll <= 10_000; poll++) {
				now += 5 * MIN;
				const { emit: out, next } = applyPoll(state, rowsFor(state.wm, now), now, settings);
				for (const row of out) {
					const key = `${String(row.period_date)}/${String(row.campaign_id)}`;
					const list = emissions.get(key);
					if (list) list.push(row.views as number);
					else emissions.set(key, [row.views as number]);
				}
				state = JSON.parse(JSON.stringify(next)) as TriggerState;
				if (poll % 1000 === 0) sizes.push(JSON.stringify(state).length);
			}
			expect(Math.max(...sizes)).toBeLessThan(8192);
			// ~830 settled hours of 40 campaigns; each reached its final figures exactly as often as the mode promises.
			expect(emissions.size).toBeGreaterThan(33_000);
			const wrong: string[] = [];
			for (const [key, views] of emissions) {
				const [period, campaign] = key.split('/');
				if (Date.parse(period) + 60 * MIN + settings.settleMs > now) continue; // still open at the end
				if (views[views.length - 1] !== 60 * Number(campaign))
					wrong.push(`${key}: last ${views.join(',')}`);
				if (emit === 'completed' && views.length !== 1)
					wrong.push(`${key}: emitted ${views.length} times`);
				if (views.some((v, i) => i > 0 && v === views[i - 1]))
					wrong.push(`${key}: repeated ${views.join(',')}`);
			}
			expect(wrong).toEqual([]);
		},
	);
});

describe('every-change state', () => {
	const settings: PollSettings = {
		unit: 'hour',
		grouping: ['campaign'],
		emit: 'everyChange',
		settleMs: 15 * MIN,
	};
	const start = Date.parse('2026-11-01T10:00:00Z');

	test('holds about 5.3 characters per open row, and a poll that sees the same figures emits nothing', () => {
		const now = start + 30 * MIN;
		const rows = rowsFor(start, now);
		const first = applyPoll(newState('q', start, false), rows, now, settings);
		expect(first.emit).toHaveLength(40);
		expect(typeof first.next.open).toBe('string');
		// 40 open rows: 160 bytes, 216 base64 characters.
		expect(Buffer.from(first.next.open as string, 'base64')).toHaveLength(160);
		expect(first.next.open).toHaveLength(216);
		const again = applyPoll(
			JSON.parse(JSON.stringify(first.next)) as TriggerState,
			rows,
			now + MIN,
			settings,
		);
		expect(again.emit).toEqual([]);
		const grown = rows.map((row) =>
			row.campaign_id === 7 ? { ...row, views: (row.views as number) + 1 } : row,
		);
		const changed = applyPoll(again.next, grown, now + 2 * MIN, settings);
		expect(changed.emit).toEqual([grown.find((row) => row.campaign_id === 7)]);
	});
});
