import { memoryFigures } from '../../scripts/month/report';

const days = (from: number, rss: number[]) => rss.map((rssMb, i) => ({ day: from + i, rssMb }));

describe("the month's memory growth, per process", () => {
	test('a steady process swinging with the garbage collector does not count as growth', () => {
		// Day 1 is left out (still loading); each end is the median of 3 readings.
		const figures = memoryFigures({
			worker: days(1, [300, 393, 358, 444, 396, 390, 375, 443, 439]),
		});
		expect(figures.worker).toEqual({ early: 393, late: 439, from: 2, to: 9 });
		expect(figures.growth).toBe(1.117);
	});

	test('a leak shows: the late median against the early one', () => {
		const figures = memoryFigures({
			main: days(1, [480, 490, 495, 500, 560, 600, 640, 650, 700]),
		});
		expect(figures.main).toMatchObject({ early: 495, late: 650 });
		expect(figures.growth).toBe(1.313);
	});

	test('a worker started after a kill: its first reading (hours after its start) is left out', () => {
		const figures = memoryFigures({ replacement: days(8, [360, 400, 405, 398, 410, 402, 404]) });
		expect(figures.replacement).toMatchObject({ early: 400, from: 9, to: 14 });
		expect(figures.growth).toBe(1.01);
	});

	test('a process with two readings is compared end to end; one reading gives no ratio', () => {
		expect(memoryFigures({ short: days(8, [350, 400, 420]) })).toMatchObject({
			short: { early: 400, late: 420 },
			growth: 1.05,
		});
		expect(memoryFigures({ once: days(9, [414]) })).toMatchObject({
			once: { early: 414, late: 414 },
			growth: 0,
		});
	});

	test('the largest ratio of all processes is the growth', () => {
		const figures = memoryFigures({
			main: days(1, [480, 490, 490, 490, 500, 500, 500]),
			worker: days(1, [300, 350, 350, 350, 420, 420, 420]),
		});
		expect(figures.growth).toBe(1.2);
	});

	test('the live heap after a full collection is compared the same way, apart from RSS', () => {
		const withHeap = (from: number, pairs: Array<[number, number]>) =>
			pairs.map(([rssMb, heapMb], i) => ({ day: from + i, rssMb, heapMb }));
		const figures = memoryFigures({
			worker: withHeap(1, [
				[300, 150],
				[370, 168],
				[380, 170],
				[375, 166],
				[450, 171],
				[470, 169],
				[460, 172],
			]),
		});
		expect(figures.worker).toMatchObject({ early: 375, late: 460, heapEarly: 168, heapLate: 171 });
		expect(figures.growth).toBe(1.227);
		expect(figures.heapGrowth).toBe(1.018);
	});

	test('without heap readings (no inspector) there is no heap growth', () => {
		expect(memoryFigures({ worker: days(1, [300, 350, 360, 370]) }).heapGrowth).toBe(0);
	});
});
