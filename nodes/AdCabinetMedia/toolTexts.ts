/** What an AI agent is told about each Media operation (see shared/toolDescription.ts). */
export const MEDIA_TOOL_TEXTS = {
	upload:
		'Upload the image (JPEG, PNG, GIF or WebP) or MP4 video found at File URL for an ad, and return media_token and content_type. Use media_token in the Ad Cabinet Ads create or update tool. Files above Max File Size (50 MB by default) are refused. Each call stores one more file, so repeating is harmless. Set Dry Run to see the request (the file as its size and SHA-256) without uploading.',
};
