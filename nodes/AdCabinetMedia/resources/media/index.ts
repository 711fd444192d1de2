import { defineResource, type Resource } from '../../../shared/operation';
import { mediaUpload } from './upload';

export const mediaResource: Resource = defineResource({
	resource: 'media',
	displayName: 'Media',
	defaultOperation: 'upload',
	operations: [mediaUpload],
});
