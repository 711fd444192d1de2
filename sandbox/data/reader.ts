import type { MetricSource } from '../metrics/metricSource';
import type { BucketZone } from '../metrics/time';
import type { Platform, PlatformNames } from '../platform';
import type { Ad, Cabinet, Campaign, KktuNode, PixelEvent } from './model';

/**
 * What the answers' builders (an ad's views, statistics rows, the legacy report) read of the
 * sandbox's state. The state itself (sandboxData.ts) builds its answers with them, so they know it
 * only by this shape: each can be read and tested without the whole state.
 */
export interface SandboxReader {
	/** The form the sandbox answers in, and its paths and field names. */
	readonly platform: Platform;
	readonly names: PlatformNames;
	readonly ads: readonly Ad[];
	readonly metrics: MetricSource;
	/** The timezone statistics buckets start in. */
	readonly bucketZone: BucketZone;
	/** Grows with every change that can change a statistics answer (cached answers compare it). */
	readonly version: number;
	cabinet(accountId: string): Cabinet | undefined;
	campaign(id: number): Campaign | undefined;
	kktuNode(id: string): KktuNode | undefined;
	lifetimeMetrics(ad: Ad): Float64Array;
	pixelEventByPlatformId(accountId: string, platformEventId: string): PixelEvent | undefined;
}
