/** What an AI agent is told about each Ads operation (see shared/toolDescription.ts). */
export const AD_TOOL_TEXTS = {
	getAll:
		'List ads in Ad Cabinet: one item per ad with its id, title, status, type, campaign, spend, impressions, clicks and CTR. Pages of up to 500 ads are read; without Return All at most Limit ads come back, and if exactly Limit arrive more exist. The id is the Ad ID the get and update tools need.',
	get: 'Get the full settings of one ad (texts, URLs, budget, schedule, targeting, KKTU category, media) by its Ad ID, which "Get many ads" lists.',
	create:
		'Create one ad in a campaign and return it. Needs the Campaign ID; a cabinet with automatic labelling also needs one third-level KKTU category (a code like 1.2.3, listed by the Ad Cabinet KKTU tool), and an image needs a media token from the Ad Cabinet Media upload. Each successful call creates a new ad unless Skip Identical finds the same ad (same campaign, title, promote URL and text, compared as people read them: outer spaces, line ends, the case of the URL host and a trailing slash do not count) and returns it with skipped: true. Set Dry Run to see the exact request without creating anything. A CPM or budget outside the bounds under Options is refused before sending. A refused call changed nothing.',
	update:
		'Change some settings of one ad by its Ad ID ("Get many ads" lists them); fields left out stay as they are. Returns the updated ad; when every value already matches (Skip Unchanged) nothing is sent and the item says skipped: true. Set Dry Run to see the request and the changes { field: { from, to } } without changing anything. Repeating the same update is safe.',
	validateBots:
		'Check Telegram bots before targeting them: one item per bot with valid true or false and the reason. A bot needs at least 1,000 daily users. Only reads, so repeating is safe.',
};

export const CABINET_TOOL_TEXTS = {
	getAll:
		"List the cabinets (ad accounts) of the Ad Cabinet user: one item per cabinet with account_id, account_name, status and its balances in the cabinet's currency (balance_available: free money; balance_active: money in running ads; balance_total; balance_spent). The account_id (like ACC0000) is the Cabinet ID that the pixel event, audience, media and bot tools need. Filter by a part of the name. Only reads. Works with the Telegram (Adstat) API only.",
	get: 'Get one cabinet by its Cabinet ID (like ACC0000, from "Get many cabinets"): its name and balance. Only reads. Works with the Telegram (Adstat) API only.',
};

export const CAMPAIGN_TOOL_TEXTS = {
	getAll:
		'List the campaigns of all cabinets: one item per campaign with id, name, account_id, status, number of ads, budget, spent, impressions, clicks, CTR and CPM. "Figures For" chooses the days the figures cover (all time, this month, today, yesterday). The id is the Campaign ID that creating an ad needs, and the campaign_id of the statistics rows. Only reads. Works with the Telegram (Adstat) API only.',
};

export const BALANCE_TOOL_TEXTS = {
	get: 'Get the money of the whole account: available (free to spend), active (in running ads) and total, each as {amount, currency}. Only reads. Works with the Telegram (Adstat) API only.',
};
