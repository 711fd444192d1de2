import { numericRow } from '../../nodes/shared/stats/rows';

/** What Numeric Values promised before its fast path: Number() of a non-empty string, kept if finite. */
function expected(value: unknown): unknown {
	if (typeof value !== 'string' || value === '') return value;
	const number = Number(value);
	return Number.isFinite(number) ? number : value;
}

describe("Numeric Values (the rows' decimal strings become numbers)", () => {
	test('every decimal shape converts exactly as Number() does, and anything else is left as sent', () => {
		const samples = [
			'7.99',
			'0.08',
			'20408.00',
			'-0.5',
			'-0',
			'0',
			'00',
			'007.50',
			'.5',
			'-.5',
			'5.',
			'1e3',
			'1E-2',
			' 2',
			'2 ',
			'+3',
			'-',
			'.',
			'',
			'abc',
			'1.2.3',
			'Infinity',
			'-Infinity',
			'NaN',
			'0x10',
			'123456789012345',
			'1234567890123456',
			'12345678901234567890',
			'0.1234567890123456789',
			'999999999999999.9',
			'9007199254740993',
		];
		let seed = 7;
		const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
		for (let n = 0; n < 20000; n++) {
			const digits = 1 + Math.floor(random() * 18);
			let text = '';
			for (let d = 0; d < digits; d++) text += String(Math.floor(random() * 10));
			const point = Math.floor(random() * (digits + 1));
			if (random() < 0.8) text = `${text.slice(0, point)}.${text.slice(point)}`;
			samples.push(random() < 0.3 ? `-${text}` : text);
		}
		const wrong: string[] = [];
		for (const sample of samples) {
			const row = numericRow({ ctr: sample, cpa: sample, views: 5, ad_title: '1.5' });
			if (!Object.is(row.ctr, expected(sample)) || !Object.is(row.cpa, expected(sample))) {
				wrong.push(`${JSON.stringify(sample)} → ${String(row.ctr)}`);
			}
			if (row.ad_title !== '1.5' || row.views !== 5)
				wrong.push(`other fields changed for ${sample}`);
		}
		expect(wrong).toEqual([]);
	});

	test('null, numbers and missing decimal fields stay as they are', () => {
		expect(numericRow({ ctr: null, cpc: 1.5, cpm: '2.50' })).toEqual({
			ctr: null,
			cpc: 1.5,
			cpm: 2.5,
		});
	});
});
