import type { Platform } from '../platform';
import type { Cabinet, Campaign } from './model';

/**
 * Cabinet ids of the real form: strings such as `ACC0000` or `ACC06163`. The seeded cabinets are
 * written with the spec form's ids below and take these in the `telegram` form; both orders sort
 * alike, so rows ordered by cabinet come out in the same order in either form.
 */
const TELEGRAM_CABINET_IDS: Readonly<Record<string, string>> = {
	'100001': 'ACC06163',
	'100002': 'ACC07021',
	'100003': 'ACC07355',
	'100004': 'ACC08112',
};

/** The id a seeded cabinet (named by its spec-form id) has in a form. */
export function cabinetIdIn(platform: Platform, specId: string): string {
	return platform === 'telegram' ? (TELEGRAM_CABINET_IDS[specId] ?? specId) : specId;
}

/** Maps every seeded cabinet's id in one form to its id in another. */
export function cabinetIdMap(from: Platform, to: Platform): Map<string, string> {
	return new Map(
		Object.keys(TELEGRAM_CABINET_IDS).map((specId) => [
			cabinetIdIn(from, specId),
			cabinetIdIn(to, specId),
		]),
	);
}

export const CABINETS: readonly Cabinet[] = [
	{
		account_id: '100001',
		id: '100001',
		name: 'Tashkent Digital',
		currency: 'USD',
		geolocation: 'UZ',
		automaticLabelling: true,
		permitted: true,
		extAccountType: 1,
		legalName: 'Tashkent Digital LLC',
		categoryKey: 'media',
		categoryName: 'Media and news',
		availableAtStart: 1850,
	},
	{
		account_id: '100002',
		id: '100002',
		name: 'Berlin Growth GmbH',
		currency: 'EUR',
		geolocation: 'DE',
		automaticLabelling: false,
		permitted: true,
		extAccountType: 2,
		legalName: 'Berlin Growth GmbH',
		categoryKey: 'ecommerce',
		categoryName: 'E-commerce',
		// Runs low: the balance alert recipe has something to find.
		availableAtStart: 35,
	},
	{
		account_id: '100003',
		id: '100003',
		name: 'Moscow Performance',
		currency: 'RUB',
		geolocation: 'RU',
		automaticLabelling: true,
		permitted: true,
		extAccountType: 1,
		legalName: 'OOO Moscow Performance',
		categoryKey: 'finance',
		categoryName: 'Finance',
		availableAtStart: 240_000,
	},
	{
		account_id: '100004',
		id: '100004',
		name: 'Partner Agency (no access)',
		currency: 'EUR',
		geolocation: 'UZ',
		automaticLabelling: false,
		permitted: false,
		extAccountType: 2,
		legalName: 'Partner Agency Ltd',
		categoryKey: 'agency',
		categoryName: 'Agency',
		availableAtStart: 500,
	},
];

export const CAMPAIGNS: readonly Campaign[] = [
	{
		id: 2101,
		name: 'Tashkent Spring Launch',
		account_id: '100001',
		description: 'Spring launch of the tech news channel',
	},
	{
		id: 2102,
		name: 'Uzbek Retail Always-on',
		account_id: '100001',
		description: 'Always-on retail offers',
	},
	{ id: 2103, name: 'Samarkand Travel', account_id: '100001', description: '' },
	{
		id: 2201,
		name: 'Berlin Black Friday',
		account_id: '100002',
		description: 'Black Friday deals',
	},
	{ id: 2202, name: 'DE Brand Awareness', account_id: '100002', description: '' },
	{
		id: 2203,
		name: 'Munich App Installs',
		account_id: '100002',
		description: 'App installs around Munich',
	},
	{
		id: 2204,
		name: 'Hamburg Retargeting',
		account_id: '100002',
		description: 'Site visitors, retargeted',
	},
	{
		id: 2301,
		name: 'Moscow Food Delivery',
		account_id: '100003',
		description: 'Food delivery bot',
	},
	{
		id: 2302,
		name: 'RU Finance Leads',
		account_id: '100003',
		description: 'Leads for the finance digest',
	},
	{ id: 2303, name: 'Kazan Events', account_id: '100003', description: '' },
	{ id: 2401, name: 'Partner Private Campaign', account_id: '100004', description: '' },
];

/** Promoted objects per cabinet; `invite` ones are private channels promoted through an invite link. */
export interface ObjectTemplate {
	kind: 'channel' | 'bot' | 'website' | 'invite';
	url: string;
	title: string;
	inviteLink?: string;
}

export const OBJECTS: Readonly<Record<string, readonly ObjectTemplate[]>> = {
	'100001': [
		{ kind: 'channel', url: 'https://t.me/uzbek_tech_news', title: 'Uzbek Tech News' },
		{ kind: 'channel', url: 'https://t.me/tashkent_food', title: 'Tashkent Food' },
		{ kind: 'bot', url: 'https://t.me/uz_market_bot', title: 'UZ Market Bot' },
		{ kind: 'website', url: 'https://shop.example.uz', title: 'Example Shop UZ' },
		{
			kind: 'invite',
			url: 'https://t.me/uz_private_club',
			title: 'UZ Private Club',
			inviteLink: 'https://t.me/+Qx7PrivUzClub',
		},
	],
	'100002': [
		{ kind: 'channel', url: 'https://t.me/berlin_startups', title: 'Berlin Startups' },
		{ kind: 'channel', url: 'https://t.me/de_gaming_hub', title: 'DE Gaming Hub' },
		{ kind: 'bot', url: 'https://t.me/fahrrad_deals_bot', title: 'Fahrrad Deals' },
		{ kind: 'website', url: 'https://www.example-shop.de', title: 'Example Shop DE' },
		{
			kind: 'invite',
			url: 'https://t.me/de_insider_club',
			title: 'DE Insider Club',
			inviteLink: 'https://t.me/joinchat/AAAAAEdeInsider',
		},
	],
	'100003': [
		{ kind: 'channel', url: 'https://t.me/moscow_afisha', title: 'Moscow Afisha' },
		{ kind: 'channel', url: 'https://t.me/ru_finance_digest', title: 'RU Finance Digest' },
		{ kind: 'bot', url: 'https://t.me/pizza_order_bot', title: 'Pizza Order Bot' },
		{ kind: 'website', url: 'https://example-market.ru', title: 'Example Market' },
	],
};
