import type { PlatformNames } from '../platform';
import type { Cabinet, PixelCode, PixelEvent, PixelEventType } from './model';
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
export function pixelEventIds(
	seq: number,
	names: PlatformNames,
): { id: string } & Record<string, string> {
	return { id: String(31000 + seq), [names.fields.eventId]: String(7700000 + seq * 13) };
}

/** An event's snippet: the real form calls `tgp('event', '<id>')`; the spec form names its pixel too. */
export function eventSnippet(names: PlatformNames, pixelId: string, eventId: string): string {
	const fn = names.pixelFunction;
	return names.platform === 'telegram'
		? `<script>${fn}('event', '${eventId}');</script>`
		: `<script>window.${fn} && ${fn}('event', '${pixelId}', '${eventId}');</script>`;
}

export function baseCode(cabinetIndex: number, names: PlatformNames): PixelCode {
	const { id, platformPixelId } = pixelIdOf(cabinetIndex);
	const fn = names.pixelFunction;
	return {
		id,
		[names.fields.pixelId]: platformPixelId,
		code_snippet:
			`<script async src="https://pixel.sandbox.invalid/${platformPixelId}.js"></script>` +
			`<script>window.${fn}=window.${fn}||function(){(window.${fn}.q=window.${fn}.q||[]).push(arguments)};` +
			`${fn}('init', '${platformPixelId}');</script>`,
	};
}

export function seedPixelEvents(
	cabinets: readonly Cabinet[],
	anchorMs: number,
	names: PlatformNames,
): PixelEvent[] {
	const events: PixelEvent[] = [];
	let seq = 0;
	cabinets.forEach((cabinet, cabinetIndex) => {
		for (const template of SEEDED_EVENTS) {
			seq += 1;
			events.push({
				...pixelEventIds(seq, names),
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
