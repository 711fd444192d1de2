/**
 * Plain SVG charts, written as strings: a chart of lines or bars over days, and a chart of
 * horizontal ratio bars. No dependency; GitHub shows the files as pictures.
 */

export interface Series {
	name: string;
	color: string;
	points: Array<{ x: number; y: number }>;
	/** Dashed line instead of solid. */
	dashed?: boolean;
	/** Bars instead of a line. */
	bars?: boolean;
}

interface DayChart {
	title: string;
	yLabel: string;
	series: Series[];
	/** Vertical marks at an x with a short label (e.g. a fault on its day). */
	marks?: Array<{ x: number; label: string }>;
}

const WIDTH = 760;
const LEFT = 64;
const RIGHT = 16;
const TOP = 40;
const PLOT_HEIGHT = 220;

const escapeXml = (text: string) =>
	text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A round upper bound for an axis: 1, 2 or 5 times a power of ten, at least `max`. */
function niceMax(max: number): number {
	if (!(max > 0)) return 1;
	const power = 10 ** Math.floor(Math.log10(max));
	return [1, 2, 5, 10].map((m) => m * power).find((v) => v >= max) ?? 10 * power;
}

const num = (value: number) => Number(value.toFixed(1)).toString();

function svg(height: number, body: string[]): string {
	return [
		`<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif" font-size="12">`,
		`<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
		...body,
		'</svg>',
		'',
	].join('\n');
}

/** Lines and bars over whole days (x), on one y axis from 0. */
export function dayChart(chart: DayChart): string {
	const xs = chart.series.flatMap((s) => s.points.map((p) => p.x));
	const firstDay = Math.min(...xs, ...(chart.marks ?? []).map((m) => m.x));
	const lastDay = Math.max(...xs, ...(chart.marks ?? []).map((m) => m.x));
	const top = niceMax(Math.max(0, ...chart.series.flatMap((s) => s.points.map((p) => p.y))));
	const plotWidth = WIDTH - LEFT - RIGHT;
	const slot = plotWidth / Math.max(1, lastDay - firstDay + 1);
	const x = (day: number) => LEFT + (day - firstDay + 0.5) * slot;
	const y = (value: number) => TOP + PLOT_HEIGHT - (value / top) * PLOT_HEIGHT;
	const body: string[] = [
		`<text x="${LEFT}" y="20" font-size="14" font-weight="bold">${escapeXml(chart.title)}</text>`,
	];
	for (let i = 0; i <= 4; i++) {
		const value = (top * i) / 4;
		body.push(
			`<line x1="${LEFT}" y1="${num(y(value))}" x2="${WIDTH - RIGHT}" y2="${num(y(value))}" stroke="#dddddd"/>`,
			`<text x="${LEFT - 6}" y="${num(y(value) + 4)}" text-anchor="end">${num(value)}</text>`,
		);
	}
	body.push(
		`<text x="14" y="${TOP + PLOT_HEIGHT / 2}" transform="rotate(-90 14 ${TOP + PLOT_HEIGHT / 2})" text-anchor="middle">${escapeXml(chart.yLabel)}</text>`,
	);
	const labelEvery = Math.max(1, Math.ceil((lastDay - firstDay + 1) / 16));
	for (let day = firstDay; day <= lastDay; day++) {
		if ((day - firstDay) % labelEvery) continue;
		body.push(
			`<text x="${num(x(day))}" y="${TOP + PLOT_HEIGHT + 16}" text-anchor="middle">${day}</text>`,
		);
	}
	body.push(
		`<text x="${LEFT + plotWidth / 2}" y="${TOP + PLOT_HEIGHT + 32}" text-anchor="middle">day</text>`,
	);
	const barSeries = chart.series.filter((s) => s.bars);
	const barWidth = (slot * 0.8) / Math.max(1, barSeries.length);
	barSeries.forEach((s, i) => {
		for (const p of s.points) {
			const left = x(p.x) - slot * 0.4 + i * barWidth;
			body.push(
				`<rect x="${num(left)}" y="${num(y(p.y))}" width="${num(barWidth)}" height="${num(y(0) - y(p.y))}" fill="${s.color}"><title>${escapeXml(`${s.name}, day ${p.x}: ${p.y}`)}</title></rect>`,
			);
		}
	});
	for (const s of chart.series.filter((line) => !line.bars)) {
		const points = [...s.points].sort((a, b) => a.x - b.x);
		if (!points.length) continue;
		const path = points.map((p) => `${num(x(p.x))},${num(y(p.y))}`).join(' ');
		body.push(
			`<polyline points="${path}" fill="none" stroke="${s.color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>`,
			...points.map(
				(p) =>
					`<circle cx="${num(x(p.x))}" cy="${num(y(p.y))}" r="2.5" fill="${s.color}"><title>${escapeXml(`${s.name}, day ${p.x}: ${p.y}`)}</title></circle>`,
			),
		);
	}
	const marks = chart.marks ?? [];
	marks.forEach((mark, i) => {
		body.push(
			`<line x1="${num(x(mark.x))}" y1="${TOP}" x2="${num(x(mark.x))}" y2="${TOP + PLOT_HEIGHT}" stroke="#d62728" stroke-dasharray="3 3"/>`,
			`<text x="${num(x(mark.x) + 3)}" y="${TOP + 10 + (i % 6) * 12}" fill="#d62728" font-size="10">${escapeXml(mark.label)}</text>`,
		);
	});
	const legendTop = TOP + PLOT_HEIGHT + 48;
	chart.series.forEach((s, i) => {
		const lx = LEFT + (i % 3) * 230;
		const ly = legendTop + Math.floor(i / 3) * 18;
		body.push(
			s.bars
				? `<rect x="${lx}" y="${ly - 9}" width="18" height="10" fill="${s.color}"/>`
				: `<line x1="${lx}" y1="${ly - 4}" x2="${lx + 18}" y2="${ly - 4}" stroke="${s.color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>`,
			`<text x="${lx + 24}" y="${ly}">${escapeXml(s.name)}</text>`,
		);
	});
	return svg(legendTop + Math.ceil(chart.series.length / 3) * 18 + 8, body);
}

/** Horizontal bars, one a ratio, with the goal's bound marked where there is one. */
export function ratioChart(
	title: string,
	bars: Array<{ label: string; ratio: number; limit?: number }>,
): string {
	const rowHeight = 26;
	const labelWidth = 360;
	const plotLeft = labelWidth + 8;
	const plotWidth = WIDTH - plotLeft - 60;
	const top = niceMax(Math.max(1, ...bars.flatMap((b) => [b.ratio, b.limit ?? 0])));
	const x = (value: number) => plotLeft + (Math.min(value, top) / top) * plotWidth;
	const body: string[] = [
		`<text x="8" y="20" font-size="14" font-weight="bold">${escapeXml(title)}</text>`,
		`<line x1="${num(x(1))}" y1="30" x2="${num(x(1))}" y2="${36 + bars.length * rowHeight}" stroke="#999999"/>`,
		`<text x="${num(x(1))}" y="${48 + bars.length * rowHeight}" text-anchor="middle">1×</text>`,
	];
	bars.forEach((bar, i) => {
		const rowTop = 36 + i * rowHeight;
		const missed = bar.limit !== undefined && bar.ratio > bar.limit;
		const color = bar.limit === undefined ? '#7f7f7f' : missed ? '#d62728' : '#2ca02c';
		const label = bar.label.length > 54 ? `${bar.label.slice(0, 53)}…` : bar.label;
		body.push(
			`<text x="${labelWidth}" y="${rowTop + 15}" text-anchor="end">${escapeXml(label)}</text>`,
			`<rect x="${plotLeft}" y="${rowTop + 4}" width="${num(x(bar.ratio) - plotLeft)}" height="16" fill="${color}"><title>${escapeXml(`${bar.label}: ${bar.ratio.toFixed(2)}×`)}</title></rect>`,
			`<text x="${num(x(bar.ratio) + 4)}" y="${rowTop + 16}">${bar.ratio.toFixed(2)}×</text>`,
		);
		if (bar.limit !== undefined)
			body.push(
				`<line x1="${num(x(bar.limit))}" y1="${rowTop + 1}" x2="${num(x(bar.limit))}" y2="${rowTop + 23}" stroke="#000000" stroke-width="2"/>`,
			);
	});
	return svg(60 + bars.length * rowHeight, body);
}
