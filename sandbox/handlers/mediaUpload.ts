import { ApiError, fieldError } from '../errors';
import { json, multipartBody, queryValue, type Handler } from './context';
import { sniffMediaType } from './mediaSniff';

/**
 * POST {client_api_url}/api/v1/advertising/{platform}/upload_media?account_id=, one file part
 * `media`. A file that cannot be used is still a 200: the failure is in `error`, null on success.
 */
export const mediaUpload: Handler = ({ req, data }) => {
	const accountId = queryValue(req.query, 'account_id');
	if (!accountId) throw fieldError('account_id', 'query parameter is required');
	const cabinet = data.cabinet(accountId);
	if (!cabinet) throw new ApiError(404, `Account ${accountId} not found.`);
	if (!cabinet.permitted)
		throw new ApiError(403, `You do not have permission to upload media for account ${accountId}.`);
	const form = multipartBody(req);
	const file = form.files.media;
	if (!file) {
		const parts = [...Object.keys(form.fields), ...Object.keys(form.files)];
		throw fieldError(
			'media',
			`a file part named "media" is required${parts.length ? ` (got parts: ${parts.join(', ')})` : ''}`,
		);
	}
	const declared = file.type || 'application/octet-stream';
	if (file.size === 0)
		return json({
			media_token: null,
			content_type: declared,
			error: 'The uploaded file is empty.',
		});
	const contentType = sniffMediaType(file.bytes);
	if (!contentType) {
		return json({
			media_token: null,
			content_type: declared,
			error: 'Unsupported file format: upload a JPEG, PNG, GIF or WebP image or an MP4 video.',
		});
	}
	const token = `media_${data.mediaUploads.length + 1}_${file.sha256.slice(0, 16)}`;
	data.mediaUploads.push({
		media_token: token,
		accountId,
		content_type: contentType,
		filename: file.filename,
		size: file.size,
		sha256: file.sha256,
	});
	return json({ media_token: token, content_type: contentType, error: null });
};
