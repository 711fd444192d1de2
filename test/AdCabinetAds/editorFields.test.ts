import type { IDataObject, INodeParameters, INodeProperties, INodeType } from 'n8n-workflow';
import { nodeTypes, PACKAGE_NAME, runNode } from '../../harness';
import { apiRequests, credentialsFor } from '../../harness/sandbox';
import { useSandbox } from '../support/useSandbox';
import { minimalCreate } from '../support/adFixtures';

const NOW = '2026-11-20T12:00:00.000Z';
/** The version a new node gets: what a person filling the fields today sees. */
const CURRENT = (nodeTypes().getByNameAndVersion(`${PACKAGE_NAME}.adCabinetAds`) as INodeType)
	.description.defaultVersion as number;

function budgetScheduleOption(name: string, version: number): INodeProperties[] {
	const { description } = nodeTypes().getByNameAndVersion(
		`${PACKAGE_NAME}.adCabinetAds`,
	) as INodeType;
	const collection = description.properties.find(
		(p) => p.name === 'budgetSchedule',
	) as INodeProperties;
	return (collection.options as INodeProperties[]).filter((option) => {
		const { show, hide } = option.displayOptions ?? {};
		if (show?.['@version'] && !show['@version'].includes(version)) return false;
		if (hide?.['@version']?.includes(version)) return false;
		return option.name === name;
	});
}

describe('Ad Cabinet Ads → Create: fields as a person fills them', () => {
	const sandbox = useSandbox({ now: NOW });
	// Each create here is the same ad with one field changed: the rerun guard (Skip Identical, tested
	// in safeWrites.test.ts) is off so that every run sends its POST.
	const create = (parameters: INodeParameters, typeVersion = CURRENT) =>
		runNode({
			type: 'adCabinetAds',
			parameters:
				typeVersion >= 1.3 ? { ...parameters, options: { skipIdentical: false } } : parameters,
			credentials: credentialsFor(sandbox()),
			typeVersion,
		});
	const sentBody = () =>
		apiRequests(sandbox()).find((r) => r.method === 'POST')?.body as IDataObject;

	test("one Currency choice: the cabinet's own currency, or a code", async () => {
		expect(budgetScheduleOption('useAccountCurrency', CURRENT)).toEqual([]);
		expect(budgetScheduleOption('currency', CURRENT)[0].default).toBe('cabinet');

		expect(
			(await create(minimalCreate({ budgetSchedule: { currency: 'cabinet' } }))).error,
		).toBeUndefined();
		expect(sentBody()).toMatchObject({ use_account_currency: true });
		expect(sentBody()).not.toHaveProperty('currency_code');
	});

	test('choosing a code sends it and turns the cabinet currency off', async () => {
		expect(
			(await create(minimalCreate({ budgetSchedule: { currency: 'USD' } }))).error,
		).toBeUndefined();
		expect(sentBody()).toMatchObject({ currency_code: 'USD', use_account_currency: false });
	});

	test('a saved version 1 node keeps Currency and Use Cabinet Currency as it set them', async () => {
		expect(budgetScheduleOption('useAccountCurrency', 1)).toHaveLength(1);
		const saved = minimalCreate({
			budgetSchedule: { currencyCode: 'RUB', useAccountCurrency: true },
		});
		expect((await create(saved, 1)).error).toBeUndefined();
		expect(sentBody()).toMatchObject({ currency_code: 'RUB', use_account_currency: true });
	});

	test('Schedule Timezone is a list of UTC offsets, sent in seconds', async () => {
		const [field] = budgetScheduleOption('scheduleTimezone', CURRENT);
		expect(field.type).toBe('options');
		const names = (field.options as Array<{ name: string; value: number }>).map((o) => [
			o.name,
			o.value,
		]);
		expect(names).toContainEqual(['UTC', 0]);
		expect(names).toContainEqual(['UTC+05:30', 5.5]);
		expect(names).toContainEqual(['UTC−12:00', -12]);
		expect(names).toContainEqual(['UTC+14:00', 14]);
		expect(
			(await create(minimalCreate({ budgetSchedule: { scheduleTimezone: 5.5 } }))).error,
		).toBeUndefined();
		expect(sentBody()).toMatchObject({ schedule_timezone: 19_800 });
	});

	test('a Schedule Timezone saved in hours, or given in seconds by an expression, is sent in seconds', async () => {
		// A node saved before the API's unit was known holds hours, as the list still does.
		for (const [given, sent] of [
			[-3.5, -12_600],
			[0, 0],
			['={{ 10800 }}', 10_800],
			['={{ "5.75" }}', 20_700],
		] as const) {
			sandbox().clearLog();
			const run = await create(minimalCreate({ budgetSchedule: { scheduleTimezone: given } }));
			expect([given, run.error]).toEqual([given, undefined]);
			expect([given, sentBody().schedule_timezone]).toEqual([given, sent]);
		}
		sandbox().clearLog();
		const wrong = await create(
			minimalCreate({ budgetSchedule: { scheduleTimezone: '={{ 100 }}' } }),
		);
		expect(apiRequests(sandbox())).toHaveLength(0);
		expect(wrong.error?.message).toMatch(
			/^Schedule Timezone: must be a UTC offset in whole quarter hours/,
		);
		expect(wrong.error?.message).toContain('Nothing was sent to the API.');
	});

	test('Campaign ID, CPM and Budget start empty, so the editor marks them as missing', () => {
		const { description } = nodeTypes().getByNameAndVersion(
			`${PACKAGE_NAME}.adCabinetAds`,
		) as INodeType;
		for (const name of ['campaignId', 'cpm', 'budget']) {
			const property = description.properties.find((p) => p.name === name) as INodeProperties;
			expect([name, property.required, property.default]).toEqual([name, true, '']);
		}
	});

	// The typed Campaign ID of saved 1.1 nodes; from 1.2 it is a locator whose By ID takes whole
	// numbers of at least 1 only (campaignPicker.test.ts).
	test.each([
		['Campaign ID', { campaignId: undefined }, 1.1],
		['Campaign ID', { campaignId: 0 }, 1.1],
		['CPM', { cpm: undefined }, CURRENT],
		['Budget', { budget: undefined }, CURRENT],
	])('%s left empty or 0 is refused before anything is sent', async (label, extra, version) => {
		const parameters = minimalCreate();
		for (const [key, value] of Object.entries(extra)) {
			if (value === undefined) delete parameters[key];
			else parameters[key] = value;
		}
		const { error } = await create(parameters, version);
		expect(error?.message.startsWith(`${label}:`)).toBe(true);
		expect(apiRequests(sandbox())).toHaveLength(0);
	});
});
