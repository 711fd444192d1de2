import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';
import type { PlatformNames } from '../../../shared/platform';
import { labelOf } from './fields/adFields';
import { cabinetAccessHint } from '../../../shared/transport/nodeErrors';
import { apiErrorFields, type Failure } from '../../../shared/transport/apiFailure';

type AdOperation = 'get' | 'create' | 'update';

/** The refusal of an ad without a KKTU id (cabinets with automatic labelling need one), in words that say what to do. */
const AUTOMATIC_LABELLING_HINT =
	'The cabinet needs a KKTU category: set "KKTU Category" to one third-level category (a code like 1.2.3; the Ad Cabinet KKTU node lists them).';

function kktuSent(fx: IExecuteSingleFunctions, operation: AdOperation): boolean {
	if (operation === 'update')
		return 'kktu' in (fx.getNodeParameter('updateFields', {}) as IDataObject);
	const value = fx.getNodeParameter('kktu', '', { extractValue: true }) as unknown;
	return value !== '' && value !== undefined && value !== null;
}

function adIdOf(fx: IExecuteSingleFunctions): string {
	return String(fx.getNodeParameter('adId', '', { extractValue: true }) ?? '').trim();
}

/** Advice for a failed ad request, naming the node's fields where the API named its own. */
export function adHint(operation: AdOperation) {
	return function (
		this: IExecuteSingleFunctions,
		failure: Failure,
		names: PlatformNames,
	): string | undefined {
		if (failure.status === 404 && operation !== 'create') {
			return `Ad ${adIdOf(this)} was not found. Check the ID or pick the ad from the list; ads of cabinets this token cannot use are not found either.`;
		}
		if (failure.status === 403) {
			return cabinetAccessHint('the cabinet of this campaign', 'the Campaign ID');
		}
		const fields = apiErrorFields(failure);
		if ((failure.status !== 400 && failure.status !== 422) || fields.length === 0) return undefined;
		const named = `Fix the fields it named: ${fields
			.map((field) => (labelOf(field, names) ? `${field} (${labelOf(field, names)})` : field))
			.join(', ')}.`;
		if (fields.includes('kktu_ids') && operation !== 'get' && !kktuSent(this, operation)) {
			return AUTOMATIC_LABELLING_HINT;
		}
		return named;
	};
}
