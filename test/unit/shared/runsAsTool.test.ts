import type { INode } from 'n8n-workflow';
import { runsAsTool } from '../../../nodes/shared/runsAsTool';

const node = (type: string) => ({ type }) as INode;

describe('runsAsTool', () => {
	test('a node n8n runs as an AI tool has its type name with Tool at the end', () => {
		expect(runsAsTool(node('n8n-nodes-ad-cabinet.adCabinetAdsTool'))).toBe(true);
		expect(runsAsTool(node('n8n-nodes-ad-cabinet.adCabinetAds'))).toBe(false);
		expect(runsAsTool(node('n8n-nodes-ad-cabinet.adCabinetStatsTrigger'))).toBe(false);
	});
});
