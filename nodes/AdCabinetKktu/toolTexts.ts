/** What an AI agent is told about each KKTU operation (see shared/toolDescription.ts). */
export const CATEGORY_TOOL_TEXTS = {
	getAll:
		'List KKTU ad-marking categories: one item per category with id, code (like 1.2.3), name, level and path. By default only third-level categories, the only ones an ad accepts as its KKTU category. Use Search to find one by name or code. Only reads.',
	getTree:
		'The whole KKTU classifier tree as nested categories (large). To find a category for an ad, prefer "Get many KKTU categories" with Search.',
};
