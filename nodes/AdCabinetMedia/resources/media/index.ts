import { defineResource } from '../../../shared/operation';
import { mediaUpload } from './upload';

export const mediaResource = defineResource({
	resource: 'media',
	displayName: 'Media',
	defaultOperation: 'upload',
	operations: [mediaUpload],
});
