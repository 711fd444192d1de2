import type { INode, INodeProperties, INodeType, IVersionedNodeType } from 'n8n-workflow';

/** A node type's description for its newest version, whether it is versioned or not. */
function newestDescription(type: INodeType | IVersionedNodeType): INodeType['description'] {
	if ('nodeVersions' in type) {
		const newest = Math.max(...Object.keys(type.nodeVersions).map(Number));
		return type.nodeVersions[newest].description;
	}
	return type.description;
}

function groupingOptions(properties: INodeProperties[]): string[] {
	const field = properties.find((p) => p.name === 'grouping');
	return (field?.options ?? []).map((option) => String((option as { value: string }).value));
}

const node = {
	name: 'Stats',
	type: 'adCabinetStats',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
} as unknown as INode;

describe('the vocabulary is the only place a grouping is defined', () => {
	test('a grouping added in memory reaches the Stats dropdown, the trigger dropdown, the tool description and the check before sending', () => {
		jest.isolateModules(() => {
			const vocabulary =
				require('../../../nodes/shared/vocabulary') as typeof import('../../../nodes/shared/vocabulary');
			vocabulary.GROUPING_TERMS.push({
				value: 'channel_topic',
				name: 'Channel Topic',
				description: 'Adds the topic of the channel',
				noun: 'channel topic',
				keys: ['channel_topic_id'],
			});

			const { AdCabinetStats } = require('../../../nodes/AdCabinetStats/AdCabinetStats.node');
			const {
				AdCabinetStatsTrigger,
			} = require('../../../nodes/AdCabinetStatsTrigger/AdCabinetStatsTrigger.node');
			const { checkStatsQuery } = require('../../../nodes/shared/stats/query');
			const { rowKey } = require('../../../nodes/shared/stats/rows');

			const stats = newestDescription(new AdCabinetStats());
			expect(groupingOptions(stats.properties)).toContain('channel_topic');
			const trigger = newestDescription(new AdCabinetStatsTrigger());
			expect(groupingOptions(trigger.properties)).toContain('channel_topic');

			const toolText = stats.properties.find(
				(p) =>
					p.name === 'toolDescription' &&
					p.displayOptions?.show?.operation?.includes('getAll') &&
					p.displayOptions?.show?.resource?.includes('statistic'),
			);
			expect(String(toolText?.default)).toContain(
				'per ad, advertised object, cabinet, campaign or channel topic',
			);

			const query = {
				period_from: '2026-11-01T00:00:00.000Z',
				period_to: '2026-11-02T00:00:00.000Z',
				period_grouping_unit: 'day',
				grouping: ['channel_topic'],
			};
			const bounds = {
				fromMs: Date.parse(query.period_from),
				toMs: Date.parse(query.period_to),
				now: new Date('2026-11-03T00:00:00Z'),
			};
			expect(() => checkStatsQuery(node, query, bounds, 0)).not.toThrow();
			// Its key fields identify a row, as the trigger and the row key need.
			const a = rowKey({ period_date: '2026-11-01', channel_topic_id: 1 }, ['channel_topic']);
			const b = rowKey({ period_date: '2026-11-01', channel_topic_id: 2 }, ['channel_topic']);
			expect(a).not.toBe(b);
		});
	});

	test('without the addition, an unknown grouping is refused before sending, naming the allowed values', () => {
		jest.isolateModules(() => {
			const { checkStatsQuery } = require('../../../nodes/shared/stats/query');
			const query = {
				period_from: '2026-11-01T00:00:00.000Z',
				period_to: '2026-11-02T00:00:00.000Z',
				period_grouping_unit: 'day',
				grouping: ['channel_topic'],
			};
			const bounds = {
				fromMs: Date.parse(query.period_from),
				toMs: Date.parse(query.period_to),
				now: new Date('2026-11-03T00:00:00Z'),
			};
			expect(() => checkStatsQuery(node, query, bounds, 0)).toThrow(
				/values must be from ad, ad_object, cabinet, campaign.*"channel_topic"/,
			);
		});
	});
});
