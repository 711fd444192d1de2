import { PLATFORM } from '../../nodes/shared/platform';
import {
	EVENT_ID_KEY,
	PIXEL_ID_KEY,
	type Cabinet,
	type PixelCode,
	type PixelEvent,
	type PixelEventType,
} from './model';
import { isoWithOffset } from './format';
import { DAY_MS, HOUR_MS } from '../metrics/time';

export const PIXEL_EVENT_TYPES: readonly PixelEventType[] = [
	{ type: 'page_view', label: 'Page view' },
	{ type: 'purchase', label: 'Purchase' },
	{ type: 'custom', label: 'Custom event' },
];

const SEEDED_EVENTS: readonly { title: string; type: string; status: 'active' | 'inactive' }[] = [
	{ title: 'Page view', type: 'page_view', status: 'active' },
	{ title: 'Purchase completed', type: 'purchase', status: 'active' },
	{ title: 'Newsletter signup', type: 'custom', status: 'active' },
	{ title: 'Old landing visit', type: 'custom', status: 'inactive' },
];

export function pixelIdOf(cabinetIndex: number): { id: string; platformPixelId: string } {
	return { id: String(600001 + cabinetIndex), platformPixelId: String(9100001 + cabinetIndex) };
}

/** Sequence numbers give event ids 31001, 31002, ... and platform event ids 7700013, 7700026, ... */
export function pixelEventIds(seq: number): { id: string } & Record<typeof EVENT_ID_KEY, string> {
	return { id: String(31000 + seq), [EVENT_ID_KEY]: String(7700000 + seq * 13) };
}

export function eventSnippet(extPixelId: string, extEventId: string): string {
	return `<script>window.${PLATFORM}Pixel && ${PLATFORM}Pixel('event', '${extPixelId}', '${extEventId}');</script>`;
}

export function baseCode(cabinetIndex: number): PixelCode {
	const { id, platformPixelId } = pixelIdOf(cabinetIndex);
	return {
		id,
		[PIXEL_ID_KEY]: platformPixelId,
		code_snippet:
			`<script async src="https://pixel.sandbox.invalid/${platformPixelId}.js"></script>` +
			`<script>window.${PLATFORM}Pixel=window.${PLATFORM}Pixel||function(){(window.${PLATFORM}Pixel.q=window.${PLATFORM}Pixel.q||[]).push(arguments)};` +
			`${PLATFORM}Pixel('init', '${platformPixelId}');</script>`,
	};
}

export function seedPixelEvents(cabinets: readonly Cabinet[], anchorMs: number): PixelEvent[] {
	const events: PixelEvent[] = [];
	let seq = 0;
	cabinets.forEach((cabinet, cabinetIndex) => {
		for (const template of SEEDED_EVENTS) {
			seq += 1;
			events.push({
				...pixelEventIds(seq),
				account_id: cabinet.account_id,
				pixel_id: pixelIdOf(cabinetIndex).id,
				title: template.title,
				type: template.type,
				status: template.status,
				created_at: isoWithOffset(anchorMs - (120 - seq) * DAY_MS),
				last_triggered_at:
					template.status === 'active' ? isoWithOffset(anchorMs - seq * 3 * HOUR_MS) : null,
			});
		}
	});
	return events;
}

export const SEEDED_PIXEL_EVENT_COUNT = SEEDED_EVENTS.length;
