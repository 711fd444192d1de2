/**
 * Headless Chromium from the system (Debian's `chromium`, never a downloaded browser) driven by
 * playwright-core, with a fresh profile, logged in to n8n as the owner, and a record of everything
 * the page complains about: console errors, page errors, failed requests and HTTP errors.
 */
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { existsSync } from 'node:fs';
import { mentionsPackage } from '../lib/logs';
import { OWNER } from '../lib/rest';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const VIEWPORT = { width: 1280, height: 800 };

const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

export interface PageEvent {
	kind: 'console' | 'page error' | 'request failed' | 'http error' | 'outside request' | 'toast';
	text: string;
	url: string;
	/** The step the page was at (set by the caller), for reports. */
	step?: string;
}

/** Everything the page reported, in order; checks read the part since their mark. */
class PageEvents {
	readonly all: PageEvent[] = [];
	/** The step events are attributed to from now on. */
	step = 'start';

	constructor(
		private readonly origin: string,
		private readonly packageName: string,
	) {}

	add(event: PageEvent): void {
		this.all.push({ step: this.step, ...event });
	}

	mark(): number {
		return this.all.length;
	}

	/** Events since `mark` that concern n8n itself (outside requests are blocked and listed apart). */
	since(mark: number): PageEvent[] {
		return this.all.slice(mark).filter((e) => !this.isOutside(e));
	}

	isOutside(event: PageEvent): boolean {
		return (
			event.kind === 'outside request' || (event.url !== '' && !event.url.startsWith(this.origin))
		);
	}

	concernsPackage(event: PageEvent): boolean {
		return mentionsPackage(`${event.text} ${event.url}`, this.packageName);
	}

	/** Requests to other hosts (blocked: everything stays on 127.0.0.1), once each. */
	outside(): string[] {
		return [...new Set(this.all.filter((e) => e.kind === 'outside request').map((e) => e.url))];
	}

	/** Events that concern neither this package nor an outside host, once each. */
	unrelated(): string[] {
		return [
			...new Set(
				this.all
					.filter((e) => !this.isOutside(e) && !this.concernsPackage(e))
					.map((e) => `[${e.step}] ${describe(e)}`),
			),
		];
	}
}

export function describe(event: PageEvent): string {
	return `${event.kind}: ${event.text.split('\n')[0].slice(0, 240)}${event.url ? ` (${event.url})` : ''}`;
}

export interface EditorBrowser {
	context: BrowserContext;
	page: Page;
	events: PageEvents;
	close(): Promise<void>;
}

/**
 * Launches Chromium with a fresh profile in `profileDir`, blocks requests to hosts other than
 * `baseUrl`'s, and logs the owner in with POST /rest/login from the browser context (its cookie
 * is the page's).
 */
export async function openEditorBrowser(
	baseUrl: string,
	profileDir: string,
	packageName: string,
): Promise<EditorBrowser> {
	if (!existsSync(CHROMIUM_PATH)) {
		throw new Error(
			`no Chromium at ${CHROMIUM_PATH}: apt-get install -y chromium, or set CHROMIUM_PATH`,
		);
	}
	const origin = new URL(baseUrl).origin;
	const events = new PageEvents(origin, packageName);
	const context = await chromium.launchPersistentContext(profileDir, {
		executablePath: CHROMIUM_PATH,
		headless: true,
		args: CHROMIUM_ARGS,
		viewport: VIEWPORT,
		deviceScaleFactor: 1,
		locale: 'en-US',
		timezoneId: 'UTC',
	});
	try {
		await context.route(
			(url) => url.origin !== origin && /^(https?|wss?):$/.test(url.protocol),
			async (route) => {
				events.add({ kind: 'outside request', text: 'blocked', url: route.request().url() });
				await route.abort('blockedbyclient');
			},
		);
		context.on('console', (message) => {
			if (message.type() !== 'error') return;
			events.add({ kind: 'console', text: message.text(), url: message.location().url ?? '' });
		});
		context.on('requestfailed', (request) => {
			const failure = request.failure()?.errorText ?? 'failed';
			// Navigations away from a page cancel its pending requests: not a failure of the request.
			if (failure === 'net::ERR_ABORTED') return;
			events.add({ kind: 'request failed', text: failure, url: request.url() });
		});
		context.on('response', (response) => {
			if (response.status() < 400) return;
			events.add({
				kind: 'http error',
				text: `${response.request().method()} answered ${response.status()}`,
				url: response.url(),
			});
		});
		const page = context.pages()[0] ?? (await context.newPage());
		page.on('pageerror', (error) => {
			events.add({ kind: 'page error', text: error.stack ?? error.message, url: '' });
		});
		const login = await context.request.post(`${origin}/rest/login`, {
			data: { emailOrLdapLoginId: OWNER.email, password: OWNER.password },
			headers: { origin },
		});
		if (!login.ok()) {
			throw new Error(
				`POST /rest/login answered ${login.status()}: ${(await login.text()).slice(0, 300)}`,
			);
		}
		return { context, page, events, close: async () => await context.close() };
	} catch (error) {
		await context.close();
		throw error;
	}
}
