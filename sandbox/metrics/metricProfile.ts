import { fraction, hash32 } from '../random';
import type { Schedule, Weekday } from '../data/schedule';

/** Immutable delivery characteristics of one ad; its statistics derive from these and the seed. */
export interface MetricProfile {
	adId: number;
	viewsPerHour: number;
	/** Click share of views, action share of clicks, video-open share of views. */
	ctr: number;
	cvr: number;
	videoRate: number;
	/** Bid per 1,000 views in hundredths of the cabinet currency. */
	cpmMinor: number;
	/** 168 flags (Monday 00h first) in the schedule's time zone; null delivers every hour. */
	scheduleMask: Uint8Array | null;
	tzOffsetHours: number;
}

const WEEKDAYS: readonly Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

function scheduleMask(schedule: Schedule | null): Uint8Array | null {
	if (!schedule) return null;
	const mask = new Uint8Array(168);
	WEEKDAYS.forEach((day, index) => {
		for (const hour of schedule[day] ?? []) mask[index * 24 + hour] = 1;
	});
	return mask.every((flag) => flag === 1) ? null : mask;
}

export function buildProfile(
	seed: number,
	adId: number,
	input: { cpm: number; video: boolean; schedule: Schedule | null; tzOffsetHours: number },
): MetricProfile {
	const u = (k: number) => fraction(hash32(seed, adId, 0x51ed, k));
	return {
		adId,
		viewsPerHour: Math.round(20 + 780 * u(1) * u(2)) + 10,
		ctr: 0.003 + 0.03 * u(3),
		cvr: 0.05 + 0.3 * u(4),
		videoRate: input.video ? 0.05 + 0.25 * u(5) : 0,
		cpmMinor: Math.max(1, Math.round(input.cpm * 100)),
		scheduleMask: scheduleMask(input.schedule),
		tzOffsetHours: input.tzOffsetHours,
	};
}
