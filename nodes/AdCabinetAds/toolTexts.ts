/** What an AI agent is told about each Ads operation (see shared/toolDescription.ts). */
export const AD_TOOL_TEXTS = {
	getAll:
		'List ads in Ad Cabinet: one item per ad with its id, title, status, type, campaign, spend, impressions, clicks and CTR. Pages of up to 500 ads are read; without Return All at most Limit ads come back, and if exactly Limit arrive more exist. The id is the Ad ID the get and update tools need.',
	get: 'Get the full settings of one ad (texts, URLs, budget, schedule, targeting, KKTU category, media) by its Ad ID, which "Get many ads" lists.',
	create:
		'Create one ad in a campaign and return it. Needs the Campaign ID; a cabinet with automatic labelling also needs one third-level KKTU category (a code like 1.2.3, listed by the Ad Cabinet KKTU tool), and an image needs a media token from the Ad Cabinet Media upload. Each successful call creates a new ad, so do not repeat one that succeeded; a refused call changed nothing.',
	update:
		'Change some settings of one ad by its Ad ID ("Get many ads" lists them); fields left out stay as they are. Returns the updated ad. Repeating the same update is safe.',
	validateBots:
		'Check Telegram bots before targeting them: one item per bot with valid true or false and the reason. A bot needs at least 1,000 daily users. Only reads, so repeating is safe.',
};
