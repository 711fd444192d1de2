import type { KnownBot, TargetBot } from './model';

/** A target bot needs at least this many daily users. */
export const MIN_BOT_DAILY_USERS = 1000;

export const KNOWN_BOTS: readonly KnownBot[] = [
	{ id: 880001, username: 'shop_helper_bot', title: 'Shop Helper', dailyUsers: 54_000 },
	{ id: 880002, username: 'travel_deals_bot', title: 'Travel Deals', dailyUsers: 12_500 },
	{ id: 880003, username: 'quiz_master_bot', title: 'Quiz Master', dailyUsers: 1_000 },
	{ id: 880004, username: 'tiny_notes_bot', title: 'Tiny Notes', dailyUsers: 420 },
	{ id: 880005, username: 'fresh_launch_bot', title: 'Fresh Launch', dailyUsers: 999 },
];

export function botUrl(bot: KnownBot): string {
	return `https://t.me/${bot.username}`;
}

export function botPhotoUrl(bot: KnownBot): string {
	return `https://cdn.sandbox.invalid/bots/${bot.username}.jpg`;
}

export function asTargetBot(bot: KnownBot): TargetBot {
	return { url: botUrl(bot), title: bot.title, photo_url: botPhotoUrl(bot) };
}

/** Accepts `https://t.me/name`, `t.me/name`, `@name` or `name`; returns the bot or undefined. */
export function findBot(reference: string): KnownBot | undefined {
	const username = reference
		.trim()
		.replace(/^https?:\/\//i, '')
		.replace(/^(www\.)?(t|telegram)\.me\//i, '')
		.replace(/^@/, '')
		.replace(/[/?#].*$/, '')
		.toLowerCase();
	return KNOWN_BOTS.find((bot) => bot.username === username);
}
