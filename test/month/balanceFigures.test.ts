import {
	balanceFigures,
	cabinetsBelow,
	type BalanceSnapshot,
} from '../../scripts/month/balanceCheck';
import type { ExecutionRow } from '../../scripts/month/executions';

const thresholds = { EUR: 100, RUB: 10_000 };
const DAY = 86_400_000;
const at = (day: number, seconds = 0) => day * DAY + 8 * 3_600_000 + 5 * 60_000 + seconds * 1000;

function run(id: number, day: number, status = 'success'): ExecutionRow {
	return {
		id,
		workflowId: 'balance',
		status,
		mode: 'trigger',
		createdAt: at(day),
		startedAt: at(day),
		stoppedAt: at(day, 20),
	};
}

function snapshot(day: number, berlin: number, moscow = 240_000): BalanceSnapshot {
	return {
		atMs: at(day, 5),
		cabinets: [
			{ cabinetId: '100001', currency: 'USD', available: 1850, spentInWeek: true },
			{ cabinetId: '100002', currency: 'EUR', available: berlin, spentInWeek: true },
			{ cabinetId: '100003', currency: 'RUB', available: moscow, spentInWeek: true },
		],
	};
}

describe("the balance alert against the API's balances at each run", () => {
	test('a cabinet below its currency threshold, or in a currency without one, must be alerted', () => {
		expect(cabinetsBelow(snapshot(0, 32.8), thresholds)).toEqual(['100001', '100002']);
		expect(cabinetsBelow(snapshot(0, 35_018.64), { ...thresholds, USD: 100 })).toEqual([]);
	});

	test('a cabinet that spent nothing in the week is not checked', () => {
		const s = snapshot(0, 0);
		s.cabinets[1].spentInWeek = false;
		expect(cabinetsBelow(s, { ...thresholds, USD: 100 })).toEqual([]);
	});

	test('each run is judged by its own balances: low one day, freed budget the next', () => {
		const figures = balanceFigures(
			[run(1, 0), run(2, 1)],
			[snapshot(0, 32.8), snapshot(1, 35_018.64)],
			[{ at: at(0, 10), cabinetId: '100002' }],
			{ ...thresholds, USD: 100 },
		);
		expect(figures).toMatchObject({ runs: 2, expected: 1, delivered: 1, missing: 0, extra: 0 });
	});

	test('an alert not sent is missing; one sent twice, or with balances above the threshold, is extra', () => {
		const figures = balanceFigures(
			[run(1, 0), run(2, 1), run(3, 2)],
			[snapshot(0, 32.8), snapshot(1, 20), snapshot(2, 500)],
			[
				{ at: at(0, 10), cabinetId: '100002' },
				{ at: at(0, 11), cabinetId: '100002' },
				{ at: at(2, 10), cabinetId: '100002' },
			],
			{ ...thresholds, USD: 100 },
		);
		expect(figures).toMatchObject({ expected: 2, delivered: 1, missing: 1, extra: 2 });
		expect(figures.examples.join('\n')).toMatch(/no alert for 100002/);
	});

	test('a failed run is expected to alert nothing, and an alert outside every run is extra', () => {
		const figures = balanceFigures(
			[run(1, 0, 'error')],
			[snapshot(0, 32.8)],
			[{ at: at(5), cabinetId: '100002' }],
			{ ...thresholds, USD: 100 },
		);
		expect(figures).toMatchObject({ runs: 1, expected: 0, missing: 0, extra: 1 });
		expect(figures.examples[0]).toMatch(/outside every run/);
	});
});
