/** What an AI agent is told about each Audiences operation (see shared/toolDescription.ts). */
export const AUDIENCE_TOOL_TEXTS = {
	create:
		'Create a phone-number audience in a cabinet whose geolocation is Uzbekistan, from Phone Numbers (or, when the Source is From URL, from a File URL serving a CSV or txt file of them): at least 1,000 numbers of 12 digits starting with 998 (or their SHA-256 hashes), separated by commas or line breaks. Numbers are cleaned, deduplicated and hashed before upload; returns the audience and counts of what was sent. Each successful call creates a new audience. Set Dry Run to see the request (the file as its size and SHA-256) without creating anything.',
	getAll:
		"List a cabinet's phone-number audiences, one item each. Without Return All at most Limit come back. Only reads.",
};
