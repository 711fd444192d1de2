import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { idPicker } from '../../../../shared/cabinetId';
import {
	AD_FIELDS,
	AD_IDS_TYPED_IN,
	CORE_FIELDS,
	COLLECTIONS,
	REMOVE_SCHEDULE,
	SCHEDULE_JSON,
	UPDATE_FIELDS,
	WEEKDAYS,
	integerRule,
	type AdField,
} from './adFields';

const DAY_NAMES: Record<string, string> = {
	mon: 'Monday',
	tue: 'Tuesday',
	wed: 'Wednesday',
	thu: 'Thursday',
	fri: 'Friday',
	sat: 'Saturday',
	sun: 'Sunday',
};

/** Whole-hour offsets from UTC-12 to UTC+14, plus the half- and three-quarter-hour ones in use. */
const UTC_OFFSETS: INodePropertyOptions[] = [
	...Array.from({ length: 27 }, (_, i) => i - 12),
	-9.5,
	-3.5,
	3.5,
	4.5,
	5.5,
	5.75,
	6.5,
	9.5,
	10.5,
	12.75,
	13.75,
]
	.sort((a, b) => a - b)
	.map((hours) => {
		const sign = hours < 0 ? '−' : '+';
		const minutes = Math.round(Math.abs(hours) * 60);
		const hh = String(Math.floor(minutes / 60)).padStart(2, '0');
		const mm = String(minutes % 60).padStart(2, '0');
		return { name: hours === 0 ? 'UTC' : `UTC${sign}${hh}:${mm}`, value: hours };
	});

const HOURS: INodePropertyOptions[] = Array.from({ length: 24 }, (_, h) => ({
	name: `${String(h).padStart(2, '0')}:00–${String(h).padStart(2, '0')}:59`,
	value: h,
}));

/** The schedule day by day, plus the JSON alternative, plus (edit only) an explicit null. */
function scheduleProperties(field: AdField, forUpdate: boolean): INodeProperties[] {
	const properties: INodeProperties[] = [
		{
			displayName: field.displayName,
			name: field.name,
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add Day',
			default: {},
			description:
				'Delivery hours day by day. Days not added get no delivery. Or use Schedule (JSON) instead.',
			options: [
				{
					name: 'days',
					displayName: 'Day',
					values: [
						{
							displayName: 'Day',
							name: 'day',
							type: 'options',
							default: 'mon',
							options: WEEKDAYS.map((day) => ({ name: DAY_NAMES[day], value: day })),
						},
						{
							displayName: 'Hours',
							name: 'hours',
							type: 'multiOptions',
							default: [],
							description:
								'Hours of the day in which the ad is delivered; an expression may give text such as "9-18, 20"',
							options: HOURS,
						},
					],
				},
			],
		},
		{
			displayName: 'Schedule (JSON)',
			name: SCHEDULE_JSON,
			type: 'json',
			default:
				'{\n  "mon": [9, 10, 11, 12, 13, 14, 15, 16, 17],\n  "tue": [9, 10, 11, 12, 13, 14, 15, 16, 17]\n}',
			description:
				'The schedule object of the API: keys mon…sun, each a list of whole hours 0–23. Days left out get no delivery.',
		},
	];
	if (forUpdate) {
		properties.push({
			displayName: 'Remove Schedule',
			name: REMOVE_SCHEDULE,
			type: 'boolean',
			default: true,
			description: 'Whether to clear the schedule (sends schedule: null)',
		});
	}
	return properties;
}

/** The node parameter(s) for one field of the table; `forUpdate` drops create-only defaults. */
function fieldProperties(field: AdField, forUpdate = false): INodeProperties[] {
	const base = {
		displayName: field.displayName,
		name: field.name,
		description: field.description,
		...(field.placeholder ? { placeholder: field.placeholder } : {}),
		...(field.versions === 'first' ? { displayOptions: { show: { '@version': [1] } } } : {}),
		...(field.versions === 'later' ? { displayOptions: { hide: { '@version': [1] } } } : {}),
	};
	const kind = field.kind;
	switch (kind.type) {
		case 'string':
			return [
				{
					...base,
					type: 'string',
					default: '',
					...(kind.rows ? { typeOptions: { rows: kind.rows } } : {}),
				},
			];
		case 'utcOffset':
			return [
				{
					...base,
					type: 'options',
					default: (field.default as number | undefined) ?? 0,
					// In offset order, west to east, as time zones are listed.
					options: UTC_OFFSETS,
				},
			];
		case 'number':
			return [
				{
					...base,
					type: 'number',
					// Empty, not 0: the editor then marks a required amount as missing before a run.
					default: (field.default as number | undefined) ?? '',
					typeOptions: {
						...(kind.positive ? { minValue: 0 } : {}),
						...(kind.min !== undefined ? { minValue: kind.min } : {}),
						...(kind.max !== undefined ? { maxValue: kind.max } : {}),
					},
				},
			];
		case 'integer': {
			const typed: INodeProperties = {
				...base,
				type: 'number',
				default: (field.default as number | undefined) ?? '',
				typeOptions: { minValue: kind.min, numberPrecision: 0 },
			};
			if (!('picker' in kind)) return [typed];
			return [
				{ ...typed, displayOptions: { show: { '@version': AD_IDS_TYPED_IN } } },
				idPicker(
					{ ...base, displayOptions: { hide: { '@version': AD_IDS_TYPED_IN } } },
					{ method: kind.picker.searchListMethod, placeholder: kind.picker.listPlaceholder },
					{
						placeholder: field.placeholder,
						validation: [
							{
								type: 'regex',
								properties: {
									regex: '^\\s*[1-9][0-9]*\\s*$',
									errorMessage: `${field.displayName} ${integerRule(kind.min)}`,
								},
							},
						],
					},
				),
			];
		}
		case 'boolean':
			return [
				{ ...base, type: 'boolean', default: (field.default as boolean | undefined) ?? false },
			];
		case 'options':
			return [
				{
					...base,
					type: 'options',
					default: (field.default as string | undefined) ?? kind.choices[0].value,
					options: [...kind.choices],
				},
			];
		case 'stringList':
		case 'idList':
			return [{ ...base, type: 'string', default: '' }];
		case 'date':
			return [{ ...base, type: 'dateTime', default: '' }];
		case 'audiences':
			return [
				{
					...base,
					type: 'multiOptions',
					default: [],
					typeOptions: { loadOptionsMethod: 'getAudiences', loadOptionsDependsOn: ['accountId'] },
				},
			];
		case 'pixelEvent':
			return [
				{
					...base,
					type: 'options',
					default: '',
					typeOptions: { loadOptionsMethod: 'getPixelEvents', loadOptionsDependsOn: ['accountId'] },
				},
			];
		case 'targetBots':
			return [
				{
					...base,
					type: 'fixedCollection',
					typeOptions: { multipleValues: true },
					placeholder: 'Add Bot',
					default: {},
					options: [
						{
							name: 'bot',
							displayName: 'Bot',
							values: [
								{
									displayName: 'Bot ID',
									name: 'id',
									type: 'number',
									default: '',
									placeholder: 'e.g. 7001',
									description: "The bot's ID from Validate Bots",
								},
								{
									displayName: 'Bot URL',
									name: 'url',
									type: 'string',
									default: '',
									placeholder: 'e.g. https://t.me/shop_helper_bot',
								},
							],
						},
					],
				},
			];
		case 'kktu':
			return [
				{
					...base,
					type: 'resourceLocator',
					default: { mode: 'list', value: '' },
					modes: [
						{
							displayName: 'From List',
							name: 'list',
							type: 'list',
							placeholder: 'Search third-level categories…',
							typeOptions: { searchListMethod: 'searchKktu', searchable: true },
						},
						{
							displayName: 'By ID or Code',
							name: 'id',
							type: 'string',
							placeholder: 'e.g. 507, or a code such as 1.1.1',
						},
					],
				},
			];
		case 'schedule':
			return scheduleProperties(field, forUpdate);
	}
}

const byName = (a: INodeProperties, b: INodeProperties) =>
	a.displayName.localeCompare(b.displayName);

/** Create: the required core fields, shown up front. */
export function createCoreProperties(show: Record<string, string[]>): INodeProperties[] {
	return CORE_FIELDS.flatMap((f) => fieldProperties(f)).map((property) => ({
		...property,
		// KKTU is required only by cabinets with automatic labelling, which the node cannot know.
		required: property.name !== 'kktu',
		displayOptions: {
			...property.displayOptions,
			show: { ...property.displayOptions?.show, ...show },
		},
	}));
}

/** Create: every other field, in one collection per group. */
export function createCollections(show: Record<string, string[]>): INodeProperties[] {
	return COLLECTIONS.map((group) => ({
		displayName: group.displayName,
		name: group.name,
		type: 'collection',
		placeholder: group.placeholder,
		default: {},
		displayOptions: { show },
		options: AD_FIELDS.filter((f) => f.collection === group.name)
			.flatMap((f) => fieldProperties(f))
			.sort(byName),
	}));
}

/** Edit: one collection with only the editable fields; only the ones added are sent. */
export function updateProperties(show: Record<string, string[]>): INodeProperties[] {
	return [
		{
			displayName: 'Update Fields',
			name: 'updateFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			displayOptions: { show },
			description: 'Only the fields added here are sent; everything else on the ad stays as it is',
			options: UPDATE_FIELDS.flatMap((f) => fieldProperties(f, true)).sort(byName),
		},
	];
}
