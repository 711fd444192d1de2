import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { viewOf } from '../../../nodes/shared/auth';
import { PATHS } from '../../../nodes/shared/constants';
import {
	DEFAULT_PLATFORM,
	shownFieldName,
	PLATFORM_NAMES,
	PLATFORMS,
	platformNames,
	platformNamesOf,
	type PlatformNames,
} from '../../../nodes/shared/platform';
import { fillPath, PLATFORM_NAMES as SANDBOX_NAMES } from '../../../sandbox';
import { NODE } from '../../support/fakeContext';

/** Each form's names as its documentation writes them: the real service's docs, and the interface spec. */
const DOCUMENTED = {
	telegram: {
		paths: {
			legacyReport: '/api/report/tgview',
			adCreate: '/api/advertisement/telegram/',
			ad: '/api/advertisement/telegram/10042',
			mediaUpload: '/api/v1/advertising/telegram/upload_media',
			audiencesList: '/api/advertisement/telegram/ACC06163/audiences/',
			audienceCreate: '/api/advertisement/telegram/ACC06163/audiences',
		},
		fields: {
			eventId: 'tg_event_id',
			adPlatformId: 'telegram_id',
			accountType: 'tg_account_type',
			pixelId: 'tg_pixel_id',
			audienceId: 'tg_id',
		},
		pixelFunction: 'tgp',
		legacyReportDates: 'dateTime',
		cabinetIdExample: 'ACC0000',
	},
	ext: {
		paths: {
			legacyReport: '/api/report/extview',
			adCreate: '/api/advertisement/ext/',
			ad: '/api/advertisement/ext/10042',
			mediaUpload: '/api/v1/advertising/ext/upload_media',
			audiencesList: '/api/advertisement/ext/ACC06163/audiences/',
			audienceCreate: '/api/advertisement/ext/ACC06163/audiences',
		},
		fields: {
			eventId: 'ext_event_id',
			adPlatformId: 'ext_id',
			accountType: 'ext_account_type',
			pixelId: 'ext_pixel_id',
			audienceId: 'ext_id',
		},
		pixelFunction: 'extPixel',
		legacyReportDates: 'date',
		cabinetIdExample: '100001',
	},
} as const;

/** Every path of the map, with an ad id and a cabinet id filled in. */
function filled(names: PlatformNames, adId: string | number, accountId: string) {
	return {
		legacyReport: names.paths.legacyReport,
		adCreate: names.paths.adCreate,
		ad: names.paths.ad(adId),
		mediaUpload: names.paths.mediaUpload,
		audiencesList: names.paths.audiencesList(accountId),
		audienceCreate: names.paths.audienceCreate(accountId),
	};
}

describe('the naming map: one per platform', () => {
	test.each(PLATFORMS)('%s: every path and field as its documentation writes it', (platform) => {
		const names = PLATFORM_NAMES[platform];
		const documented = DOCUMENTED[platform];
		expect(names.platform).toBe(platform);
		expect(filled(names, 10042, 'ACC06163')).toEqual(documented.paths);
		expect(names.fields).toEqual(documented.fields);
		expect(names.pixelFunction).toBe(documented.pixelFunction);
		expect(names.legacyReportDates).toBe(documented.legacyReportDates);
		expect(names.cabinetIdExample).toBe(documented.cabinetIdExample);
	});

	test.each(PLATFORMS)(
		"%s: the same names as the sandbox's own transcription of the API",
		(platform) => {
			const mine = PLATFORM_NAMES[platform];
			const sandbox = SANDBOX_NAMES[platform];
			expect(filled(mine, 10042, 'ACC06163')).toEqual({
				legacyReport: sandbox.paths.legacyReport,
				adCreate: sandbox.paths.adCreate,
				ad: fillPath(sandbox.paths.ad, { ad_id: 10042 }),
				mediaUpload: sandbox.paths.uploadMedia,
				audiencesList: fillPath(sandbox.paths.audienceList, { account_id: 'ACC06163' }),
				audienceCreate: fillPath(sandbox.paths.audienceCreate, { account_id: 'ACC06163' }),
			});
			expect(mine.fields).toEqual(sandbox.fields);
			expect(mine.pixelFunction).toBe(sandbox.pixelFunction);
		},
	);

	test("the real form writes none of the spec form's platform-named paths or fields", () => {
		const telegram = Object.values(filled(PLATFORM_NAMES.telegram, 1, 'A'));
		const ext = Object.values(filled(PLATFORM_NAMES.ext, 1, 'A'));
		expect(telegram.filter((path) => ext.includes(path))).toEqual([]);
		expect(telegram.every((path) => !/\bext\b|extview/.test(path))).toBe(true);
		expect(Object.values(PLATFORM_NAMES.telegram.fields).some((f) => f.startsWith('ext'))).toBe(
			false,
		);
	});

	test('path parameters are encoded, so an id cannot change the path', () => {
		for (const names of Object.values(PLATFORM_NAMES)) {
			expect(names.paths.ad('10/../1')).toMatch(/\/10%2F..%2F1$/);
			expect(names.paths.audiencesList('ACC 1/2')).toMatch(/\/ACC%201%2F2\/audiences\/$/);
			expect(names.paths.audienceCreate('?x')).toMatch(/\/%3Fx\/audiences$/);
		}
	});

	test('the paths alike in both forms stay in PATHS and name no platform', () => {
		const shared = [
			PATHS.statsPage,
			PATHS.reportObjects,
			PATHS.adList,
			PATHS.botValidation,
			PATHS.kktu,
			PATHS.pixelEvents,
			PATHS.pixelEventTypes,
			PATHS.pixelBaseCode('ACC06163'),
			PATHS.pixelEvent('31001'),
			PATHS.pixelEventDelete('ACC06163', '31001'),
		];
		for (const path of shared) expect(path).not.toMatch(/telegram|\bext\b|extview|tgview/);
	});
});

describe('the platform comes from the credential', () => {
	const credentials = (platform?: unknown): ICredentialDataDecryptedObject =>
		platform === undefined
			? { accessToken: 't', baseUrl: 'https://a.test' }
			: ({ accessToken: 't', platform } as unknown as ICredentialDataDecryptedObject);

	test('telegram by default: a credential saved without a platform speaks to the real service', () => {
		expect(DEFAULT_PLATFORM).toBe('telegram');
		expect(platformNames(viewOf(credentials()), NODE)).toBe(PLATFORM_NAMES.telegram);
		expect(platformNames(viewOf(credentials('')), NODE)).toBe(PLATFORM_NAMES.telegram);
		expect(platformNames(viewOf(credentials(null)), NODE)).toBe(PLATFORM_NAMES.telegram);
		expect(platformNames(undefined, NODE)).toBe(PLATFORM_NAMES.telegram);
	});

	test('each choice of the credential selects its own map', () => {
		expect(platformNames(viewOf(credentials('telegram')), NODE)).toBe(PLATFORM_NAMES.telegram);
		expect(platformNames(viewOf(credentials('ext')), NODE)).toBe(PLATFORM_NAMES.ext);
	});

	test('an unknown platform is an input error that names the choices and the item', () => {
		let error: unknown;
		try {
			platformNames(viewOf(credentials('Telegram')), NODE, 3);
		} catch (caught) {
			error = caught;
		}
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as NodeOperationError).message).toBe(
			'Platform (Ad Cabinet API credential): must be "telegram" (Telegram (Adstat)) or "ext" (Generic); choose one in the credential (got "Telegram"). Nothing was sent to the API.',
		);
		expect((error as NodeOperationError).context.itemIndex).toBe(3);
	});

	test('platformNamesOf reads the credential when it is asked, not before', async () => {
		let platform = 'ext';
		const ctx = {
			getNode: () => NODE,
			getCredentials: jest.fn(async () => credentials(platform)),
		};
		expect((await platformNamesOf(ctx)).platform).toBe('ext');
		platform = 'telegram';
		expect((await platformNamesOf(ctx)).platform).toBe('telegram');
		expect(ctx.getCredentials).toHaveBeenCalledWith('adCabinetApi');
	});

	test('texts the editor shows name a field as Telegram (Adstat) writes it, without the Generic form', () => {
		expect(shownFieldName('eventId')).toBe('tg_event_id');
	});
});
