import type { INode } from 'n8n-workflow';
import type { CredentialView } from '../../../../../nodes/shared/auth';
import {
	forgetAdRead,
	FRESH_AD_READ_MS,
	recentAdRead,
	recentAdReads,
} from '../../../../../nodes/AdCabinetAds/resources/ad/recentReads';

const TOKEN = 'secret-access-token';
const view = {
	baseUrl: 'https://client.example',
	username: 'ana',
	accessToken: TOKEN,
} as unknown as CredentialView;
const nodeOf = (type: string, id?: string): INode =>
	({
		id: 'n',
		name: 'Ads',
		type,
		typeVersion: 1.3,
		position: [0, 0],
		parameters: {},
		...(id ? { credentials: { adCabinetApi: { id, name: 'saved' } } } : {}),
	}) as INode;
const TOOL = nodeOf('n8n-nodes-ad-cabinet.adCabinetAdsTool', 'cred-1');
const WORKFLOW = nodeOf('n8n-nodes-ad-cabinet.adCabinetAds', 'cred-1');
const PATH = '/api/advertisement/telegram/7';

/** Reads the ad at `path` as `node` would: what was kept, else the answer given is kept. */
const read = (node: INode, answer: object, path = PATH) => {
	const recent = recentAdRead(node, view, path);
	if (recent.answer) return recent.answer;
	recent.keep(answer);
	return undefined;
};

describe('the recent reads of ads', () => {
	beforeEach(() => recentAdReads.reset());

	test('a tool call is given what a workflow read; a workflow always reads', () => {
		expect(read(WORKFLOW, { ad_id: 7, cpm: 2 })).toBeUndefined();
		expect(read(WORKFLOW, { ad_id: 7, cpm: 3 })).toBeUndefined();
		expect(read(TOOL, { ad_id: 7, cpm: 4 })).toEqual({ ad_id: 7, cpm: 3 });
	});

	test('each caller gets a copy: changing one changes neither the kept read nor the next answer', () => {
		const answer = { ad_id: 7, cpm: 2, media: { token: 'm' } };
		read(TOOL, answer);
		answer.cpm = 99;
		const first = read(TOOL, {}) as { cpm: number; media: { token: string } };
		first.cpm = 5;
		first.media.token = 'changed';
		expect(read(TOOL, {})).toEqual({ ad_id: 7, cpm: 2, media: { token: 'm' } });
	});

	test('a write forgets the ad, and a read under way when it was sent is not kept', () => {
		read(TOOL, { ad_id: 7, cpm: 2 });
		forgetAdRead(TOOL, view, PATH);
		const during = recentAdRead(TOOL, view, PATH);
		expect(during.answer).toBeUndefined();
		forgetAdRead(TOOL, view, PATH);
		during.keep({ ad_id: 7, cpm: 2 });
		expect(recentAdReads.kept().length).toBe(0);
	});

	test('another credential, another saved credential or another ad is not served', () => {
		read(TOOL, { ad_id: 7 });
		expect(read(nodeOf(TOOL.type, 'cred-2'), { ad_id: 7 })).toBeUndefined();
		// No saved id: the base URL and user name tell the credentials apart.
		const unsaved = nodeOf(TOOL.type);
		read(unsaved, { ad_id: 7 });
		const other = { ...view, username: 'ben' } as CredentialView;
		expect(recentAdRead(unsaved, other, PATH).answer).toBeUndefined();
		expect(read(TOOL, { ad_id: 8 }, '/api/advertisement/telegram/8')).toBeUndefined();
	});

	test('a read older than its few seconds is read again; an empty answer is not kept', () => {
		read(TOOL, { ad_id: 7 });
		recentAdReads.age(FRESH_AD_READ_MS - 1);
		expect(read(TOOL, {})).toEqual({ ad_id: 7 });
		recentAdReads.age(2);
		expect(read(TOOL, {})).toBeUndefined();
		expect(read(TOOL, {})).toBeUndefined();
	});

	test('it keeps at most 500 reads, the oldest going first, and never the access token', () => {
		for (let id = 0; id < 501; id++) read(TOOL, { ad_id: id }, `/api/advertisement/telegram/${id}`);
		expect(recentAdReads.kept().length).toBe(500);
		expect(recentAdRead(TOOL, view, '/api/advertisement/telegram/0').answer).toBeUndefined();
		expect(recentAdRead(TOOL, view, '/api/advertisement/telegram/1').answer).toEqual({ ad_id: 1 });
		expect(JSON.stringify(recentAdReads.kept())).not.toContain(TOKEN);
	});
});
